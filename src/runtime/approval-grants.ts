import { parseArguments } from './arguments.js';
import { evaluateAuthority } from './authority.js';
import { canonicalJson } from './canonical.js';
import { type ConditionOperator, holds, isInteger, ORDER_OPERATORS, parseConditionKey } from './conditions.js';
import type { DecideEdit } from './edits.js';
import { sameIdentity } from './identity.js';
import type { ApprovalGrant, ApprovalRequest, CallDecision, CompiledGrant } from './types.js';

/**
 * Approval grants ("the same for this principal for the next N hours"), pure: a grant checked
 * before it is made, its bounds, and the grant as the authority stage evaluates it. Every answering
 * surface makes grants through `checkGrant`; the core decides whether one covers a call with
 * `evaluateAuthority`, the function that evaluates the policy's `authority:` grants (subject,
 * action, expiry, constraints), so the two kinds of grant share one evaluation.
 */

/** What an approver asks for: hours from now, and optional bounds (CTRLRun `when` entries, an object or its JSON text). */
export interface GrantInput {
  hours: number;
  bounds?: unknown;
}

export type GrantRefusalCode =
  | 'grant_disabled'
  | 'grant_invalid'
  | 'grant_too_long'
  | 'grant_needs_more_approvers'
  | 'grant_to_self'
  | 'grant_bounds'
  | 'grant_undecided'
  | 'grant_not_approve';

export type GrantCheck = { ok: true; grant: ApprovalGrant } | { ok: false; code: GrantRefusalCode; message: string };

/** Default longest grant, in hours, where the operator set none (`serve --max-grant-hours`, `createControl({ maxGrantHours })`). */
export const DEFAULT_MAX_GRANT_HOURS = 8;

const HOUR_MS = 3_600_000;

/** One bound: `<arg>_<op>` split, with its operand. */
export interface Bound {
  key: string;
  arg: string;
  op: ConditionOperator;
  value: unknown;
}

/**
 * A grant's bounds read and checked: a JSON object of CTRLRun `when` entries (`amount_lte: 300000`),
 * read losslessly (no float), each key `<arg>_<op>`, an order operator's operand an integer, `in`'s
 * a list, `data_scope` refused (a grant bounds arguments). `{}` (or nothing): no extra bound.
 */
export function boundsOf(input: unknown): { ok: true; bounds: Bound[]; canonical: string } | { ok: false; problem: string } {
  if (input === undefined || input === null || input === '') return { ok: true, bounds: [], canonical: '{}' };
  let text: string;
  try {
    text = typeof input === 'string' ? input : JSON.stringify(input);
  } catch {
    return { ok: false, problem: 'the bounds are not JSON' };
  }
  const parsed = parseArguments(text);
  if (!parsed.ok) return { ok: false, problem: `the bounds are refused: ${parsed.detail}` };
  const bounds: Bound[] = [];
  for (const [key, value] of Object.entries(parsed.value)) {
    const split = parseConditionKey(key);
    if (!split.ok) return { ok: false, problem: `bound ${JSON.stringify(key)} is not <arg>_<op> with <op> one of eq neq in lt lte gt gte` };
    if (split.arg === 'data_scope') return { ok: false, problem: 'a grant bounds arguments; data_scope is not one' };
    if (ORDER_OPERATORS.includes(split.op) && !isInteger(value)) return { ok: false, problem: `bound ${key} compares integers: its value must be one` };
    if (split.op === 'in' && !Array.isArray(value)) return { ok: false, problem: `bound ${key} takes a list` };
    bounds.push({ key, arg: split.arg, op: split.op, value });
  }
  return { ok: true, bounds, canonical: canonicalJson(parsed.value) };
}

/** Whether every bound holds for the call's checked arguments (a missing argument holds no bound). */
export function boundsHold(bounds: readonly Bound[], args: unknown): boolean {
  const named = args !== null && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
  return bounds.every((b) => holds(b, Object.hasOwn(named, b.arg) ? named[b.arg] : undefined));
}

/**
 * A grant an approver asks for while approving `request` (the arguments they approve: `approved`),
 * checked: grants enabled (`maxHours` > 0) and this one no longer than `maxHours`; the action needs
 * one approver (a grant is one approver's yes: an M-of-N action's later calls still need M); never
 * to the approver themself; bounds well formed; and the approved call decided `approve` by the
 * policy, whose rule the grant then stands for (so it never reaches a call the policy denies or
 * allows, and covers no wider than that rule's region, intersected with the bounds).
 */
