/**
 * The store contract's state transitions, written once as pure functions (SPEC §5.10): an approval
 * request (pending -> answered -> approved/rejected -> consumed), an effect key (none -> in_flight ->
 * committed/failed/ambiguous -> resolved) and the budget ledger a reservation charges. Every store
 * (memory, SQLite, Postgres, and serve behind the HTTP store) reads the facts a transition needs
 * under its own atomicity (a JS turn, BEGIN IMMEDIATE, row locks), asks this module what to do,
 * and writes exactly what it answers. No store decides an outcome on its own.
 */
import { checkCharges, ledgerRows, refusedCharge } from '../budget.js';
import { sameIdentity } from '../identity.js';
import { distinctApprovers } from '../internals.js';
import type {
  ApprovalAnswer,
  ApprovalRequest,
  BudgetCharge,
  ClaimBinding,
  ClaimResult,
  Consumption,
  EffectRecord,
  ReserveEffectInput,
  ReserveResult,
} from '../types.js';

export { checkCharges };

// ---------------------------------------------------------------------------------------------
// Approval requests
// ---------------------------------------------------------------------------------------------

/** What `addAnswer` does with an answer, before any change. */
export function answerOutcome(
  request: ApprovalRequest,
  answer: ApprovalAnswer,
): 'recorded' | 'duplicate' | 'approver_is_requester' | 'not_pending' | 'edit_mismatch' {
  if (request.state !== 'pending') return 'not_pending';
  // identities compare after one normalisation (identity.ts): `ALICE` is the requester `alice`
  if (sameIdentity(answer.approver, request.principal)) return 'approver_is_requester';
  if (request.answers.some((a) => sameIdentity(a.approver, answer.approver))) return 'duplicate';
  // M-of-N approve one set of arguments: the first approval fixes them (as proposed, or its edit)
  if (answer.decision === 'approve') {
    const approving = approvedHash(request, answer);
    if (request.answers.some((a) => a.decision === 'approve' && approvedHash(request, a) !== approving)) return 'edit_mismatch';
  }
  return 'recorded';
}

/** The hash of the arguments an approve answer approves: its edit's, else the request's own. */
export function approvedHash(request: Pick<ApprovalRequest, 'argsHash'>, answer: Pick<ApprovalAnswer, 'argsHash'>): string {
  return answer.argsHash ?? request.argsHash;
}

/**
 * Applies a recorded answer to a request (a copy): a no (a reject, or a respond: an answer in place
 * of the tool) rejects it, the call never runs; enough distinct yeses approve it.
 */
export function withAnswer(request: ApprovalRequest, answer: ApprovalAnswer): ApprovalRequest {
  const next: ApprovalRequest = { ...request, answers: [...request.answers, { ...answer }] };
  const no = answer.decision === 'reject' || answer.decision === 'respond';
  if (no || distinctApprovers(next).size >= next.approvalsRequired) {
    next.state = no ? 'rejected' : 'approved';
    next.decidedAt = answer.at;
  }
  return next;
}

/**
 * What a claim bound to `expect` would do to `request`, decided without writing (CTRLRun's
 * `check_consumable`): `claimed` means it may be used up now. One rule for `claimApproval` and for
 * a reservation that claims.
 */
export function claimOutcome(request: ApprovalRequest | undefined, expect: ClaimBinding | undefined): ClaimResult {
  if (!request) return { outcome: 'unknown' };
  if (request.state === 'consumed') return { outcome: 'consumed', request };
  if (request.state !== 'approved') return { outcome: 'not_approved', request };
  if (!claimMatches(request, expect)) return { outcome: 'mismatch', request };
  return { outcome: 'claimed', request };
}

/** The approved request is for the claiming call: same action, arguments, policy and principal (no `expect`: any). */
export function claimMatches(request: ApprovalRequest, expect: ClaimBinding | undefined): boolean {
  if (!expect) return true;
  return (
    request.action === expect.action &&
    request.argsHash === expect.argsHash &&
    request.policyHash === expect.policyHash &&
    expect.principal !== null &&
    sameIdentity(request.principal, expect.principal)
  );
}

/** The request as a claim leaves it: consumed at `now` (a copy). */
export function consumed(request: ApprovalRequest, now: number): ApprovalRequest {
  return { ...request, state: 'consumed', consumedAt: now };
}

/**
 * `claimApproval` as one transition: the result, and the request to write when it is claimed.
 * Nothing is written on any other outcome (a mismatch leaves the approval approved).
 */
export function claimTransition(
  request: ApprovalRequest | undefined,
  expect: ClaimBinding | undefined,
  now: number,
): { result: ClaimResult; write: ApprovalRequest | null } {
  const decided = claimOutcome(request, expect);
  if (decided.outcome !== 'claimed') return { result: decided, write: null };
  const next = consumed(decided.request, now);
  return { result: { outcome: 'claimed', request: next }, write: next };
}

/**
 * A binding a store may check in SQL with plain equality (one conditional UPDATE) before falling
 * back to `claimTransition`: exact equality of every bound column implies `claimMatches`, so a
 * claim it lets through is one the rule allows. A principal that is equal only after
 * normalisation, or a refusal, takes the full path.
 */
export function exactBinding(expect: ClaimBinding | undefined): { action: string; argsHash: string; policyHash: string; principal: string } | null {
  if (!expect || expect.argsHash === null || expect.principal === null) return null;
  return { action: expect.action, argsHash: expect.argsHash, policyHash: expect.policyHash, principal: expect.principal };
}

