import { filedForm } from '../args-binding.js';
import type { ApprovalMismatch } from '../errors.js';
import { sameIdentity } from '../identity.js';
import { approversOf, distinctApprovers } from '../internals.js';
import { claimMatches, claimOutcome } from '../memory-store.js';
import type { ApprovalRequest, ClaimBinding, ClaimResult, Store } from '../types.js';
import { decideOn, type DecisionScope } from './decision.js';
import type { CallFacts, DecidedCall } from './types.js';

/** What a claim of this call's approval must match: this action, these arguments, this policy, this principal. */
export function bindingOf(action: string, policyHash: string, facts: CallFacts): ClaimBinding {
  return { action, argsHash: facts.bindHash ?? facts.argsHash, policyHash, principal: facts.principal };
}

/** The parts of a decision that make two calls the same to CTRLRun: outcome, rule, reason, effect key, resource, grant. */
function sameDecision(a: DecidedCall, b: Pick<CallFacts, 'decision' | 'grant'>): boolean {
  const [x, y] = [a.decision, b.decision];
  return (
    x.decision === y.decision &&
    x.rule === y.rule &&
    x.reason === y.reason &&
    x.effectKey === y.effectKey &&
    x.resource === y.resource &&
    x.detail === y.detail &&
    a.grant?.id === b.grant?.id
  );
}

/**
 * Binds the claim to the request filed at the pause when that request wrote the call as strict
 * mode does (an optional property `null`) and the model's text left the property out: the SDK
 * gives the tool the same parse for both, and `needsApproval` could not tell them apart. Bound so
 * only when CTRLRun decides both forms alike (`null` and absent can differ: `neq`, `data_scope`):
 * two calls the policy tells apart never share an approval. Sets `facts.bindHash`; false when the
 * request is not this call's in that form (the claim then finds it a mismatch, as before).
 */
export function rebind(scope: DecisionScope, now: number, facts: CallFacts, request: Pick<ApprovalRequest, 'args' | 'argsHash'> | null | undefined): boolean {
  if (!request || facts.args === undefined || facts.principal === null || request.argsHash === facts.argsHash) return false;
  const written = filedForm(facts.args, request);
  if (written === undefined) return false;
  const who = facts.subject ? { principal: facts.principal, subject: facts.subject } : null;
  const decided = decideOn(scope, () => now, undefined, written, who, facts.task ?? null);
  if (!sameDecision(decided, facts)) return false;
  facts.bindHash = request.argsHash;
  return true;
}

/** What the approval must also satisfy beyond the store's binding: its age and its approvers. */
export interface ApprovalRules {
  now: number;
  ttlMs: number;
  /** The action's `approvals_required` (the request's own count may only raise it). */
  approvalsRequired: number;
}

export type ApprovalVerdict = { ok: true; approvers: string[] } | { ok: false; reason: ApprovalMismatch['reason']; text: string; approvers: string[] };

/**
 * Stage 5, the approval claim, as a pure verdict on what the store answered: the approvers of an
 * approval found usable, or why it authorizes nothing. Each check is the runtime's own, asked
 * again whatever the store said (a store that ignores the binding, returns another call's
 * request, or lets the requester approve is refused here).
 */
export function approvalVerdict(facts: CallFacts, claimed: ClaimResult, binding: ClaimBinding, rules: ApprovalRules): ApprovalVerdict {
  const no = (reason: ApprovalMismatch['reason'], text: string, approvers: string[] = []): ApprovalVerdict => ({ ok: false, reason, text, approvers });
  if (facts.callId === null) return no('unknown', 'the call has no call id, so no recorded approval can match it.');
  if (claimed.outcome === 'unknown')
    return no('unknown', 'no approval for this call is recorded in the store (an approval held only by the SDK state authorizes nothing).');
  if (claimed.outcome === 'not_approved') {
    return no('unknown', `the recorded request is ${claimed.request.state}, not approved (an approval held only by the SDK state authorizes nothing).`);
  }
  const request = claimed.request;
  const approvers = approversOf(request);
  if (claimed.outcome === 'consumed') return no('consumed', 'its approval was already used; an approval runs one call once.', approvers);
  if (claimed.outcome === 'mismatch') {
    return no(
      'mismatch',
      'the approval was given for a different call (action, arguments, policy or principal differ); it stays for the call it was given for.',
      approvers,
    );
  }
  // the store's own binding rule, asked again in case a store ignores the binding it was given
  if (request.callId !== facts.callId || !claimMatches(request, binding)) {
    return no('mismatch', 'the approval was given for a different call (action, arguments, policy or principal differ).', approvers);
  }
  if (request.decidedAt === undefined || rules.now > request.decidedAt + rules.ttlMs) {
    return no('expired', `the approval expired (valid ${Math.round(rules.ttlMs / 1000)} s after it was given).`, approvers);
  }
  if (approvers.some((a) => sameIdentity(a, request.principal))) return no('approver_is_requester', 'the requester cannot approve their own call.', approvers);
  const required = Math.max(rules.approvalsRequired, request.approvalsRequired);
  if (distinctApprovers(request).size < required)
    return no('mismatch', `${required} distinct approvers are required, ${approvers.length} approved.`, approvers);
  return { ok: true, approvers };
}

/** Claims (uses up) the recorded approval of this call in the store, bound to this call. */
export async function claimFromStore(store: Pick<Store, 'claimApproval'>, facts: CallFacts, now: number, binding: ClaimBinding): Promise<ClaimResult> {
  if (facts.callId === null) return { outcome: 'unknown' };
  // bound: a call reusing this call id with other arguments (another run) must not burn the approval
  return store.claimApproval(facts.callId, now, binding);
}

/** Reads, without using it up, what a claim of this call's approval would find (the reservation then uses it). */
export async function vetFromStore(store: Pick<Store, 'getRequest'>, facts: CallFacts, binding: ClaimBinding): Promise<ClaimResult> {
  if (facts.callId === null) return { outcome: 'unknown' };
  const request = await store.getRequest(facts.callId);
  return claimOutcome(request ?? undefined, binding);
}

/** Where a claim is bound: the action's scope and the control's store and clock. */
export interface ClaimScope {
  action: string;
  policy: { hash: string };
  decision: DecisionScope;
  internals: { store: Pick<Store, 'claimApproval' | 'getRequest'>; clock: () => number };
}

/** Claims this call's approval (`claimFromStore`), bound again in the pause's form where `rebind` allows it. */
export async function claimBound(scope: ClaimScope, facts: CallFacts): Promise<ClaimResult> {
  const { store, clock } = scope.internals;
  const claimed = await claimFromStore(store, facts, clock(), bindingOf(scope.action, scope.policy.hash, facts));
  if (claimed.outcome === 'unknown' || !rebind(scope.decision, clock(), facts, claimed.request) || claimed.outcome !== 'mismatch') return claimed;
  return claimFromStore(store, facts, clock(), bindingOf(scope.action, scope.policy.hash, facts));
}

/** Reads what a claim would find (`vetFromStore`), bound again in the pause's form where `rebind` allows it. */
export async function vetBound(scope: ClaimScope, facts: CallFacts): Promise<ClaimResult> {
  const vetted = await vetFromStore(scope.internals.store, facts, bindingOf(scope.action, scope.policy.hash, facts));
  if (vetted.outcome === 'unknown' || !rebind(scope.decision, scope.internals.clock(), facts, vetted.request)) return vetted;
  return claimOutcome(vetted.request, bindingOf(scope.action, scope.policy.hash, facts));
}
