import type { ApprovalRequest, ReceiptBody } from '../runtime/types.js';

/**
 * Approval fatigue: an approver answering more than `maxAnswers` requests within `windowMs`, or
 * approving a request less than `minDecideMs` after it was filed, is rubber-stamping, a risk to
 * show and record (a `fatigue` receipt), not a rate to chart. Pure.
 */
export interface FatigueRules {
  maxAnswers: number;
  windowMs: number;
  minDecideMs: number;
}

export const DEFAULT_FATIGUE: FatigueRules = { maxAnswers: 20, windowMs: 15 * 60_000, minDecideMs: 10_000 };

/** One answer, as the detector reads it. */
export interface AnswerFact {
  approver: string;
  decision: 'approve' | 'reject' | 'respond';
  at: number;
  callId: string;
  action: string;
  /** When its request was filed (the pause). */
  filedAt: number;
}

export interface FatigueFinding {
  kind: 'volume' | 'speed';
  approver: string;
  at: number;
  callId: string;
  action: string;
  /** volume: answers in the window ending at `at`; speed: milliseconds from the pause to the approval. */
  value: number;
}

/** Every answer of the requests, oldest first. */
export function answersOf(requests: readonly ApprovalRequest[]): AnswerFact[] {
  const out: AnswerFact[] = [];
  for (const r of requests)
    for (const a of r.answers) out.push({ approver: a.approver, decision: a.decision, at: a.at, callId: r.callId, action: r.action, filedAt: r.createdAt });
  return out.sort((a, b) => a.at - b.at || (a.callId < b.callId ? -1 : a.callId > b.callId ? 1 : 0));
}

/**
 * What `answer` shows, given the approver's answers before it (`history`, any order): an approval
 * faster than `minDecideMs`, and the answer that takes the approver past `maxAnswers` within the
 * window (once a burst: the crossing answer only). Pure.
 */
export function fatigueOfAnswer(answer: AnswerFact, history: readonly AnswerFact[], rules: FatigueRules): FatigueFinding[] {
  const found: FatigueFinding[] = [];
  const base = { approver: answer.approver, at: answer.at, callId: answer.callId, action: answer.action };
  const decideMs = answer.at - answer.filedAt;
  if (answer.decision === 'approve' && decideMs < rules.minDecideMs) found.push({ kind: 'speed', ...base, value: Math.max(0, decideMs) });
  const inWindow = history.filter((h) => h.approver === answer.approver && h.at > answer.at - rules.windowMs && h.at <= answer.at && h !== answer).length + 1;
  if (inWindow === rules.maxAnswers + 1) found.push({ kind: 'volume', ...base, value: inWindow });
  return found;
}

/** Every finding over a history of answers (each answer judged against those before it). Pure. */
export function fatigueFindings(answers: readonly AnswerFact[], rules: FatigueRules): FatigueFinding[] {
  const sorted = [...answers].sort((a, b) => a.at - b.at);
  return sorted.flatMap((a, i) => fatigueOfAnswer(a, sorted.slice(0, i), rules));
}

/** The `fatigue` receipt of a finding: who, which request, why (`answers_over_limit`, `approved_too_fast`). */
export function fatigueReceipt(finding: FatigueFinding, request: Pick<ApprovalRequest, 'argsHash' | 'principal' | 'policyHash'>): ReceiptBody {
  return {
    at: finding.at,
    action: finding.action,
    call_id: finding.callId,
    args_hash: request.argsHash,
    principal: request.principal,
    decision: 'approve',
    reason: finding.kind === 'volume' ? 'answers_over_limit' : 'approved_too_fast',
    approvers: [finding.approver],
    effect_key: null,
    result: 'fatigue',
    policy_hash: request.policyHash,
    mode: 'enforce',
    environment: null,
  };
}

/** A duration as flags write it: `90s`, `15m`, `2h`, `7d`, or a number of milliseconds; undefined when it is none. */
export function parseDuration(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(text.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[(m[2] ?? 'ms') as 'ms'];
  return n * unit;
}
