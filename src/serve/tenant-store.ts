import { RECEIPT_NAMES } from '../runtime/signing.js';
import { tenantPrefix } from '../runtime/tenant-names.js';
import type { ApprovalState, DecisionEntry, EffectState, Receipt, ReceiptMatch, Store } from '../runtime/types.js';
import {
  claimOut,
  consumptionOut,
  effectOut,
  namedIn,
  namedOut,
  newRequestIn,
  requestOut,
  reserveIn,
  reserveOut,
  TenantRefusal,
  type TenantScope,
  tenantScope,
} from './tenant.js';

const present = <T>(x: T | null | undefined): x is T => x !== undefined && x !== null;

/**
 * One tenant's view of a shared store (tenant.ts), as a Store: every name goes in prefixed once,
 * only the tenant's records come out, in the names the tenant uses. serve hands it to a runtime
 * token's store calls and to everything an operator with a tenant does (pages, answers,
 * resolutions, prunes), so one mapping serves both. The default tenant (undefined) is a view too:
 * it never sees a named tenant's records. The decision log's key, prunes and sessions are not here
 * (serve scopes them itself).
 */
export function tenantStore(store: Store, tenant: string | undefined): Store {
  const scope = tenantScope(tenant);
  const names = tenant === undefined ? undefined : tenantPrefix(tenant);
  const receiptOut = (r: Receipt | undefined) => {
    if (r === undefined || names === undefined) return r;
    // the hash covers the stored names: say which, so a signer can check it (a symbol, never serialized)
    return Object.defineProperty(r, RECEIPT_NAMES, { value: names });
  };
  const view: Store = {
    kind: store.kind,
    putRequest: async (r) => requestOut(scope, await store.putRequest(newRequestIn(scope, r)))!,
    getRequest: async (callId) => (await ownRequest(store, scope, callId)) ?? null,
    listRequests: async (filter?: { state?: ApprovalState }) => (await store.listRequests(filter)).map((r) => requestOut(scope, r)).filter(present),
    addAnswer: async (callId, answer) => {
      const result = await store.addAnswer(scope.inward(callId), answer);
      if (result.outcome === 'unknown') return result;
      const request = requestOut(scope, result.request);
      return request ? { ...result, request } : { outcome: 'unknown' };
    },
    claimApproval: async (callId, now, expect) => claimOut(scope, await store.claimApproval(scope.inward(callId), now, expect)),
    reserveEffect: async (input) => reserveOut(scope, await store.reserveEffect(reserveIn(scope, input))),
    settleEffect: (key, attemptId, state, now) => store.settleEffect(scope.inward(key), scope.inward(attemptId), state, now),
    resolveEffect: async (key, state, by, now) => effectOut(scope, await store.resolveEffect(scope.inward(key), state, by, now)) ?? null,
    getEffect: async (key) => effectOut(scope, await store.getEffect(scope.inward(key))) ?? null,
    listEffects: async (filter?: { state?: EffectState }) => (await store.listEffects(filter)).map((e) => effectOut(scope, e)).filter(present),
    consumptions: async (f = {}) => {
      const filter = {
        ...f,
        ...(f.grantId !== undefined ? { grantId: scope.inward(f.grantId) } : {}),
        ...(f.effectKey !== undefined ? { effectKey: scope.inward(f.effectKey) } : {}),
      };
      return (await store.consumptions(filter)).map((c) => consumptionOut(scope, c)).filter(present);
    },
    appendReceipt: async (body) => receiptOut(namedOut(scope, await store.appendReceipt(namedIn(scope, body))))!,
    listReceipts: (opts) =>
      ownPage(
        (q) => store.listReceipts(q),
        opts,
        (r) => namedOut(scope, r),
      ),
    lastReceiptOf: async (match: ReceiptMatch) => {
      const stored: ReceiptMatch = 'callId' in match ? { callId: scope.inward(match.callId) } : { effectKey: scope.inward(match.effectKey) };
      const found = store.lastReceiptOf ? await store.lastReceiptOf(stored) : null;
      return found ? (namedOut(scope, found) ?? null) : null;
    },
    close: async () => {},
  };
  if (typeof store.appendDecision === 'function' && typeof store.listDecisions === 'function') {
    const append = store.appendDecision.bind(store);
    const list = store.listDecisions.bind(store);
    view.appendDecision = async (body) => namedOut(scope, await append(namedIn(scope, body)))!;
    view.listDecisions = (query) =>
      ownPage(
        (q) => list({ ...query, ...q }),
        query,
        (e: DecisionEntry) => namedOut(scope, e),
      );
  }
  if (!store.lastReceiptOf) delete view.lastReceiptOf;
  return view;
}

/**
 * A page of the tenant's own records after `afterSeq`, at most `limit`: the underlying store's
 * pages are read on until that many are the tenant's or the store has no more (a page cut short by
 * other tenants' records would end a reader's paging early).
 */
async function ownPage<T extends { seq: number }>(
  list: (q: { afterSeq?: number; limit?: number }) => Promise<T[]>,
  query: { afterSeq?: number; limit?: number } | undefined,
  own: (r: T) => T | undefined,
): Promise<T[]> {
  const limit = query?.limit;
  if (limit === undefined) return (await list({ ...(query?.afterSeq !== undefined ? { afterSeq: query.afterSeq } : {}) })).map(own).filter(present);
  const out: T[] = [];
  for (let afterSeq = query?.afterSeq ?? 0; out.length < limit; ) {
    const page = await list({ afterSeq, limit });
    for (const r of page) {
      const mine = own(r);
      if (mine !== undefined && out.length < limit) out.push(mine);
    }
    if (page.length < limit) break;
    afterSeq = page[page.length - 1]!.seq;
  }
  return out;
}

/** One request of the tenant, or undefined (absent or another tenant's: the same answer). */
async function ownRequest(store: Store, scope: TenantScope, callId: string) {
  return requestOut(scope, await store.getRequest(scope.inward(callId)));
}

export { TenantRefusal };
