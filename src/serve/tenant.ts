import { isTenantName, ownsRecord, TENANT, tenantPrefix } from '../runtime/tenant-names.js';
import type {
  ApprovalRequest,
  BudgetCharge,
  ClaimResult,
  Consumption,
  DecisionBody,
  DecisionEntry,
  EffectRecord,
  NewApprovalRequest,
  Receipt,
  ReceiptBody,
  ReserveEffectInput,
  ReserveResult,
} from '../runtime/types.js';

/**
 * A tenant's names in a shared store (runtime/tenant-names.ts): a token with a tenant passes and
 * reads plain names; serve stores them as `@TENANT:name`, exactly once, and hands back only that
 * tenant's records, in the names it passed (receipts and decision entries too: their `hash` stays
 * the stored record's, and `names` in the answer says how to rebuild what it covers). A name a token
 * passes never starts with `@` (that is a stored name): the default tenant cannot reach a named one,
 * and a named tenant's names are never prefixed twice. Inside one tenant the store's contract is
 * unchanged (its tokens are one application's).
 */
export { TENANT };

/** Thrown for a name a tenant may not use (serve answers 403). */
export class TenantRefusal extends Error {}

export interface TenantScope {
  readonly tenant: string | undefined;
  /** The stored form of a name the token passed. */
  inward(name: string): string;
  /** A stored name of this tenant in the token's form, or undefined when it belongs to another. */
  outward(stored: string): string | undefined;
}

export function tenantScope(tenant: string | undefined): TenantScope {
  const prefix = tenant === undefined ? '' : tenantPrefix(tenant);
  return {
    tenant,
    inward: (name) => {
      if (typeof name !== 'string') throw new TenantRefusal('expected a name (a string).');
      if (name.startsWith('@'))
        throw new TenantRefusal(`${JSON.stringify(name.slice(0, 80))}: a name starting with @ is a stored (tenant) name; pass the plain name.`);
      return prefix + name;
    },
    outward: (stored) => (isTenantName(tenant, stored) ? stored.slice(prefix.length) : undefined),
  };
}

/** A request as the tenant sees it (undefined: another tenant's). */
export function requestOut(scope: TenantScope, r: ApprovalRequest | null): ApprovalRequest | null | undefined {
  if (r === null) return null;
  const callId = scope.outward(r.callId);
  return callId === undefined ? undefined : { ...r, callId };
}

/** An effect as the tenant sees it (undefined: another tenant's), its attempt id as the token gave it. */
export function effectOut(scope: TenantScope, e: EffectRecord | null): EffectRecord | null | undefined {
  if (e === null) return null;
  const key = scope.outward(e.key);
  return key === undefined ? undefined : { ...e, key, attemptId: scope.outward(e.attemptId) ?? '' };
}

export function newRequestIn(scope: TenantScope, r: NewApprovalRequest): NewApprovalRequest {
  return { ...r, callId: scope.inward(r.callId) };
}

function chargeIn(scope: TenantScope, c: BudgetCharge): BudgetCharge {
  return { ...c, grantId: scope.inward(c.grantId) };
}

export function reserveIn(scope: TenantScope, input: ReserveEffectInput): ReserveEffectInput {
  return {
    ...input,
    key: scope.inward(input.key),
    attemptId: scope.inward(input.attemptId),
    ...(input.charges ? { charges: input.charges.map((c) => chargeIn(scope, c)) } : {}),
    ...(input.claim ? { claim: { ...input.claim, callId: scope.inward(input.claim.callId) } } : {}),
  };
}

export function claimOut(scope: TenantScope, r: ClaimResult): ClaimResult {
  if (r.outcome === 'unknown') return r;
  const request = requestOut(scope, r.request);
  return request ? { ...r, request } : { outcome: 'unknown' };
}

export function reserveOut(scope: TenantScope, r: ReserveResult): ReserveResult {
  switch (r.outcome) {
    case 'budget_exhausted':
      return { ...r, charge: { ...r.charge, grantId: scope.outward(r.charge.grantId) ?? '' } };
    case 'claim_refused':
      return { ...r, claim: claimOut(scope, r.claim) as typeof r.claim };
    case 'reserved': {
      const claimed = r.claimed ? requestOut(scope, r.claimed) : undefined;
      return { ...r, effect: effectOut(scope, r.effect)!, ...(claimed ? { claimed } : {}) };
    }
    default:
      return { ...r, effect: effectOut(scope, r.effect)! };
  }
}

export function consumptionOut(scope: TenantScope, c: Consumption): Consumption | undefined {
  const effectKey = scope.outward(c.effectKey);
  const grantId = scope.outward(c.grantId);
  return effectKey === undefined || grantId === undefined ? undefined : { ...c, effectKey, grantId };
}

/** A receipt or decision entry the tenant writes: its call and key in stored names. */
export function namedIn<T extends ReceiptBody | DecisionBody>(scope: TenantScope, body: T): T {
  if (typeof body !== 'object' || body === null) throw new TenantRefusal('expected a record (an object).');
  return {
    ...body,
    call_id: body.call_id === null || body.call_id === undefined ? null : scope.inward(body.call_id),
    effect_key: body.effect_key === null || body.effect_key === undefined ? null : scope.inward(body.effect_key),
  };
}

/** A stored receipt or decision entry in the tenant's names (undefined: not the tenant's). Its `hash` is the stored record's. */
export function namedOut<T extends Receipt | DecisionEntry>(scope: TenantScope, r: T): T | undefined {
  if (!ownsRecord(scope.tenant, r)) return undefined;
  if (scope.tenant === undefined) return r;
  const out = (name: string | null) => (name === null ? null : (scope.outward(name) ?? name));
  return { ...r, call_id: out(r.call_id), effect_key: out(r.effect_key) };
}
