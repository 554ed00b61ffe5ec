import { entryBindsReceipt, storeDecisionKey, tenantDecisionKey } from '../runtime/decision-log.js';
import { PRUNE_ACTION } from '../runtime/prune-records.js';
import type { AppendOptions, ClaimBinding, DecisionBody, GrantQuery, NewApprovalRequest, ReceiptBody, Store } from '../runtime/types.js';
import { namedOut, tenantScope } from './tenant.js';
import { TenantRefusal, tenantStore } from './tenant-store.js';

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
  'listGrants',
  'getGrant',
  'readHalts',
]);

const str = (x: unknown): string => {
  if (typeof x !== 'string') throw new TenantRefusal('expected a name (a string).');
  return x;
};
const record = <T>(x: unknown, what: string): T => {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) throw new TenantRefusal(`${what}: expected an object.`);
  return x as T;
};

/**
 * One store method called by a runtime token, inside its tenant (tenant-store.ts): names go in
 * prefixed once, records of other tenants never come out, and what it appends to the receipts
 * and the decision log carries serve's time (`now`), never the token's: a token can neither date
 * its records nor prune anyone's (a retention it passes is refused). Throws TenantRefusal for
 * what it may not do.
 */
export async function runtimeStoreCall(store: Store, tenant: string | undefined, method: string, args: unknown[], now: number): Promise<unknown> {
  const view = tenantStore(store, tenant);
  switch (method) {
    case 'putRequest':
      // its createdAt stays the token's: the runtime tells its own filing from another process's by it
      return view.putRequest(record<NewApprovalRequest>(args[0], method));
    case 'getRequest':
      return view.getRequest(str(args[0]));
    case 'listRequests':
      return view.listRequests(args[0] as never);
    case 'claimApproval':
      return view.claimApproval(str(args[0]), args[1] as number, args[2] as ClaimBinding | undefined);
    case 'reserveEffect':
      return view.reserveEffect(record(args[0], method));
    case 'settleEffect':
      return view.settleEffect(str(args[0]), str(args[1]), args[2] as 'committed' | 'failed' | 'ambiguous', args[3] as number);
    case 'getEffect':
      return view.getEffect(str(args[0]));
    case 'listEffects':
      return view.listEffects(args[0] as never);
    case 'consumptions':
      return view.consumptions((args[0] ?? {}) as never);
    case 'appendReceipt':
      return view.appendReceipt({ ...ownReceipt(record<ReceiptBody>(args[0], method)), at: now }, appendOptions(args[1]));
    case 'readHalts':
      if (typeof view.readHalts !== 'function') throw new TenantRefusal("readHalts: this server's store keeps no halts.");
      return view.readHalts();
    case 'listReceipts':
      return view.listReceipts(args[0] as never);
    case 'appendDecision':
    case 'listDecisions':
    case 'decisionKey':
      return decisionCall(store, view, tenant, method, args, now);
    case 'listGrants': {
      // which grants are active is decided on serve's clock, never the token's
      const query = (args[0] ?? {}) as GrantQuery;
      return view.listGrants!({ ...query, ...(query.activeAt !== undefined ? { activeAt: now } : {}) });
    }
    case 'getGrant':
      return view.getGrant!(str(args[0]));
    default:
      throw new TenantRefusal(`${method}: not a store method.`);
  }
}

/**
 * The decision log over serve's store API, inside the runtime token's tenant: an entry goes in with
 * its call id and effect key in stored form (as its receipt's are, so the receipt binding holds) and
 * serve's time; a tenant lists only its own entries, in its names.
 */
async function decisionCall(store: Store, view: Store, tenant: string | undefined, method: string, args: unknown[], now: number): Promise<unknown> {
  if (typeof view.appendDecision !== 'function' || typeof view.listDecisions !== 'function')
    throw new TenantRefusal(`${method}: this server's store keeps no decision log.`);
  if (method === 'decisionKey') {
    // a named tenant's key is derived from the store's: its hashes never compare with another tenant's
    const key = await storeDecisionKey(store);
    return tenant === undefined ? key : tenantDecisionKey(key, tenant);
  }
  if (method === 'appendDecision') {
    if (args.length > 1) throw new TenantRefusal("appendDecision: a runtime token never prunes (pruning is an operator's act: `ctrlrun-gen receipts prune`).");
    const body = record<DecisionBody>(args[0], method);
    if (Object.hasOwn(body, 'pruned')) throw new TenantRefusal('appendDecision: an entry is never a pruned one (only an operator prunes).');
    // an entry that does not bind its tenant's receipt would break the shared log's verification for every tenant
    if (!(await bindsOwnReceipt(store, tenant, body)))
      throw new TenantRefusal("appendDecision: the entry does not bind a receipt of this token's (receipt_seq, receipt_hash and the call).");
    return view.appendDecision({ ...body, at: now });
  }
  return view.listDecisions(args[0] as never);
}

/** A receipt a token appends: never a prune record (only an operator prunes, and serve writes its record). */
function ownReceipt(body: ReceiptBody): ReceiptBody {
  if (body.action === PRUNE_ACTION || Object.hasOwn(body, 'prune'))
    throw new TenantRefusal("appendReceipt: a prune record is serve's to write (pruning is an operator's act).");
  return body;
}

/** Whether an entry binds the receipt it names, a receipt the token's tenant appended (compared in stored names). */
async function bindsOwnReceipt(store: Store, tenant: string | undefined, body: DecisionBody): Promise<boolean> {
  if (!Number.isSafeInteger(body.receipt_seq) || body.receipt_seq < 1) return false;
  const [stored] = await store.listReceipts({ afterSeq: body.receipt_seq - 1, limit: 1 });
  if (!stored || stored.seq !== body.receipt_seq) return false;
  // the receipt in the tenant's names: undefined when it is another tenant's
  const mine = namedOut(tenantScope(tenant), stored);
  return mine !== undefined && entryBindsReceipt(body, mine);
}

/** An append's condition (a halt epoch), or none; anything else is refused. */
function appendOptions(x: unknown): AppendOptions | undefined {
  if (x === undefined || x === null) return undefined;
  const epoch = (record<AppendOptions>(x, 'appendReceipt options') as { haltEpoch?: unknown }).haltEpoch;
  if (epoch === undefined) return undefined;
  if (!Number.isSafeInteger(epoch)) throw new TenantRefusal('appendReceipt: haltEpoch is an integer.');
  return { haltEpoch: epoch as number };
}
