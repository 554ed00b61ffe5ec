/**
 * CTRLRun's authority axis (its `Authority.evaluate`, SPEC-v0.3 §4.3, SPEC-v0.9 §2 and §6) over the
 * compiled grants: may this principal propose this call at all? Pure. A grant covers a call when its
 * subject, action, resource and environment match (the shape); a covering grant then fails for
 * expiry, its task, or its constraints. Any passing grant authorizes (the least id by code point is
 * named); otherwise the reason is the first of `authority_expired`, `authority_task`,
 * `authority_constraint` any covering grant failed for, else `no_authority`.
 */
import type { BudgetCharge, CompiledAuthority, CompiledGrant } from './types.js';

/** CTRLRun's `matches`: segment-wise, case-sensitive, no normalization. */
export function patternMatches(pattern: string, value: string, separator: '.' | ':' | null): boolean {
  const parts = separator === null ? [pattern] : pattern.split(separator);
  const actual = separator === null ? [value] : value.split(separator);
  if (parts[parts.length - 1] === '**') {
    const prefix = parts.slice(0, -1);
    return actual.length > prefix.length && prefix.every((p, i) => p === actual[i]);
  }
  if (parts.length !== actual.length) return false;
  return parts.every((p, i) => (p.endsWith('*') ? (actual[i] as string).startsWith(p.slice(0, -1)) : p === actual[i]));
}

export interface Subject {
  agent: string;
  user: string | null;
}

export interface AuthorityCall {
  action: string;
  resource: string | null;
  environment: string;
  task: string | null;
  /** The call's checked arguments (lossless). */
  args: unknown;
  now: number;
}

export type AuthorityResult = { passed: true; grant: CompiledGrant } | { passed: false; reason: AuthorityReason; grantId: string | null };
export type AuthorityReason = 'authority_expired' | 'authority_task' | 'authority_constraint' | 'no_authority';

const PRECEDENCE: readonly AuthorityReason[] = ['authority_expired', 'authority_task', 'authority_constraint'];

export function evaluateAuthority(authority: CompiledAuthority, subject: Subject, call: AuthorityCall): AuthorityResult {
  let passed: CompiledGrant | undefined;
  const failed = new Map<AuthorityReason, string>();
  for (const grant of authority.grants) {
    if (!coversShape(grant, subject, call)) continue;
    const reasons: AuthorityReason[] = [];
    if (expired(grant, call.now)) reasons.push('authority_expired');
    if (grant.constraints && !constraintsHold(grant, call.args)) reasons.push('authority_constraint');
    if (!taskHolds(grant, call.task)) reasons.push('authority_task');
    if (reasons.length === 0) {
      if (passed === undefined || grant.id < passed.id) passed = grant;
      continue;
    }
    for (const reason of reasons) {
      const known = failed.get(reason);
      if (known === undefined || grant.id < known) failed.set(reason, grant.id);
    }
  }
  if (passed) return { passed: true, grant: passed };
  for (const reason of PRECEDENCE) {
    const grantId = failed.get(reason);
    if (grantId !== undefined) return { passed: false, reason, grantId };
  }
  return { passed: false, reason: 'no_authority', grantId: null };
}

function coversShape(grant: CompiledGrant, subject: Subject, call: AuthorityCall): boolean {
  if (!coversRun(grant, subject, call.action, call.environment)) return false;
  return grant.resources === null || (call.resource !== null && grant.resources.some((p) => patternMatches(p, call.resource as string, ':')));
}

/** The parts of a grant's shape that do not depend on the call's arguments: its subject, its actions, its environments. */
export function coversRun(grant: CompiledGrant, subject: Subject, action: string, environment: string): boolean {
  if (grant.agent !== null && !patternMatches(grant.agent, subject.agent, null)) return false;
  if (grant.user !== null && (subject.user === null || !patternMatches(grant.user, subject.user, null))) return false;
  if (!grant.actions.some((p) => patternMatches(p, action, '.'))) return false;
  return grant.environments === null || grant.environments.includes(environment);
}

export function expired(grant: CompiledGrant, now: number): boolean {
  return grant.expiresAt !== null && now > grant.expiresAt;
}

export function taskHolds(grant: CompiledGrant, task: string | null): boolean {
  return grant.tasks === null || (task !== null && grant.tasks.some((p) => patternMatches(p, task, ':')));
}

function constraintsHold(grant: CompiledGrant, args: unknown): boolean {
  try {
    return grant.constraints!(args).decision === 'allow';
  } catch {
    return false;
  }
}

/**
 * What a call under `grant` spends (CTRLRun's `_charges_for`, for a document grant): per budget, 1
 * for `count`, else the integer value of the argument the metric names. An absent, non-integer or
 * negative value is refused, never counted as zero: the string says why.
 */
export function chargesFor(grant: CompiledGrant, args: unknown): BudgetCharge[] | string {
  const out: BudgetCharge[] = [];
  for (const budget of grant.budgets ?? []) {
    let amount: bigint;
    if (budget.metric === 'count') amount = 1n;
    else {
      const value =
        args !== null && typeof args === 'object' && Object.hasOwn(args, budget.metric) ? (args as Record<string, unknown>)[budget.metric] : undefined;
      if (value === undefined || value === null)
        return `grant ${grant.id} budgets "${budget.metric}" and the call carries no "${budget.metric}" argument (a missing value is refused, never counted as zero)`;
      if (!((typeof value === 'number' && Number.isInteger(value)) || typeof value === 'bigint') || BigInt(value) < 0n) {
        return `grant ${grant.id} budgets "${budget.metric}" and the call's value is not a non-negative integer (money is budgeted in minor units)`;
      }
      amount = BigInt(value);
    }
    out.push({ grantId: grant.id, metric: budget.metric, amount: amount.toString(), limit: budget.limit, windowMs: budget.windowMs });
  }
  return out;
}
