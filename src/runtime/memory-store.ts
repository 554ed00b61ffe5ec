import { answerOutcome, checkCharges, claimTransition, reservePlan, resolveTransition, settleTransition, withAnswer } from './stores/transitions.js';
import { GENESIS_HASH, receiptHash } from './receipts-hash.js';
import { memoryDecisionLog } from './stores/decision-log-memory.js';
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
    ...memoryDecisionLog(open),

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
      const { result, write } = claimTransition(requests.get(callId), expect, now);
      if (write) requests.set(callId, write);
      return copyClaim(result);
    },

    async reserveEffect(input: ReserveEffectInput): Promise<ReserveResult> {
      open();
      const charges = checkCharges(input.charges);
      const approval = input.claim ? requests.get(input.claim.callId) : undefined;
      const { result, writes } = reservePlan(input, charges, { approval, current: effects.get(input.key), held: ledger });
      if (writes?.effect) effects.set(input.key, writes.effect.record);
      if (writes) ledger.push(...writes.charges);
      if (writes?.claimed) requests.set(writes.claimed.callId, writes.claimed);
      return copyReserve(result);
    },

    async consumptions(filter?: { grantId?: string; metric?: string; effectKey?: string }): Promise<Consumption[]> {
      open();
      return ledger
        .filter((r) => (filter?.grantId === undefined || r.grantId === filter.grantId) && (filter?.metric === undefined || r.metric === filter.metric) && (filter?.effectKey === undefined || r.effectKey === filter.effectKey))
        .map(copy);
    },

    async settleEffect(key, attemptId, state, now): Promise<boolean> {
      open();
      const settled = settleTransition(effects.get(key), attemptId, state, now);
      if (!settled) return false;
      effects.set(key, settled.next);
      if (settled.release) release(key, now);
      return true;
    },

    async resolveEffect(key, state, by, now): Promise<EffectRecord | null> {
      open();
      const current = effects.get(key);
      if (!current) return null;
      const resolved = resolveTransition(current, state, by, now);
      if (!resolved) return copy(current);
      effects.set(key, resolved.next);
      if (resolved.release) release(key, now);
      return copy(resolved.next);
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

// The transition rules moved to stores/transitions.ts; these names stay importable from here for
// the modules that still do.
export { answerOutcome, canResolve, canSettle, claimMatches, claimOutcome, reserveTransition, withAnswer } from './stores/transitions.js';

/**
 * A copy of a stored value. The records are flat apart from `answers` / `approvers` (arrays of
 * flat values), so a shallow copy of those is a deep copy, and much cheaper than structuredClone
 * on the per-call path.
 */
function copyClaim<T extends ClaimResult>(claim: T): T {
  return claim.outcome === 'unknown' ? claim : { ...claim, request: copy(claim.request) };
}

function copyReserve(result: ReserveResult): ReserveResult {
  switch (result.outcome) {
    case 'budget_exhausted':
      return { outcome: result.outcome, charge: { ...result.charge } };
    case 'claim_refused':
      return { outcome: result.outcome, claim: copyClaim(result.claim) };
    case 'reserved':
      return result.claimed ? { outcome: 'reserved', effect: copy(result.effect), claimed: copy(result.claimed) } : { outcome: 'reserved', effect: copy(result.effect) };
    default:
      return { outcome: result.outcome, effect: copy(result.effect) };
  }
}

function copy<T>(value: T): T {
  const out = { ...value } as Record<string, unknown>;
  if (Array.isArray(out.answers)) out.answers = (out.answers as object[]).map((a) => ({ ...a }));
  if (Array.isArray(out.approvers)) out.approvers = [...(out.approvers as unknown[])];
  return out as T;
}
