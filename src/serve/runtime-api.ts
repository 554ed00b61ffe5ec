import type { ApprovalState, ClaimBinding, EffectState, NewApprovalRequest, ReceiptBody, ReserveEffectInput, Store } from '../runtime/types.js';
import {
  claimOut,
  consumptionOut,
  effectOut,
  newRequestIn,
  ownsReceipt,
  receiptIn,
  requestOut,
  reserveIn,
  reserveOut,
  TenantRefusal,
  type TenantScope,
  tenantScope,
} from './tenant.js';
import { decisionStoreCall } from './decision-log-api.js';

export const RUNTIME_METHODS = new Set([
  'putRequest',
  'getRequest',
  'listRequests',
  'claimApproval',
  'reserveEffect',
  'settleEffect',
  'getEffect',
  'consumptions',
  'listEffects',
  'appendReceipt',
  'listReceipts',
  'appendDecision',
  'listDecisions',
  'decisionKey',
]);

const present = <T>(x: T | undefined): x is T => x !== undefined;
const str = (x: unknown): string => {
  if (typeof x !== 'string') throw new TenantRefusal('expected a name (a string).');
  return x;
};

/**
 * One store method called by a runtime token, inside its tenant (see tenant.ts): names go in
 * prefixed, records of other tenants never come out. Returns what
 * the store method returns, in the token's names; throws TenantRefusal for a name it may not use.
 */
export async function runtimeStoreCall(store: Store, tenant: string | undefined, method: string, args: unknown[]): Promise<unknown> {
  const scope = tenantScope(tenant);
  switch (method) {
    case 'putRequest': {
      const r = await store.putRequest(newRequestIn(scope, args[0] as NewApprovalRequest));
      return requestOut(scope, r);
    }
    case 'getRequest':
      return (await ownRequest(store, scope, str(args[0]))) ?? null;
    case 'listRequests': {
      const all = await store.listRequests(args[0] as { state?: ApprovalState } | undefined);
      return all.map((r) => requestOut(scope, r)).filter(present);
    }
    case 'claimApproval':
      return claimOut(scope, await store.claimApproval(scope.inward(str(args[0])), args[1] as number, args[2] as ClaimBinding | undefined));
    case 'reserveEffect':
      return reserveOut(scope, await store.reserveEffect(reserveIn(scope, args[0] as ReserveEffectInput)));
    case 'settleEffect':
      return store.settleEffect(scope.inward(str(args[0])), scope.inward(str(args[1])), args[2] as 'committed' | 'failed' | 'ambiguous', args[3] as number);
    case 'getEffect':
      return effectOut(scope, await store.getEffect(scope.inward(str(args[0])))) ?? null;
    case 'listEffects': {
      const all = await store.listEffects(args[0] as { state?: EffectState } | undefined);
      return all.map((e) => effectOut(scope, e)).filter(present);
    }
    case 'consumptions': {
      const f = (args[0] ?? {}) as { grantId?: string; metric?: string; effectKey?: string };
      const filter = {
        ...f,
        ...(f.grantId !== undefined ? { grantId: scope.inward(str(f.grantId)) } : {}),
        ...(f.effectKey !== undefined ? { effectKey: scope.inward(str(f.effectKey)) } : {}),
      };
      return (await store.consumptions(filter)).map((c) => consumptionOut(scope, c)).filter(present);
    }
    case 'appendReceipt':
      return store.appendReceipt(receiptIn(scope, args[0] as ReceiptBody));
    case 'listReceipts': {
      const all = await store.listReceipts(args[0] as { afterSeq?: number; limit?: number } | undefined);
      // The default tenant reads the whole chain (to verify it); a named tenant only its own receipts.
      return tenant === undefined ? all : all.filter((r) => ownsReceipt(scope, r));
    }
    case 'appendDecision':
    case 'listDecisions':
    case 'decisionKey':
      return decisionStoreCall(store, scope, tenant, method, args);
    default:
      throw new TenantRefusal(`${method}: not a store method.`);
  }
}

/** One request of the tenant, or undefined (absent or another tenant's: the same answer). */
async function ownRequest(store: Store, scope: TenantScope, callId: string) {
  return requestOut(scope, await store.getRequest(scope.inward(callId)));
}
