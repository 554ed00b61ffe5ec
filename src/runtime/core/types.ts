import type { RunContext } from '@openai/agents';
import type { AppendOptions, ApprovalGrant, CallDecision, CompiledGrant, ReceiptEdit } from '../types.js';

/** What every stage knows of one call once it is decided. */
export interface CallFacts {
  callId: string | null;
  argsHash: string | null;
  principal: string | null;
  decision: CallDecision;
  /** The grant that authorized the call (a policy with `authority:`). */
  grant?: CompiledGrant | undefined;
  /**
   * The arguments' hash the approval is bound to when it is not `argsHash`: the request was filed
   * at the pause as strict mode writes the call (optional properties `null`), the text left them
   * out, and CTRLRun decides both alike (core/approval.ts, `rebind`).
   */
  bindHash?: string;
  /** The call's checked arguments (parsed once, losslessly); undefined when refused. */
  args?: unknown;
  /** The canonical JSON of `args`, as `argsHash` hashed it (written once, reused by the decision log). */
  argsJson?: string | undefined;
  /** Who the decision saw (identity's agent and user) and the run's task (asked only for a policy with grants). */
  subject?: { agent: string; user: string | null } | null;
  task?: string | null;
  /**
   * The call resumes a pause: its approval request (bound to this call) is in the store, and the
   * decision log entry was written when the request was filed; its resume writes none.
   */
  requested?: boolean;
  /** An approval with edits: these facts are the edited call's (decided again), and this is what changed. */
  edit?: ReceiptEdit;
  /** The approval grant that lets this call run without a pause (core/approval-grant.ts). */
  approvalGrant?: ApprovalGrant;
}

/** An enforced call that may run: its approvers and the effect reservation it holds (if any). */
export interface Authorized {
  kind: 'enforce';
  facts: CallFacts;
  approvers: string[];
  key: string | null;
  attemptId: string | null;
  /** An approval with edits: the input the body runs (the approved arguments as the tool's schema gives them), their JSON text, and what the model reads first. */
  edited?: EditedRun;
}

/** How an edited call runs: the body's input and text in place of the model's, and the note the model reads before its result. */
export interface EditedRun {
  input: unknown;
  text: string;
  note: string;
}

/**
 * A body a door hands the core, called once: without `editedText` it runs the call as the model
 * wrote it; with `(input, text)` it runs an approved edit instead (the input as the tool's schema
 * gives it, and its JSON text for a door that hands the SDK text). `execute` also hands it the
 * call's own input, run context and details (`body(input, undefined, runContext, details)`), so a
 * door's body can be made once per tool rather than a closure per call; a body run otherwise
 * (`runBody`) is called as before, with no arguments or the edit's two.
 */
export type Body = (input?: unknown, editedText?: string, runContext?: RunContext<unknown>, details?: CallDetails) => unknown;

/** An observed call (observe mode): it runs, and its receipt says what enforce would have done. */
export interface Observed {
  kind: 'observe';
  facts: CallFacts;
}

export type Authorization = Authorized | Observed;

/** The decision stage's answer: the decision, the checked arguments (undefined when refused) and the grant. */
export interface DecidedCall {
  decision: CallDecision;
  args?: unknown;
  grant?: CompiledGrant;
}

/** Why a call may not reach its upstream (CTRLRun's `upstream_unverified` / `upstream_mismatch`). */
export interface UpstreamProblem {
  reason: 'upstream_unverified' | 'upstream_mismatch';
  text: string;
}

/** The door's check of the upstream a call would reach (CTRLRun's `upstream:` pins). */
export type UpstreamCheck = (toolCall: { callId: string; name?: string; arguments: string }) => Promise<UpstreamProblem | null>;

export type UserErrorFunction = (ctx: RunContext<unknown>, error: unknown, details?: unknown) => unknown;

/** Anything with zod's `safeParse` (the tool's parameters); a JSON schema has none and the raw JSON is used. */
export type ArgsSchema = { safeParse?: (v: unknown) => { success: boolean; data?: unknown; error?: unknown } };

export interface CallDetails {
  toolCall?: { callId?: string; arguments?: string };
  /** The SDK's signal for this call: aborted when its `timeoutMs` gives up on the body. */
  signal?: AbortSignal;
}

/** The fields of one receipt a stage writes (the rest come from the call's facts). */
export interface ReceiptFieldsOf {
  result: string;
  reason?: string;
  approvers?: string[];
  effect_key?: string | null;
}

/**
 * Writes one receipt of this action's call (with `options.haltEpoch`: only while the store's halts
 * are unchanged); a failure is a rejection, never a throw. `failed`: handed the receipt's write
 * failure (never its log entry's) with the facts, fields and `context`, its answer the write's: the
 * decision's receipt retried at a new halt epoch (core/halt.ts) on the write's own promise, no
 * handler chained after the log's.
 */
export type WriteReceipt = (facts: CallFacts, fields: ReceiptFieldsOf, options?: AppendOptions, failed?: WriteFailed, context?: unknown) => Promise<unknown>;

/**
 * A failed write's handler: handed the error, the receipt's facts and fields, and the `context` the
 * writer was given, so one handler made per tool serves every call (no closure a receipt).
 */
export type WriteFailed = (error: unknown, facts: CallFacts, fields: ReceiptFieldsOf, context: unknown) => Promise<unknown>;

/**
 * What a body returns when it answered without succeeding and must not throw (the answer is the
 * model's to read): `not_executed` (it did not act: the effect is `failed`) or `ambiguous`
 * (whether it acted is unknown). The core records it and hands `output` to the SDK.
 */
export class ReportedOutcome {
  constructor(
    readonly outcome: 'not_executed' | 'ambiguous',
    readonly reason: string,
    readonly output: unknown,
  ) {}
}

/** The decision recorded on a call refused before the policy was asked (its arguments do not fit the schema). */
export const INVALID_ARGUMENTS: CallDecision = { decision: 'deny', rule: null, reason: 'invalid_argument', effectKey: null, resource: null };