export function checkGrant(o: {
  request: Pick<ApprovalRequest, 'callId' | 'action' | 'principal' | 'policyHash' | 'approvalsRequired'>;
  approver: string;
  input: GrantInput;
  approved: Record<string, unknown>;
  decide: DecideEdit | undefined;
  maxHours: number;
  now: number;
  id: string;
}): GrantCheck {
  const { request, input } = o;
  const no = (code: GrantRefusalCode, message: string): GrantCheck => ({ ok: false, code, message });
  if (!(o.maxHours > 0)) return no('grant_disabled', 'Grants are turned off here (the operator set no grant may last).');
  if (typeof input?.hours !== 'number' || !Number.isFinite(input.hours) || input.hours <= 0)
    return no('grant_invalid', 'A grant lasts a positive number of hours.');
  if (input.hours > o.maxHours)
    return no('grant_too_long', `Refused: a grant lasts at most ${o.maxHours} hours here (the limit the operator set); ${input.hours} asked.`);
  if (request.approvalsRequired > 1)
    return no(
      'grant_needs_more_approvers',
      `Refused: ${request.action} needs ${request.approvalsRequired} approvers for each call; a grant stands for one approver's yes.`,
    );
  if (sameIdentity(o.approver, request.principal)) return no('grant_to_self', 'Refused: an approver never grants to themself.');
  const bounds = boundsOf(input.bounds);
  if (!bounds.ok) return no('grant_bounds', `Refused: ${bounds.problem}.`);
  const decision: CallDecision | undefined = o.decide?.(request.action, o.approved);
  if (decision === undefined) return no('grant_undecided', `No policy here decides ${request.action}; a grant needs it to name the rule it stands for.`);
  if (decision.decision !== 'approve')
    return no(
      'grant_not_approve',
      `Refused: the policy decides this call ${decision.decision} (${decision.reason}); a grant stands only for a rule that asks a person.`,
    );
  return {
    ok: true,
    grant: {
      id: o.id,
      principal: request.principal,
      action: request.action,
      policyHash: request.policyHash,
      rule: decision.reason,
      bounds: bounds.canonical,
      grantedBy: o.approver,
      grantedAt: o.now,
      expiresAt: o.now + Math.round(input.hours * HOUR_MS),
      callId: request.callId,
    },
  };
}

/** A new grant's id: `grant_` and a random UUID. */
export function newGrantId(): string {
  return `grant_${globalThis.crypto.randomUUID()}`;
}

/**
 * An approval grant as the authority stage evaluates grants: its action, its expiry, and its bounds
 * as the grant's constraints (any subject: the principal was matched exactly before, by identity,
 * never as a pattern). A grant whose bounds no longer read covers nothing.
 */
export function compiledGrantOf(grant: ApprovalGrant): CompiledGrant {
  const bounds = boundsOf(grant.bounds);
  return {
    id: grant.id,
    agent: null,
    user: null,
    actions: [grant.action],
    resources: null,
    environments: null,
    expiresAt: grant.expiresAt,
    tasks: null,
    budgets: null,
    constraints: (args) =>
      bounds.ok && boundsHold(bounds.bounds, args)
        ? { decision: 'allow', rule: null, reason: 'decision' }
        : { decision: 'deny', rule: null, reason: 'decision' },
  };
}

/**
 * The approval grant that lets a call run without a pause, or undefined: one of `grants` for this
 * principal (compared as identities), this action, this policy, unrevoked, given for the rule the
 * policy decided `approve` by, and passing the authority evaluation at `now` (expiry, bounds).
 */
export function approvalGrantCovering(
  grants: readonly ApprovalGrant[],
  call: { action: string; policyHash: string; principal: string | null; decision: CallDecision; args: unknown; now: number; environment: string },
): ApprovalGrant | undefined {
  if (call.principal === null || call.decision.decision !== 'approve') return undefined;
  const principal = call.principal;
  const candidates = grants.filter(
    (g) =>
      g.revokedAt === undefined &&
      g.action === call.action &&
      g.policyHash === call.policyHash &&
      g.rule === call.decision.reason &&
      sameIdentity(g.principal, principal),
  );
  if (candidates.length === 0) return undefined;
  const result = evaluateAuthority(
    { grants: candidates.map(compiledGrantOf) },
    { agent: principal, user: null },
    { action: call.action, resource: call.decision.resource, environment: call.environment, task: null, args: call.args, now: call.now },
  );
  return result.passed ? candidates.find((g) => g.id === result.grant.id) : undefined;
}
