import type { RunContext } from '@openai/agents';
import { canonicalHash, canonicalJson } from './canonical.js';
import { CtrlrunError } from './errors.js';
import { checkArguments, parseArguments, type ArgumentsCheck } from './arguments.js';
import { checkIdentity, identityProblemText, normaliseIdentity } from './identity.js';
import { appendSigned, receiptBase, type ReceiptSigner } from './signing.js';
import { settled } from './settled.js';
import type { AppendOptions, ApprovalRequest, CompiledPolicy, DecisionResult, Receipt, ReceiptBody, Store } from './types.js';
import type { HaltWatch } from './halts.js';
import type { PinnedFetch } from './upstream-types.js';
import { noticeNoPrincipal, type Notice } from './no-principal-notice.js';
import type { ReceiptSight, Telemetry } from './observe/telemetry.js';

/**
 * Who the run acts for: from the run's context (the operator's code), never from the model. A
 * string names the principal (CTRLRun's agent acting alone); `{ agent, user }` is an agent acting
 * for a user, as CTRLRun's grants see it (`subject: { agent, user }`); the receipts and the
 * approvals then name the user (who may not approve their own call).
 */
export type IdentityValue = string | { agent: string; user?: string | null | undefined };
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Identity = (runContext: RunContext<any>) => IdentityValue | null | undefined | Promise<IdentityValue | null | undefined>;
/** The run a call belongs to, as the application names it (a conversation, a job), for halts of one run; null: none. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RunOf = (runContext: RunContext<any>) => string | null | undefined;
/** The unit of work a run is on (CTRLRun's `task=`), for grants that name `tasks`; null: none. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type TaskOf = (runContext: RunContext<any>) => string | null | undefined | Promise<string | null | undefined>;

/** A resolved identity: the principal's normal form (receipts, approvals) and the subject grants match. */
export interface Who {
  principal: string;
  subject: { agent: string; user: string | null };
}

/** What a Control knows; shared by the Control's methods and the tools bound to it. */
export interface ControlInternals {
  readonly store: Store;
  readonly identity: Identity;
  readonly task?: TaskOf | undefined;
  /** Names the run of a call (`createControl({ run })`), for halts of one run. */
  readonly run?: RunOf | undefined;
  /** The store's halts as this control last read them (halts.ts). */
  readonly halts: HaltWatch;
  readonly environment: string | undefined;
  readonly approvalTtlMs: number;
  readonly effectLeaseMs: number;
  /** The longest approval grant this control's `approve(…, { grant })` makes (0: none). */
  readonly maxGrantHours: number;
  readonly clock: () => number;
  policy: CompiledPolicy | undefined;
  /** Signs a checkpoint after each receipt this control appends (no key: no checkpoints). */
  readonly signer?: ReceiptSigner | undefined;
  /** Protected tool objects -> their action. */
  readonly toolActions: WeakMap<object, string>;
  /** The last string identity this control read and its answer (frozen: the calls it answers share it). */
  readonly lastIdentity: KeptIdentity;
  /** SDK (sanitized) tool names of protected tools -> their action. */
  readonly namedActions: Map<string, string>;
  /**
   * SDK names of protected function tools -> the call's arguments from its text, as the body gets
   * them (core/arguments.ts `callArguments`): `control.approve` binds an answer to these, the hash
   * the pause filed (the tool object itself carries them too: TOOL_ARGUMENTS).
   */
  readonly namedArguments: Map<string, ArgumentsOf>;
  /**
   * The pinned fetches the MCP doors of this control made (`upstreamFetch`), by the function handed
   * out: the only proof a guarded server connects through one (shared by every `bindMcp` of the
   * control, so `protectAgent`'s doors accept the generated module's fetches).
   */
  readonly pinnedFetches: WeakMap<object, { server: string; pinned: PinnedFetch }>;
  /** Where the control tells the developer one-line things (the first refusal for want of a principal). */
  readonly notice?: Notice | undefined;
  /** Whether the control writes the decision log (`decisionLog: false`: no). */
  readonly decisionLog?: boolean | undefined;
  /** Where receipts are also seen (the SDK's traces, OpenTelemetry); undefined: nowhere, nothing is asked. */
  readonly telemetry?: Telemetry | undefined;
  /** Offer the model every protected tool, even one the policy never lets the run's principal use (`offerAllTools`). */
  readonly offerAllTools?: boolean | undefined;
}

/** A tool's arguments from the model's text and its lossless parse (`parseArguments` of it). */
export type ArgumentsOf = (raw: string, lossless: ArgumentsCheck) => ArgumentsCheck;

export const INTERNALS: unique symbol = Symbol('ctrlrun.control.internals');
/** A protected function tool's `ArgumentsOf` (any control of the process reads it, as PROTECTED_ACTION). */
export const TOOL_ARGUMENTS: unique symbol = Symbol.for('ctrlrun.protectedTool.arguments');
/** Marks a tool made by protectedTool (any control) with its action id. */
export const PROTECTED_ACTION: unique symbol = Symbol.for('ctrlrun.protectedTool.action');
/** Marks a protected function tool with its paused door (kind and schema), for a request `control.request` files itself. */
export const PAUSED_DOOR: unique symbol = Symbol.for('ctrlrun.protectedTool.door');

