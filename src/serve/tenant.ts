import type {
  ApprovalRequest,
  BudgetCharge,
  ClaimResult,
  Consumption,
  EffectRecord,
  NewApprovalRequest,
  ReceiptBody,
  ReserveEffectInput,
  ReserveResult,
} from '../runtime/types.js';

/**
 * A runtime token's tenant: the part of a shared store it may act on. serve keeps tenants apart by
 * name: every call id, effect key, attempt id and budget grant a tenant's token passes is stored
 * as `@TENANT:name`, and every record it reads back must carry that prefix (which is stripped).
 * A token cannot spell another tenant's record, so scope does not depend on any store column.
 * Inside one tenant the store's contract is unchanged (its tokens are one application's).
 * Tokens without a tenant (the default, shared tenant) use the names as given; a name starting
 * with `@` is refused for them, so they can never reach into a named tenant.
 */
export const TENANT = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** Thrown for a name a tenant may not use (serve answers 403). */
export class TenantRefusal extends Error {}

export interface TenantScope {
  /** The stored form of a name the token passed. */
  inward(name: string): string;
  /** A stored name of this tenant in the token's form, or undefined when it belongs to another. */
  outward(stored: string): string | undefined;
}

export function tenantScope(tenant: string | undefined): TenantScope {
  if (tenant === undefined) {
    return {
      inward: (name) => {
        if (typeof name === 'string' && name.startsWith('@'))
          throw new TenantRefusal(`${JSON.stringify(name.slice(0, 80))}: a name starting with @ belongs to a named tenant; this token has none.`);
        return name;
      },
      outward: (stored) => (stored.startsWith('@') ? undefined : stored),
    };
  }
  const prefix = `@${tenant}:`;
  return {
    inward: (name) => {
      if (typeof name !== 'string') throw new TenantRefusal('expected a name (a string).');
      return prefix + name;
    },
    outward: (stored) => (stored.startsWith(prefix) ? stored.slice(prefix.length) : undefined),
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

/** A receipt the tenant appends names only its own call and key. */
export function receiptIn(scope: TenantScope, body: ReceiptBody): ReceiptBody {
  return {
    ...body,
    call_id: body.call_id === null ? null : scope.inward(body.call_id),
    effect_key: body.effect_key === null ? null : scope.inward(body.effect_key),
  };
}

/** Whether a stored receipt is the tenant's (its call or its key is in the tenant's names). */
export function ownsReceipt(scope: TenantScope, r: { call_id: string | null; effect_key: string | null }): boolean {
  return (r.call_id !== null && scope.outward(r.call_id) !== undefined) || (r.effect_key !== null && scope.outward(r.effect_key) !== undefined);
}
