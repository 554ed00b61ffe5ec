import { checkCharges, ledgerRows, refusedCharge } from './budget.js';
import { sameIdentity } from './identity.js';
import { distinctApprovers } from './internals.js';
import { GENESIS_HASH, receiptHash } from './receipts-hash.js';
import { newestReceiptOf } from './receipts.js';
import type {
  AddAnswerResult,
  ApprovalAnswer,
  ApprovalRequest,
  ApprovalState,
  ClaimBinding,
  ClaimResult,
  Consumption,
  EffectRecord,
  EffectState,
  NewApprovalRequest,
  Receipt,
  ReceiptBody,
  ReserveEffectInput,
  ReserveResult,
  Store,
  ReceiptMatch,
} from './types.js';

/**
 * The in-memory store: one process, gone when the process ends. Every method runs to completion
 * without awaiting in the middle, so each is atomic under Node's single thread. Values go in and
 * out as copies: a caller mutating what it got back never changes the store.
 */
export function memoryStore(): Store {
  const requests = new Map<string, ApprovalRequest>();
  const effects = new Map<string, EffectRecord>();
  const receipts: Receipt[] = [];
  /** The budget ledger (insertion order). */
  const ledger: Consumption[] = [];
  let closed = false;

  /** Releases the held charges of an effect that became failed (a compare-and-set per row: never twice). */
  const release = (key: string, now: number): void => {
    for (const row of ledger) if (row.effectKey === key && row.releasedAt === null) row.releasedAt = now;
  };

  const open = (): void => {
    if (closed) throw new Error('memoryStore: the store is closed');
  };

  return {
    kind: 'memory',

    async putRequest(request: NewApprovalRequest): Promise<ApprovalRequest> {
      open();
      const existing = requests.get(request.callId);
      if (existing) return copy(existing);
      const created: ApprovalRequest = { ...copy(request), state: 'pending', answers: [] };
      requests.set(request.callId, created);
      return copy(created);
    },

    async getRequest(callId: string): Promise<ApprovalRequest | null> {
      open();
      const found = requests.get(callId);
      return found ? copy(found) : null;
    },

    async listRequests(filter?: { state?: ApprovalState }): Promise<ApprovalRequest[]> {
      open();
      return [...requests.values()]
        .filter((r) => filter?.state === undefined || r.state === filter.state)
        .sort((a, b) => a.createdAt - b.createdAt || (a.callId < b.callId ? -1 : a.callId > b.callId ? 1 : 0))
        .map(copy);
    },

    async addAnswer(callId: string, answer: ApprovalAnswer): Promise<AddAnswerResult> {
      open();
      const request = requests.get(callId);
      if (!request) return { outcome: 'unknown' };
      const outcome = answerOutcome(request, answer);
      if (outcome !== 'recorded') return { outcome, request: copy(request) };
      const next = withAnswer(request, answer);
      requests.set(callId, next);
      return { outcome: 'recorded', request: copy(next) };
    },

    async claimApproval(callId: string, now: number, expect?: ClaimBinding): Promise<ClaimResult> {
      open();
      const request = requests.get(callId);
      const decided = claimOutcome(request, expect);
      if (decided.outcome !== 'claimed') return copyClaim(decided);
      if (!request) return { outcome: 'unknown' };
      request.state = 'consumed';
      request.consumedAt = now;
      return { outcome: 'claimed', request: copy(request) };
    },

    async reserveEffect(input: ReserveEffectInput): Promise<ReserveResult> {
      open();
      const charges = checkCharges(input.charges);
      const request = input.claim ? requests.get(input.claim.callId) : undefined;
      if (input.claim) {
        const decided = claimOutcome(request, input.claim.binding);
        if (decided.outcome !== 'claimed') return { outcome: 'claim_refused', claim: copyClaim(decided) };
      }
      const current = effects.get(input.key);
      const transition = reserveTransition(current, input);
      if (transition.outcome === 'reserved' && charges.length > 0) {
        const refused = refusedCharge(charges, ledger, input.now);
        if (refused) return { outcome: 'budget_exhausted', charge: { ...refused } };
        ledger.push(...ledgerRows(charges, input.key, transition.next!.attempts, input.now));
      }
      if (transition.next) effects.set(input.key, transition.next);
      if (transition.outcome === 'reserved' && request) {
        request.state = 'consumed';
        request.consumedAt = input.now;
        return { outcome: 'reserved', effect: copy(transition.next!), claimed: copy(request) };
      }
      return { outcome: transition.outcome, effect: copy(transition.next ?? (current as EffectRecord)) };
    },

    async consumptions(filter?: { grantId?: string; metric?: string; effectKey?: string }): Promise<Consumption[]> {
      open();
      return ledger
        .filter((r) => (filter?.grantId === undefined || r.grantId === filter.grantId) && (filter?.metric === undefined || r.metric === filter.metric) && (filter?.effectKey === undefined || r.effectKey === filter.effectKey))
        .map(copy);
    },

    async settleEffect(key, attemptId, state, now): Promise<boolean> {
      open();
      const current = effects.get(key);
      if (!current || !canSettle(current, attemptId)) return false;
      current.state = state;
      current.updatedAt = now;
      if (state === 'failed') release(key, now);
      return true;
    },

    async resolveEffect(key, state, by, now): Promise<EffectRecord | null> {
      open();
      const current = effects.get(key);
      if (!current) return null;
      if (canResolve(current, now)) {
        current.state = state;
        current.resolvedBy = by;
        current.updatedAt = now;
        if (state === 'failed') release(key, now);
      }
      return copy(current);
    },

    async getEffect(key: string): Promise<EffectRecord | null> {
      open();
      const found = effects.get(key);
      return found ? copy(found) : null;
    },

    async listEffects(filter?: { state?: EffectState }): Promise<EffectRecord[]> {
      open();
      return [...effects.values()]
        .filter((e) => filter?.state === undefined || e.state === filter.state)
        .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
        .map(copy);
    },

    async appendReceipt(body: ReceiptBody): Promise<Receipt> {
      open();
      const last = receipts[receipts.length - 1];
      const unsigned = { ...copy(body), seq: receipts.length + 1, prev_hash: last ? last.hash : GENESIS_HASH };
      const receipt: Receipt = { ...unsigned, hash: receiptHash(unsigned) };
      receipts.push(receipt);
      return copy(receipt);
    },

    async listReceipts(options?: { afterSeq?: number; limit?: number }): Promise<Receipt[]> {
      open();
      const after = options?.afterSeq ?? 0;
      const selected = receipts.filter((r) => r.seq > after);
      return (options?.limit === undefined ? selected : selected.slice(0, options.limit)).map(copy);
    },

    async lastReceiptOf(match: ReceiptMatch): Promise<Receipt | null> {
      open();
      const found = newestReceiptOf(receipts, match);
      return found && copy(found);
    },

    async close(): Promise<void> {
      closed = true;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The transition rules, as pure functions: the SQL stores implement the same table.
// ---------------------------------------------------------------------------------------------

/** What `addAnswer` does with an answer, before any change. */
export function answerOutcome(
  request: ApprovalRequest,
  answer: ApprovalAnswer,
): 'recorded' | 'duplicate' | 'approver_is_requester' | 'not_pending' {
  if (request.state !== 'pending') return 'not_pending';
  // identities compare after one normalisation (identity.ts): `ALICE` is the requester `alice`
  if (sameIdentity(answer.approver, request.principal)) return 'approver_is_requester';
  if (request.answers.some((a) => sameIdentity(a.approver, answer.approver))) return 'duplicate';
  return 'recorded';
}

/** The approved request is for the claiming call: same action, arguments, policy and principal (no `expect`: any). */
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

/** Applies a recorded answer to a request (a copy): a no rejects it; enough distinct yeses approve it. */
export function withAnswer(request: ApprovalRequest, answer: ApprovalAnswer): ApprovalRequest {
  const next: ApprovalRequest = { ...request, answers: [...request.answers, { ...answer }] };
  if (answer.decision === 'reject' || distinctApprovers(next).size >= next.approvalsRequired) {
    next.state = answer.decision === 'reject' ? 'rejected' : 'approved';
    next.decidedAt = answer.at;
  }
  return next;
}

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

/** Only the attempt holding the key may settle it, and only while its outcome is still open. */
export function canSettle(current: EffectRecord, attemptId: string): boolean {
  return current.attemptId === attemptId && (current.state === 'in_flight' || current.state === 'ambiguous') && current.resolvedBy === undefined;
}

/** An operator resolves an ambiguous key, or an in-flight one whose lease is over. */
export function canResolve(current: EffectRecord, now: number): boolean {
  return current.state === 'ambiguous' || (current.state === 'in_flight' && now >= current.leaseUntil);
}

/**
 * A copy of a stored value. The records are flat apart from `answers` / `approvers` (arrays of
 * flat values), so a shallow copy of those is a deep copy, and much cheaper than structuredClone
 * on the per-call path.
 */
function copyClaim<T extends ClaimResult>(claim: T): T {
  return claim.outcome === 'unknown' ? claim : { ...claim, request: copy(claim.request) };
}

function copy<T>(value: T): T {
  const out = { ...value } as Record<string, unknown>;
  if (Array.isArray(out.answers)) out.answers = (out.answers as object[]).map((a) => ({ ...a }));
  if (Array.isArray(out.approvers)) out.approvers = [...(out.approvers as unknown[])];
  return out as T;
}