// ---------------------------------------------------------------------------------------------
// Effect keys
// ---------------------------------------------------------------------------------------------

/** The reservation table of `Store.reserveEffect`. `next` is the record to write, if any. */
export function reserveTransition(
  current: EffectRecord | undefined,
  input: ReserveEffectInput,
): { outcome: Exclude<ReserveResult['outcome'], 'budget_exhausted' | 'claim_refused'>; next?: EffectRecord } {
  const fresh = (attempts: number): EffectRecord => ({
    key: input.key,
    action: input.action,
    state: 'in_flight',
    attempts,
    attemptId: input.attemptId,
    leaseUntil: input.now + input.leaseMs,
    updatedAt: input.now,
  });
  if (!current) return { outcome: 'reserved', next: fresh(1) };
  switch (current.state) {
    case 'committed':
      return { outcome: 'duplicate' };
    case 'ambiguous':
      return { outcome: 'ambiguous' };
    case 'in_flight':
      if (input.now < current.leaseUntil) return { outcome: 'ambiguous' };
      return { outcome: 'ambiguous', next: { ...current, state: 'ambiguous', updatedAt: input.now } };
    case 'failed':
      if (current.attempts < input.maxAttempts) return { outcome: 'reserved', next: fresh(current.attempts + 1) };
      return { outcome: 'exhausted' };
  }
}

/** The facts a reservation is decided on, read by the store under its lock. */
export interface ReserveFacts {
  /** With `input.claim`: the approval it names (undefined when unknown). Ignored without a claim. */
  approval?: ApprovalRequest | undefined;
  /** The key's record, or undefined when the key is new. */
  current: EffectRecord | undefined;
  /** With charges: the ledger rows of the charged grants (the store may pass more; the predicate filters). */
  held: readonly Consumption[];
}

/** What a store writes for a reservation: all of it in one transaction, or nothing. */
export interface ReserveWrites {
  /** The key's record; `insert` when the key was new (a store that loses the insert race decides again). */
  effect: { record: EffectRecord; insert: boolean } | null;
  /** Ledger rows to insert (charged reservations only). */
  charges: Consumption[];
  /** The approval to write as consumed (a reservation that claims). */
  claimed: ApprovalRequest | null;
}

/**
 * `reserveEffect` as one transition, for charged and uncharged reservations alike. In order: a
 * claim that cannot be used up refuses (nothing written); the key's table (a refusal there may
 * still write: a lease that ran out becomes ambiguous); a reservation that would take a budget
 * past its limit refuses (nothing written); else the record, the charges and the consumed
 * approval, together.
 */
export function reservePlan(
  input: ReserveEffectInput,
  charges: readonly BudgetCharge[],
  facts: ReserveFacts,
): { result: ReserveResult; writes: ReserveWrites | null } {
  if (input.claim) {
    const decided = claimOutcome(facts.approval, input.claim.binding);
    if (decided.outcome !== 'claimed') return { result: { outcome: 'claim_refused', claim: decided }, writes: null };
  }
  const transition = reserveTransition(facts.current, input);
  const effect = transition.next ? { record: transition.next, insert: facts.current === undefined } : null;
  if (transition.outcome !== 'reserved') {
    const result = { outcome: transition.outcome, effect: transition.next ?? (facts.current as EffectRecord) };
    return { result, writes: effect ? { effect, charges: [], claimed: null } : null };
  }
  const next = transition.next!;
  if (charges.length > 0) {
    const refused = refusedCharge(charges, facts.held, input.now);
    if (refused) return { result: { outcome: 'budget_exhausted', charge: { ...refused } }, writes: null };
  }
  const claimed = input.claim && facts.approval ? consumed(facts.approval, input.now) : null;
  const writes: ReserveWrites = { effect, charges: ledgerRows(charges, input.key, next.attempts, input.now), claimed };
  return { result: claimed ? { outcome: 'reserved', effect: next, claimed } : { outcome: 'reserved', effect: next }, writes };
}

/** Only the attempt holding the key may settle it, and only while its outcome is still open. */
export function canSettle(current: EffectRecord, attemptId: string): boolean {
  return current.attemptId === attemptId && (current.state === 'in_flight' || current.state === 'ambiguous') && current.resolvedBy === undefined;
}

/** An operator resolves an ambiguous key, or an in-flight one whose lease is over. */
export function canResolve(current: EffectRecord, now: number): boolean {
  return current.state === 'ambiguous' || (current.state === 'in_flight' && now >= current.leaseUntil);
}

/**
 * `settleEffect` as one transition: the record to write (null: refused, nothing changes) and
 * whether the key's charges are released (exactly when it becomes failed).
 */
export function settleTransition(
  current: EffectRecord | undefined,
  attemptId: string,
  state: 'committed' | 'failed' | 'ambiguous',
  now: number,
): { next: EffectRecord; release: boolean } | null {
  if (!current || !canSettle(current, attemptId)) return null;
  return { next: { ...current, state, updatedAt: now }, release: state === 'failed' };
}

/** `resolveEffect` as one transition: null when the key is left as it is (the caller returns it unchanged). */
export function resolveTransition(
  current: EffectRecord,
  state: 'committed' | 'failed',
  by: string,
  now: number,
): { next: EffectRecord; release: boolean } | null {
  if (!canResolve(current, now)) return null;
  return { next: { ...current, state, updatedAt: now, resolvedBy: by }, release: state === 'failed' };
}
