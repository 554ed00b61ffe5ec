import type { ApprovalMismatch } from '../errors.js';
import { sameIdentity } from '../identity.js';
import { approversOf, distinctApprovers } from '../internals.js';
import { claimMatches, claimOutcome } from '../memory-store.js';
import type { ClaimBinding, ClaimResult, Store } from '../types.js';
import type { CallFacts } from './types.js';

/** What a claim of this call's approval must match: this action, these arguments, this policy, this principal. */
export function bindingOf(action: string, policyHash: string, facts: CallFacts): ClaimBinding {
  return { action, argsHash: facts.argsHash, policyHash, principal: facts.principal };
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