export { sdkToolName } from './tool-name.js';

export function requirePolicy(internals: ControlInternals): CompiledPolicy {
  if (!internals.policy) {
    throw new CtrlrunError(
      'ctrlrun: no policy is bound to this control, so nothing may run. Import the generated module (it calls bindProtectedTool) before using the control.',
    );
  }
  return internals.policy;
}

export async function principalOf(internals: ControlInternals, runContext: RunContext<unknown>): Promise<string | null> {
  return (await whoOf(internals, runContext))?.principal ?? null;
}

/** The run's identity, resolved and checked; null: nobody (refused as `no_principal`). */
export async function whoOf(internals: ControlInternals, runContext: RunContext<unknown>): Promise<Who | null> {
  return whoNow(internals, runContext);
}

/** A value or a promise of it: what a stage answers without a turn of the event loop when it can. */
export type Maybe<T> = T | Promise<T>;

/** Whether `value` is awaited as a promise would be (anything with a `then` method, as `await` sees it). */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * `whoOf` without a turn when `identity` answers synchronously (the usual `(rc) => rc.context.user`):
 * the checked principal itself; a promise only when `identity` returned one. A throw is the same
 * CtrlrunError either way (thrown here, or the promise's rejection).
 */
export function whoNow(internals: ControlInternals, runContext: RunContext<unknown>, quiet = false): Maybe<Who | null> {
  let value: IdentityValue | null | undefined | PromiseLike<IdentityValue | null | undefined>;
  try {
    value = internals.identity(runContext);
  } catch (cause) {
    throw identityThrew(cause);
  }
  // `quiet`: asked about no call (which tools to offer), so a missing principal is not one refused
  // (a synchronous identity, every allowed call's guardrail: answered without a closure made)
  if (!isThenable(value)) return quiet ? identityValueOf(internals.lastIdentity, value) : whoFrom(internals, runContext, value);
  return whoOnceResolved(value, internals, runContext, quiet);
}

/** `whoNow` of an asynchronous identity (its closures here: in whoNow they gave every call a context). */
function whoOnceResolved(
  value: PromiseLike<IdentityValue | null | undefined>,
  internals: ControlInternals,
  runContext: RunContext<unknown>,
  quiet: boolean,
): Promise<Who | null> {
  return Promise.resolve(value).then(
    (resolved) => (quiet ? identityValueOf(internals.lastIdentity, resolved) : whoFrom(internals, runContext, resolved)),
    (cause) => {
      throw identityThrew(cause);
    },
  );
}

function identityThrew(cause: unknown): CtrlrunError {
  return new CtrlrunError(`ctrlrun: identity(runContext) threw (${describeError(cause)}); nothing was run.`, { cause });
}

function whoFrom(internals: ControlInternals, runContext: RunContext<unknown>, value: IdentityValue | null | undefined): Who | null {
  const who = identityValueOf(internals.lastIdentity, value);
  // every refusal for want of a principal goes through here (each door asks whoOf or whoNow)
  if (who === null) noticeNoPrincipal(internals, runContext, internals.notice);
  return who;
}

/**
 * The last string identity a control read and its answer: a run's calls act for one principal, and
 * the answer is a pure function of the string (frozen: the calls it answers share it). Kept per
 * control (its internals), not in the module. A string refused (a control character) throws before
 * it is kept, so it is refused every time.
 */
export interface KeptIdentity {
  value: string | undefined;
  who: Who | null;
}

function identityValueOf(kept: KeptIdentity, value: IdentityValue | null | undefined): Who | null {
  if (typeof value !== 'string') return readIdentity(value);
  if (value === kept.value) return kept.who;
  const who = readIdentity(value);
  if (who !== null) Object.freeze(Object.freeze(who).subject);
  kept.who = who;
  kept.value = value;
  return who;
}

function readIdentity(value: IdentityValue | null | undefined): Who | null {
  if (value === null || value === undefined) return null;
  let agent: unknown = value;
  let user: unknown = null;
  if (typeof value === 'object') {
    agent = (value as { agent?: unknown }).agent;
    user = (value as { user?: unknown }).user ?? null;
  }
  if (typeof agent !== 'string' || (user !== null && typeof user !== 'string')) {
    throw new CtrlrunError(
      `ctrlrun: identity(runContext) must return a string, { agent, user? } of strings, or null; got ${describeValue(value)}; nothing was run.`,
    );
  }
  const checkedAgent = checkIdentity(agent);
  const checkedUser = user === null ? null : checkIdentity(user);
  for (const c of [checkedAgent, checkedUser]) {
    if (c && !c.ok && c.problem !== 'blank')
      throw new CtrlrunError(`ctrlrun: identity(runContext) returned an unusable principal: ${identityProblemText(c.problem)}; nothing was run.`);
  }
  // blank ('', '   ', invisible characters only): nobody, refused as `no_principal`
  if (!checkedAgent.ok) return null;
  const userValue = checkedUser?.ok ? checkedUser.value : null;
  if (checkedUser && !checkedUser.ok) return null;
  // grants match patterns case-sensitively on the names as given (CTRLRun); receipts keep the normal form
  return { principal: userValue ?? checkedAgent.value, subject: { agent: (agent as string).trim(), user: user === null ? null : (user as string).trim() } };
}

/** The run's task (`createControl({ task })`), or null. */
export async function taskOf(internals: ControlInternals, runContext: RunContext<unknown>): Promise<string | null> {
  if (!internals.task) return null;
  let task: string | null | undefined;
  try {
    task = await internals.task(runContext);
  } catch (cause) {
    throw new CtrlrunError(`ctrlrun: task(runContext) threw (${describeError(cause)}); nothing was run.`, { cause });
  }
  if (task === null || task === undefined || task === '') return null;
  if (typeof task !== 'string') throw new CtrlrunError(`ctrlrun: task(runContext) must return a string or null, got ${typeof task}; nothing was run.`);
  return task;
}

function describeValue(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

/** An approver's name in its normal form (see identity.ts); refuses a blank one or one with control characters. */
export function approverName(approver: unknown): string {
  const checked = checkIdentity(approver);
  if (!checked.ok)
    throw new CtrlrunError(
      `ctrlrun: an answer needs \`approver\`, a non-empty string naming who answers; this one is refused: ${identityProblemText(checked.problem)}.`,
    );
  return checked.value;
}

/** The receipt's reason for a decision: CTRLRun's word (`rule[0]`, `decision`, `no_matching_rule`, …). */
export function reasonText(result: DecisionResult): string {
  return result.reason;
}

/** Canonical hash of the model's JSON arguments (parsed losslessly), or null when they are refused. */
export function argsHashOf(raw: string | undefined, fallback: unknown): string | null {
  try {
    const checked = raw === undefined ? checkArguments(fallback) : parseArguments(raw);
    return checked.ok ? canonicalHash(checked.value) : null;
  } catch {
    return null;
  }
}

export function parseJson(raw: string | undefined): { ok: true; value: unknown } | { ok: false } {
  if (raw === undefined) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch {
    return { ok: false };
  }
}

export type ReceiptFields = Pick<ReceiptBody, 'action' | 'result' | 'reason'> & Partial<ReceiptBody>;

/**
 * Appends one receipt (and its signed checkpoint, with a key); returns the receipt the store
 * appended. With telemetry, the receipt is also recorded as it is sent (`sight`: what the stage
 * knows besides, e.g. the checked arguments). With `options.haltEpoch`, appended only while the
 * store's halt epoch is that one (else `HaltsChanged`).
 */
export function appendReceipt(
  internals: ControlInternals,
  policy: CompiledPolicy,
  fields: ReceiptFields,
  sight?: ReceiptSight,
  options?: AppendOptions,
): Promise<Receipt> {
  // no async wrapper of its own (two receipts a call wait on no extra turn); a throw is still a rejection
  return settled(() => {
    const base = receiptBase(internals.clock(), policy.hash, policy.mode, internals.environment ?? policy.environment ?? null);
    // Object.assign, not `{ ...base, ...fields }`: the same object, several times faster in V8 when
    // fields overwrite base's nulls
    return sendReceipt(internals, policy, Object.assign({}, base, fields), base, sight, options);
  });
}

/**
 * Appends a receipt body already complete (its time, policy, mode and environment included, its
 * members in `appendReceipt`'s order): the core's writer builds each call's receipt as one object
 * (core/receipt.ts). A throw is the caller's (it runs inside the caller's `settled`).
 */
export function sendReceipt(
  internals: ControlInternals,
  policy: CompiledPolicy,
  sent: ReceiptBody,
  base: Parameters<typeof appendSigned>[3],
  sight?: ReceiptSight,
  options?: AppendOptions,
): Promise<Receipt> {
  if (internals.telemetry !== undefined) internals.telemetry.record(sent, policy, sight);
  // signed by the control, never by the store: a rewritten chain cannot carry this signature, and
  // the checkpoint names only this receipt (checked to be what was sent), never others' in between
  // (no `base`: the checkpoint's time, policy, mode and environment are the receipt's own)
  return appendSigned(internals.store, internals.signer, sent, base, options);
}

/** Who said yes to a request, in answer order (the stores refuse a second answer from one approver). */
export function approversOf(request: Pick<ApprovalRequest, 'answers'>): string[] {
  return request.answers.filter((a) => a.decision === 'approve').map((a) => a.approver);
}

/** The distinct people who said yes, compared after identity normalisation (`bob` and `BOB` are one). */
export function distinctApprovers(request: Pick<ApprovalRequest, 'answers'>): Set<string> {
  return new Set(approversOf(request).map(normaliseIdentity));
}

export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The parsed arguments with their canonical hash and text, or null when they are not JSON. */
export function canonicalArgs(raw: string): { value: unknown; hash: string; canonical: string } | null {
  const parsed = parseJson(raw);
  if (!parsed.ok) return null;
  const canonical = canonicalJson(parsed.value);
  return { value: parsed.value, hash: canonicalHash(parsed.value), canonical };
}
