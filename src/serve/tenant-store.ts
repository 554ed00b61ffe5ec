import { RECEIPT_NAMES } from '../runtime/signing.js';
import { tenantPrefix } from '../runtime/tenant-names.js';
import type {
  ApprovalGrant,
  ApprovalState,
  DecisionEntry,
  EffectState,
  GrantStore,
  Halt,
  HaltState,
  HaltStore,
  Receipt,
  ReceiptMatch,
  Store,
} from '../runtime/types.js';
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
    appendReceipt: async (body, options) =>
      receiptOut(
        namedOut(scope, await (options === undefined ? store.appendReceipt(namedIn(scope, body)) : store.appendReceipt(namedIn(scope, body), options))),
      )!,
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
  if (typeof store.putGrant === 'function') Object.assign(view, tenantGrants(store as Required<Pick<Store, keyof GrantStore>> & Store, scope));
  if (typeof store.readHalts === 'function' && typeof store.putHalt === 'function' && typeof store.liftHalt === 'function')
    Object.assign(view, tenantHalts(store as Required<HaltStore>, scope));
  return view;
}

/**
 * A tenant's approval grants: a grant belongs to the tenant whose request it answered (its call id is
 * stored in the tenant's names); ids are serve's or the operator tool's random ones, unprefixed, and
 * another tenant's id is as unknown here as an id nobody made.
 */
function tenantGrants(store: Required<Pick<Store, keyof GrantStore>>, scope: TenantScope): GrantStore {
  const out = (g: ApprovalGrant | null): ApprovalGrant | undefined => {
    if (g === null) return undefined;
    const callId = scope.outward(g.callId);
    return callId === undefined ? undefined : { ...g, callId };
  };
  return {
    putGrant: async (grant) => {
      const stored = out(await store.putGrant({ ...grant, callId: scope.inward(grant.callId) }));
      if (!stored) throw new TenantRefusal('putGrant: that grant id is taken.');
      return stored;
    },
    listGrants: async (query) => (await store.listGrants(query)).map(out).filter(present),
    getGrant: async (id) => out(await store.getGrant(id)) ?? null,
    revokeGrant: async (id, by, now) => {
      if (!out(await store.getGrant(id))) return null;
      return out(await store.revokeGrant(id, by, now)) ?? null;
    },
  };
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

/**
 * A tenant's halts: its own (stored as `@T:id`, shown by id) and the whole store's (a plain id, set
 * by an operator without a tenant: they stop every tenant's calls, and only such an operator lifts
 * them). The default tenant's own are the plain ones. One epoch for the store: another tenant's
 * change makes a process read again and find nothing new for it.
 */
function tenantHalts(store: Required<HaltStore>, scope: TenantScope): HaltStore {
  const own = (h: Halt): Halt | undefined => {
    const id = scope.outward(h.id);
    if (id !== undefined) return { ...h, id };
    return h.id.startsWith('@') ? undefined : h;
  };
  const view = (state: HaltState): HaltState => ({ epoch: state.epoch, halts: state.halts.map(own).filter(present) });
  return {
    readHalts: async () => view(await store.readHalts()),
    putHalt: async (halt) => view(await store.putHalt({ ...halt, id: scope.inward(halt.id) })),
    liftHalt: async (id) => {
      const { lifted, state } = await store.liftHalt(scope.inward(id));
      return { lifted: lifted ? { ...lifted, id } : null, state: view(state) };
    },
  };
}
