import type { RunContext, RunState, RunToolApprovalItem } from '@openai/agents';
import { argsMatchHash, filedForm } from './args-binding.js';
import { parseArguments } from './arguments.js';
import { canonicalHash, canonicalJson } from './canonical.js';
import { decideCall } from './decide.js';
import { decidedByParts, type PartsOf } from './core/parts.js';
import { ActionDenied, ApprovalMismatch, CtrlrunError } from './errors.js';
import { receiptSigner, type ReceiptSigner } from './signing.js';
import { keepsDecisionLog, type DecisionLogOption } from './decision-log.js';
import {
  appendReceipt,
  approverName,
  approversOf,
  argsHashOf,
  INTERNALS,
  parseJson,
  PAUSED_DOOR,
  PROTECTED_ACTION,
  reasonText,
  requirePolicy,
  sdkToolName,
  taskOf,
  TOOL_ARGUMENTS,
  whoOf,
  type ArgumentsOf,
  type ControlInternals,
  type Identity,
  type RunOf,
  type TaskOf,
} from './internals.js';
import { haltWatch } from './halts.js';
import { liftHalt, setHalt, type HaltInput } from './halt-actions.js';
import { HOSTED_ACTION, hostedRequestOf, type HostedRequest } from './doors/hosted-item.js';
import { LOCAL_ACTION, type LocalMark } from './doors/local-mark.js';
import { sandboxCallOf } from './doors/sandbox-mark.js';
import { refusal, rejectionText } from './core/messages.js';
import { type AnswerInput, type AnswerResult, recordAnswer, revokeGrant } from './answer.js';
import { DEFAULT_MAX_GRANT_HOURS, type GrantInput } from './approval-grants.js';
import { logReceipt } from './core/decision-entry.js';
import { createTelemetry, type TelemetryOption } from './observe/telemetry.js';
import type { ApprovalGrant, ApprovalRequest, CompiledPolicy, GrantQuery, Halt, PausedDoor, PausedDoorKind, ReceiptBody, Store } from './types.js';

export type { Identity, IdentityValue, RunOf, TaskOf } from './internals.js';
export type { HaltInput } from './halt-actions.js';
export { refusal } from './core/messages.js';

export interface ControlOptions {
  store: Store;
  /** Who the run acts for, from the run's context; null refuses every call (`no_principal`). */
  identity: Identity;
  /**
   * The unit of work a run is on (CTRLRun's `task=`), from the run's context: a grant that names
   * `tasks` covers a call only on a task it names (`authority_task`). Default: no task.
   */
  task?: TaskOf;
  /**
   * The run a call belongs to, as your application names it (a conversation, a job id), from the
   * run's context: an operator can halt one run (`ctrlrun-gen halts set --run ID`). Default: none
   * (halts of a principal, an action or everything still apply).
   */
  run?: RunOf;
  /** Recorded on receipts; defaults to the policy's `environment`. */
  environment?: string;
  /** How long an approval stays valid after it was decided. Default 15 minutes. */
  approvalTtlMs?: number;
  /** How long an attempt holds an effect key before it counts as crashed (ambiguous). Default 5 minutes. */
  effectLeaseMs?: number;
  /** Epoch milliseconds; inject one in tests. Default `Date.now`. */
  clock?: () => number;
  /**
   * The Ed25519 secret key (`ctrlrun-ed25519-secret:…`, from `ctrlrun-gen receipts keygen`) that
   * signs a checkpoint after every receipt; default the `CTRLRUN_RECEIPT_KEY` environment variable
   * where there is one. Keep it out of the store: `receipts verify --public-key` then detects a
   * rewritten chain. `null`: no checkpoints even if the variable is set.
   */
  receiptKey?: string | null;
  /**
   * The decision log (`ctrlrun-gen replay --store`, `receipts log`): each decided call's inputs
   * beside its receipt, an argument labelled by the policy's `data:` kept only as its hash. On by
   * default; `false` keeps none. Entries are kept until an operator prunes them (`ctrlrun-gen
   * receipts prune`, `serve --retention-days`): the application never prunes.
   */
  decisionLog?: DecisionLogOption;
  /**
   * Where the control tells the developer one line (the first call it refuses for want of a
   * principal, once per control). Default `console.warn`.
   */
  notice?: (line: string) => void;
  /**
   * Where decisions, pauses and answers are seen besides the receipts (docs/observability.md): the
   * SDK's traces (on, following the SDK's own switch) and OpenTelemetry (`{ openTelemetry: api }`).
   * `false`: nowhere, and no call asks.
   */
  telemetry?: TelemetryOption;
  /**
   * The longest approval grant this control's `approve(…, { grant })` makes, in hours (default 8;
   * 0 turns grants off). serve and the CLI have their own (`--max-grant-hours`).
   */
  maxGrantHours?: number;
  /**
   * Offer the model every protected tool. By default a tool whose action the policy never lets the
   * run's principal use (denied for every input, unmapped, or no grant reaches it) is not offered at
   * all (the SDK's `isEnabled` of function tools, agent tools, handoffs and sandbox capability tools;
   * a guarded MCP server's `toolFilter`), so the model cannot plan with it; `true` keeps the full list.
   */
  offerAllTools?: boolean;
}

/** An approver's answer through a Control: who, why, and for an approval its edit and grant. */
export interface ApproveAnswer {
  approver: string;
  reason?: string;
  /**
   * Approve with edits: the arguments to run instead of the model's (an object, or its JSON text),
   * checked against the tool's schema and decided again by the policy; the approval binds to them.
   */
  arguments?: unknown;
  /** Grant the same for this principal for `hours` (no longer than `maxGrantHours`), within `bounds` (CTRLRun `when` entries). */
  grant?: GrantInput;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyRunState = RunState<any, any>;

/**
 * What the control needs of a `RealtimeSession` (from `@openai/agents/realtime`), which pauses a
 * call by emitting `tool_approval_requested` instead of returning a RunState. Structural, so the
 * runtime does not import the realtime package.
 */
export interface RealtimeSessionLike {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly context: RunContext<any>;
  approve(item: RunToolApprovalItem, options?: { alwaysApprove?: boolean }): Promise<void>;
  reject(item: RunToolApprovalItem, options?: { message?: string }): Promise<void>;
}

/** The paused calls the control reads and answers: a RunState, or one realtime call (see `realtimeCall`). */
interface PausedCalls {
  getInterruptions(): RunToolApprovalItem[];
  approve(item: RunToolApprovalItem): unknown;
  reject(item: RunToolApprovalItem, options: { message: string }): unknown;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly _context: RunContext<any>;
}

/** One realtime call as paused calls: answering it answers the session, which then runs or refuses it. */
function realtimeCall(session: RealtimeSessionLike, item: RunToolApprovalItem): PausedCalls {
  if (!session || typeof session.approve !== 'function' || typeof session.reject !== 'function' || !session.context) {
    throw new CtrlrunError('ctrlrun: requestRealtime/resolveRealtime take the RealtimeSession and the approvalItem of its `tool_approval_requested` event.');
  }
  return {
    getInterruptions: () => [item],
    approve: (i) => session.approve(i), // never alwaysApprove: each call is answered on its own
    reject: (i, options) => session.reject(i, options),
    _context: session.context,
  };
}

export interface Control {
  readonly store: Store;
  /** The compiled policy bound by the generated module (`bindProtectedTool`); undefined before. */
  readonly policy: CompiledPolicy | undefined;
  /** Records the pending approval requests of the state's interruptions (idempotent by call id). Returns them. */
  request(state: AnyRunState): Promise<ApprovalRequest[]>;
  /**
   * Records `approver`'s yes for this call; once `approvals_required` distinct approvers said yes,
   * approves the call in the SDK state (never with `alwaysApprove`). Returns the request.
   */
  approve(state: AnyRunState, item: RunToolApprovalItem, answer: ApproveAnswer): Promise<ApprovalRequest>;
  /** Records `approver`'s no and rejects the call in the SDK state; the model reads `message` as the refusal's reason. */
  reject(state: AnyRunState, item: RunToolApprovalItem, answer: { approver: string; message?: string }): Promise<ApprovalRequest>;
  /**
   * Answers the call in the tool's place: the body never runs, the model reads `result` as the
   * tool's result (a rejection in the SDK state whose message is the result), the receipt says
   * `responded`.
   */
  respond(state: AnyRunState, item: RunToolApprovalItem, answer: { approver: string; result: string; reason?: string }): Promise<ApprovalRequest>;
  /** The store's approval grants (`activeAt`: only those unrevoked and unexpired then), oldest first. */
  grants(query?: GrantQuery): Promise<ApprovalGrant[]>;
  /** Revokes an approval grant as `by`: the next call it would have covered pauses. Returns the grant. */
  revokeGrant(id: string, answer: { by: string }): Promise<ApprovalGrant>;
  /** Applies answers recorded elsewhere (the CLI, another process) to the state; returns what is still pending. */
  resolve(state: AnyRunState): Promise<ApprovalRequest[]>;
  /**
   * `request` for a `RealtimeSession`: records the pending request of the call its
   * `tool_approval_requested` event carries (`event.approvalItem`), the principal from the
   * session's context. Null when the call was refused instead (malformed arguments).
   */
  requestRealtime(session: RealtimeSessionLike, item: RunToolApprovalItem): Promise<ApprovalRequest | null>;
  /**
   * `resolve` for a `RealtimeSession`: applies the answer recorded elsewhere (serve, the CLI) to
   * that call. Approved: `session.approve(item)`, so the session runs the call, which claims the
   * approval once (resolves after the body ran). Rejected, used or expired: `session.reject(item)`
   * with the reason for the model. Pending: nothing. Returns the request.
   */
  resolveRealtime(session: RealtimeSessionLike, item: RunToolApprovalItem): Promise<ApprovalRequest | null>;
  /**
   * An operator's halt, set from code (`by` is who; authenticate them in the code that calls it, as
   * for `approve`): from the next call on, in every process sharing the store, the calls it matches
   * are refused `halted` (a `hard` one ends their run). Recorded, signed with the control's key.
   */
  halt(input: HaltInput): Promise<Halt>;
  /** Lifts a halt (recorded as the same act, naming `by`); null when no halt has this id. */
  liftHalt(id: string, answer: { by: string; reason?: string }): Promise<Halt | null>;
  /** The halts in force. */
  halts(): Promise<Halt[]>;
  /** @internal */
  readonly [INTERNALS]: ControlInternals;
}

export const DEFAULT_APPROVAL_TTL_MS = 15 * 60 * 1000;
export const DEFAULT_EFFECT_LEASE_MS = 5 * 60 * 1000;

export function createControl(options: ControlOptions): Control {
  if (!options || typeof options.store !== 'object' || options.store === null) {
    throw new CtrlrunError('createControl: `store` is required (memoryStore(), sqliteStore({ path }) or postgresStore({ connectionString })).');
  }
  if (typeof options.identity !== 'function') {
    throw new CtrlrunError('createControl: `identity(runContext)` is required: it returns who the run acts for, or null.');
  }
  if (options.run !== undefined && typeof options.run !== 'function') {
    throw new CtrlrunError('createControl: `run(runContext)`, when given, is a function returning the run id (or null).');
  }
  const internals: ControlInternals = {
    store: options.store,
    identity: options.identity,
    notice: options.notice,
    task: options.task,
    run: options.run,
    halts: haltWatch(options.store),
    environment: options.environment,
    approvalTtlMs: positive(options.approvalTtlMs, DEFAULT_APPROVAL_TTL_MS, 'approvalTtlMs'),
    effectLeaseMs: positive(options.effectLeaseMs, DEFAULT_EFFECT_LEASE_MS, 'effectLeaseMs'),
    maxGrantHours: grantHours(options.maxGrantHours),
    clock: options.clock ?? Date.now,
    policy: undefined,
    signer: signerOf(options.receiptKey),
    decisionLog: keepsDecisionLog(options.decisionLog),
    telemetry: createTelemetry(options.telemetry, options.store, options.notice ?? ((line) => console.warn(line))),
    offerAllTools: options.offerAllTools === true,
    toolActions: new WeakMap(),
    lastIdentity: { value: undefined, who: null },
    pinnedFetches: new WeakMap(),
    namedActions: new Map(),
    namedArguments: new Map(),
  };

  return {
    store: options.store,
    get policy() {
      return internals.policy;
    },
    [INTERNALS]: internals,
    request: (state) => requestAll(internals, state),
    approve: (state, item, answer) => answerOne(internals, state, item, approveInput(answer)),
    reject: (state, item, answer) =>
      answerOne(internals, state, item, {
        approver: answer?.approver,
        decision: 'reject',
        ...(answer?.message === undefined ? {} : { reason: answer.message }),
      }),
    respond: (state, item, answer) =>
      answerOne(internals, state, item, {
        approver: answer?.approver,
        decision: 'respond',
        result: answer?.result,
        ...(answer?.reason === undefined ? {} : { reason: answer.reason }),
      }),
    grants: async (query) => (typeof internals.store.listGrants === 'function' ? internals.store.listGrants(query) : []),
    revokeGrant: (id, answer) => revokeOne(internals, id, answer),
    resolve: (state) => resolveAll(internals, state),
    requestRealtime: async (session, item) => {
      const paused = realtimeCall(session, item);
      const policy = requirePolicy(internals);
      return ensureRequest(internals, policy, paused, requireOurs(internals, policy, item));
    },
    resolveRealtime: async (session, item) => {
      const paused = realtimeCall(session, item);
      const call = requireOurs(internals, requirePolicy(internals), item);
      await resolveAll(internals, paused); // requests a call not yet requested
      return internals.store.getRequest(call.callId);
    },
    halt: (input) => setHalt(internals.store, input, internals.clock(), internals.signer),
    liftHalt: (id, answer) => liftHalt(internals.store, id, answer?.by, internals.clock(), internals.signer, answer?.reason),
    halts: async () => (await internals.halts.refresh()).halts,
  };
}

function signerOf(key: string | null | undefined): ReceiptSigner | undefined {
  // browser-safe: `process` may not exist
  const fromEnv = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.CTRLRUN_RECEIPT_KEY;
  const secret = key === undefined ? fromEnv : key;
  if (secret === null || secret === undefined || secret.trim() === '') return undefined;
  return receiptSigner(secret);
}

function grantHours(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_GRANT_HOURS;
  if (!Number.isFinite(value) || value < 0) throw new CtrlrunError('createControl: `maxGrantHours` must be a number of hours, 0 or more (0 turns grants off).');
  return value;
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new CtrlrunError(`createControl: \`${name}\` must be a positive number of milliseconds.`);
  return value;
}

// ---------------------------------------------------------------------------------------------

interface OurCall {
  item: RunToolApprovalItem;
  callId: string;
  toolName: string;
  action: string;
  /** null when the arguments are not JSON, or refused (a float, a lone surrogate, not an object). */
  args: { value: unknown; hash: string; canonical: string } | null;
  refusal?: string;
  /** A shell or apply_patch call: a yes stays in the store; the tool's needsApproval claims it on resume. */
  local?: boolean;
  /** A computer call the tool refused (paused only so the refusal reaches the model): rejected in the state with this text, never requested. */
  refused?: string;
  /** The door the call paused at, filed with its request (where edits run, the tool's schema). */
  door: PausedDoor;
  /** A call of several parts (a shell call's commands, a patch's operations): its rules decide each (core/parts.ts). */
  parts?: PartsOf;
}

/** The interruptions of `state` that belong to tools protected by this control. */
function ourCalls(internals: ControlInternals, policy: CompiledPolicy, state: PausedCalls): OurCall[] {
  const calls: OurCall[] = [];
  for (const item of state.getInterruptions()) {
    const call = ourCall(internals, policy, item);
    if (call) calls.push(call);
  }
  return calls;
}

function ourCall(internals: ControlInternals, policy: CompiledPolicy, item: RunToolApprovalItem): OurCall | null {
  const raw = item.rawItem;
  const hosted = hostedRequestOf(item);
  if (hosted) return hostedCall(policy, item, hosted);
  if (raw.type === 'shell_call' || raw.type === 'apply_patch_call' || raw.type === 'computer_call') return localCall(policy, item) ?? sandboxCall(item);
  if (raw.type !== 'function_call') return null;
  const sandbox = sandboxCall(item);
  if (sandbox) return sandbox;
  const action = actionOfItem(internals, policy, item, raw.name);
  if (action === undefined) return null;
  // as the body gets them (a default the tool's schema fills in): what the pause filed and the claim binds
  const lossless = parseArguments(raw.arguments);
  const argumentsOf = toolOfItem(item, raw.name, (t) => (t as { [TOOL_ARGUMENTS]?: ArgumentsOf })[TOOL_ARGUMENTS]) ?? internals.namedArguments.get(raw.name);
  const parsed = argumentsOf ? argumentsOf(raw.arguments, lossless) : lossless;
  const hash = parsed.ok ? canonicalHash(parsed.value) : null;
  return {
    item,
    callId: raw.callId,
    toolName: raw.name,
    action,
    door: doorOfItem(item, raw.name),
    args: parsed.ok && hash !== null ? { value: parsed.value, hash, canonical: canonicalJson(parsed.value) } : null,
    ...(parsed.ok ? {} : { refusal: parsed.detail }),
  };
}

/** A hosted MCP approval request of a server protected with `protectHostedMcp` (or mapped in the manifest). */
function hostedCall(policy: CompiledPolicy, item: RunToolApprovalItem, hosted: HostedRequest): OurCall | null {
  const tools: unknown = (item.agent as { tools?: unknown } | undefined)?.tools;
  const tool = Array.isArray(tools)
    ? tools.find(
        (t) => (t as { providerData?: { server_label?: unknown } } | null)?.providerData?.server_label === hosted.serverLabel && HOSTED_ACTION in (t as object),
      )
    : undefined;
  const action = (tool as { [HOSTED_ACTION]?: string } | undefined)?.[HOSTED_ACTION] ?? policy.hostedMcp?.[hosted.serverLabel];
  if (action === undefined) return null;
  const parsed = parseJson(hosted.arguments);
  const hash = parsed.ok ? argsHashOf(hosted.arguments, undefined) : null;
  return {
    item,
    callId: hosted.id,
    toolName: `${hosted.serverLabel}/${hosted.toolName}`,
    action,
    door: { kind: 'hosted_mcp' },
    args: parsed.ok && hash !== null ? { value: parsed.value, hash, canonical: canonicalJson(parsed.value) } : null,
  };
}

/** A call of a capability tool of a SandboxAgent protected by protectSandboxAgent (its item names the public agent, which holds none of those tools). */
function sandboxCall(item: RunToolApprovalItem): OurCall | null {
  const raw = item.rawItem as { type?: string; callId?: unknown; name?: unknown; arguments?: unknown; operation?: unknown };
  const found = typeof raw.callId === 'string' ? sandboxCallOf(item.agent, raw) : undefined;
  if (!found) return null;
  // filed here only when the pause could not file it: a capability's schema is not at hand, so no edits
  const base = {
    item,
    callId: raw.callId as string,
    toolName: found.toolName,
    action: found.action,
    door: { kind: found.local ? 'apply_patch' : 'sandbox' } as PausedDoor,
  };
  if (found.local) {
    const hash = argsHashOf(undefined, found.local.args);
    return {
      ...base,
      args: hash === null ? null : { value: found.local.args, hash, canonical: canonicalJson(found.local.args) },
      local: true,
      ...(found.parts ? { parts: found.parts } : {}),
    };
  }
  const text = typeof raw.arguments === 'string' ? raw.arguments : '';
  const parsed = parseArguments(text);
  const hash = parsed.ok ? argsHashOf(text, undefined) : null;
  return {
    ...base,
    args: parsed.ok && hash !== null ? { value: parsed.value, hash, canonical: canonicalJson(parsed.value) } : null,
    ...(parsed.ok ? {} : { refusal: parsed.detail }),
  };
}

const LOCAL_TYPES: Record<string, string> = { shell_call: 'shell', apply_patch_call: 'apply_patch', computer_call: 'computer' };

/** A call of a shell, apply_patch or computer tool made by protectShellTool / protectApplyPatchTool / protectComputerTool. */
function localCall(policy: CompiledPolicy, item: RunToolApprovalItem): OurCall | null {
  const raw = item.rawItem as { type: string; callId?: string };
  const tools: unknown = (item.agent as { tools?: unknown } | undefined)?.tools;
  if (!Array.isArray(tools) || typeof raw.callId !== 'string') return null;
  // the SDK runs the agent's one tool of each kind
  const tool = tools.find((t) => t && typeof t === 'object' && (t as { type?: string }).type === LOCAL_TYPES[raw.type]) as
    | { name?: string; [LOCAL_ACTION]?: LocalMark }
    | undefined;
  const mark = tool?.[LOCAL_ACTION];
  if (!mark) return null;
  const value = mark.present(raw);
  const hash = argsHashOf(undefined, value);
  // a computer call pauses on a refusal too (its output is a screenshot: the SDK's rejection is the only way to tell the model);
  // in another process than the one that refused it, the policy's deny is found again here
  let refused = mark.refusalOf?.(raw.callId);
  if (refused === undefined && mark.refusalOf) {
    const decision = decideCall(policy.actions[mark.action], value);
    if (decision.decision === 'deny') refused = refusal(mark.action, `denied by policy: ${reasonText(decision)}`);
  }
  return {
    item,
    callId: raw.callId,
    toolName: tool?.name ?? LOCAL_TYPES[raw.type] ?? raw.type,
    action: mark.action,
    door: { kind: (LOCAL_TYPES[raw.type] ?? 'shell') as PausedDoorKind },
    args: hash === null ? null : { value, hash, canonical: canonicalJson(value) },
    local: true,
    ...(refused === undefined ? {} : { refused }),
    ...(mark.parts ? { parts: mark.parts } : {}),
  };
}

/** The door of a function call's tool (its kind and schema, as its pause would file them); a tool this control did not make: a function door with no schema (no edits). */
function doorOfItem(item: RunToolApprovalItem, name: string): PausedDoor {
  const door = toolOfItem(item, name, (t) => (t as { [PAUSED_DOOR]?: () => PausedDoor })[PAUSED_DOOR]);
  return typeof door === 'function' ? door() : { kind: 'function' };
}

/** `pick` of the function tool named `name` among the item's agent's tools; undefined when the agent has no such tool. */
function toolOfItem<T>(item: RunToolApprovalItem, name: string, pick: (tool: object) => T | undefined): T | undefined {
  const tools: unknown = (item.agent as { tools?: unknown } | undefined)?.tools;
  if (!Array.isArray(tools)) return undefined;
  const tool = tools.find((t) => t && typeof t === 'object' && (t as { type?: string }).type === 'function' && (t as { name?: string }).name === name);
  return tool ? pick(tool) : undefined;
}

function actionOfItem(internals: ControlInternals, policy: CompiledPolicy, item: RunToolApprovalItem, name: string): string | undefined {
  // a protected tool (of this control or another bound to the same policy in this process) or not ours
  const found = toolOfItem(item, name, (tool) => ({ action: internals.toolActions.get(tool) ?? (tool as { [PROTECTED_ACTION]?: string })[PROTECTED_ACTION] }));
  if (found) return found.action;
  const named = internals.namedActions.get(name);
  if (named !== undefined) return named;
  for (const [toolName, action] of Object.entries(policy.tools)) if (sdkToolName(toolName) === name) return action;
  return undefined;
}

function requireOurs(internals: ControlInternals, policy: CompiledPolicy, item: RunToolApprovalItem): OurCall {
  const call = ourCall(internals, policy, item);
  if (!call) throw new CtrlrunError(`ctrlrun: this interruption is not a call of a tool protected by this control (${item.name ?? item.rawItem.type}).`);
  return call;
}

/** Puts the pending request of a call (idempotent); refuses a malformed call in the state. Null when refused. */
async function ensureRequest(internals: ControlInternals, policy: CompiledPolicy, state: PausedCalls, call: OurCall): Promise<ApprovalRequest | null> {
  if (call.refused !== undefined) {
    // refused when the tool was asked (receipt written then); the SDK tells the model with this text
    await state.reject(call.item, { message: call.refused });
    return null;
  }
  if (!call.args) {
    const malformed = !parseJson(call.item.rawItem.type === 'function_call' ? call.item.rawItem.arguments : undefined).ok;
    await state.reject(call.item, {
      message: malformed
        ? `The call to ${call.action} was refused: its arguments are not valid JSON. It did not run. Call it again with valid JSON arguments if still needed.`
        : `The call to ${call.action} was refused: ${call.refusal ?? 'its arguments are invalid'}. It did not run.`,
    });
    await appendReceipt(internals, policy, {
      action: call.action,
      call_id: call.callId,
      result: 'refused',
      reason: malformed ? 'malformed_arguments' : 'invalid_argument',
    });
    return null;
  }
  const existing = await internals.store.getRequest(call.callId);
  if (existing) return existing;
  const who = await whoOf(internals, state._context);
  const principal = who?.principal ?? null;
  if (who === null || principal === null) {
    throw new CtrlrunError(`ctrlrun: identity(runContext) returned null for the run that paused on ${call.action}; no request was recorded.`, {
      action: call.action,
      callId: call.callId,
    });
  }
  const compiled = policy.actions[call.action];
  const decision = decideCall(decidedByParts(compiled, call.parts), call.args.value);
  const request = await internals.store.putRequest({
    callId: call.callId,
    action: call.action,
    toolName: call.toolName,
    argsHash: call.args.hash,
    args: call.args.canonical,
    policyHash: policy.hash,
    principal,
    approvalsRequired: compiled?.approvalsRequired ?? 1,
    createdAt: internals.clock(),
    door: call.door,
  });
  const receipt = await appendReceipt(internals, policy, {
    action: call.action,
    call_id: call.callId,
    args_hash: call.args.hash,
    principal,
    decision: decision.decision,
    reason: reasonText(decision),
    result: 'requested',
  });
  // the pause's decision: its log entry, as the core writes it for a pause it files itself
  const task = policy.authority ? await taskOf(internals, state._context) : null;
  await logReceipt(
    internals,
    policy,
    call.action,
    { callId: call.callId, argsHash: call.args.hash, principal, decision, args: call.args.value, subject: who.subject, task },
    receipt,
  );
  return request;
}

/** The stored request is for exactly this call: same action, arguments and policy. */
function bindingHolds(request: ApprovalRequest, call: OurCall, policy: CompiledPolicy): boolean {
  if (request.action !== call.action || request.policyHash !== policy.hash || !call.args) return false;
  if (request.argsHash === call.args.hash) return true;
  // filed at the pause as strict mode writes the call, the text leaving an optional property out: the
  // same call when the policy decides both alike (the claim asks again, with the principal's grants)
  const written = filedForm(call.args.value, request);
  if (written === undefined) return false;
  const [a, b] = [decideCall(policy.actions[call.action], written), decideCall(policy.actions[call.action], call.args.value)];
  return a.decision === b.decision && a.reason === b.reason && a.effectKey === b.effectKey && a.resource === b.resource;
}

async function requestAll(internals: ControlInternals, state: PausedCalls): Promise<ApprovalRequest[]> {
  const policy = requirePolicy(internals);
  const out: ApprovalRequest[] = [];
  for (const call of ourCalls(internals, policy, state)) {
    const request = await ensureRequest(internals, policy, state, call);
    if (request) out.push(request);
  }
  return out;
}

type ControlAnswer = Omit<AnswerInput, 'approver' | 'at'> & { approver: unknown };

function approveInput(answer: ApproveAnswer): ControlAnswer {
  return {
    approver: answer?.approver,
    decision: 'approve',
    ...(answer?.reason === undefined ? {} : { reason: answer.reason }),
    ...(answer?.arguments === undefined ? {} : { arguments: answer.arguments }),
    ...(answer?.grant === undefined ? {} : { grant: answer.grant }),
  };
}

/**
 * Records one answer (runtime/answer.ts: the same writing as every operator surface), then mirrors
 * the request into the SDK state: approved once `approvals_required` distinct approvers said yes
 * (to the same arguments), rejected (the model reads the message, or a response as the result).
 */
async function answerOne(internals: ControlInternals, state: PausedCalls, item: RunToolApprovalItem, input: ControlAnswer): Promise<ApprovalRequest> {
  const policy = requirePolicy(internals);
  const approver = approverName(input.approver);
  const call = requireOurs(internals, policy, item);
  const request = await ensureRequest(internals, policy, state, call);
  if (!request) {
    if (input.decision !== 'approve') return { ...placeholder(call, policy), state: 'rejected' };
    throw new ApprovalMismatch('mismatch', call.refused ?? `ctrlrun: the call to ${call.action} has malformed arguments and was refused.`, call);
  }
  if (input.decision === 'approve' && !bindingHolds(request, call, policy)) {
    throw new ApprovalMismatch(
      'mismatch',
      `ctrlrun: the recorded request ${call.callId} is for different arguments, action or policy than this call; not approved.`,
      call,
    );
  }
  const environment = internals.environment ?? policy.environment ?? null;
  const result = await recordAnswer(
    internals.store,
    call.callId,
    { ...input, approver, at: internals.clock() },
    {
      decide: (action, args) => (Object.hasOwn(policy.actions, action) ? decideCall(policy.actions[action], args) : undefined),
      maxGrantHours: internals.maxGrantHours,
      signer: internals.signer,
      context: { mode: policy.mode, environment },
      // through serve (httpStore) the server writes the answer's receipt
      recordsAnswers: internals.store.recordsAnswers === true,
      ...(internals.telemetry === undefined
        ? {}
        : {
            onReceipt: (sent: ReceiptBody, answeredRequest?: ApprovalRequest) =>
              internals.telemetry?.record(sent, policy, { ...(answeredRequest ? { request: answeredRequest } : {}), toolName: call.toolName }),
          }),
    },
  );
  return applyToState(state, call, answered(call, approver, result));
}

/** The request an answer left, or the error its refusal is (nothing changed). */
function answered(call: OurCall, approver: string, result: AnswerResult): ApprovalRequest {
  switch (result.outcome) {
    case 'unknown':
      throw new CtrlrunError(`ctrlrun: the request ${call.callId} vanished from the store.`, call);
    case 'approver_is_requester':
      throw new ApprovalMismatch(
        'approver_is_requester',
        `ctrlrun: ${approver} asked for this call (${call.action}) and cannot answer it; another person must.`,
        call,
      );
    case 'args_mismatch':
      throw new ApprovalMismatch(
        'mismatch',
        `ctrlrun: the recorded request ${call.callId} is for different arguments, action or policy than this call; not approved.`,
        call,
      );
    case 'refused':
      throw new ActionDenied(result.code, `ctrlrun: ${result.message}`, call);
    case 'edit_mismatch':
      throw new ActionDenied(
        'edit_mismatch',
        `ctrlrun: ${approver} approved other arguments than the earlier approvals of ${call.callId}; every approver of a call approves the same arguments (approve those, or reject).`,
        call,
      );
    default:
      return result.request;
  }
}

async function revokeOne(internals: ControlInternals, id: string, answer: { by: string }): Promise<ApprovalGrant> {
  const policy = requirePolicy(internals);
  const by = approverName(answer?.by);
  const context = { mode: policy.mode, environment: internals.environment ?? policy.environment ?? null };
  const result = await revokeGrant(internals.store, id, by, internals.clock(), { signer: internals.signer, context });
  if (result.outcome === 'unknown') throw new CtrlrunError(`ctrlrun: no approval grant ${id} in the store.`);
  return result.grant;
}

async function resolveAll(internals: ControlInternals, state: PausedCalls): Promise<ApprovalRequest[]> {
  const policy = requirePolicy(internals);
  const pending: ApprovalRequest[] = [];
  for (const call of ourCalls(internals, policy, state)) {
    const request = await ensureRequest(internals, policy, state, call);
    if (!request) continue;
    // a refused resume (a replay of a used approval, another call's, an expired one) is one receipt
    const refused = (reason: string) =>
      appendReceipt(internals, policy, {
        action: call.action,
        call_id: call.callId,
        args_hash: call.args?.hash ?? null,
        principal: request.principal,
        decision: 'approve',
        approvers: approversOf(request),
        result: 'refused',
        reason,
      });
    // never reused by call id alone: a request (pending too) for other arguments, action or policy is refused
    if (!bindingHolds(request, call, policy) || !argsMatchHash(request)) {
      await refused('approval_mismatch');
      await state.reject(call.item, { message: refusal(call.action, 'the recorded approval is for a different call') });
      continue;
    }
    if (request.state === 'approved' && request.decidedAt !== undefined && internals.clock() > request.decidedAt + internals.approvalTtlMs) {
      await refused('approval_expired');
      await state.reject(call.item, { message: refusal(call.action, 'its approval expired before the run resumed') });
      continue;
    }
    if (request.state === 'consumed') await refused('approval_consumed');
    await applyToState(state, call, request);
    if (request.state === 'pending') pending.push(request);
  }
  return pending;
}

/** Mirrors the store's answer into the SDK state. Approves only a fully approved request, one call at a time. */
async function applyToState(state: PausedCalls, call: OurCall, request: ApprovalRequest): Promise<ApprovalRequest> {
  switch (request.state) {
    case 'approved':
      // a local tool's yes stays in the store: its needsApproval claims it when the run resumes
      if (!call.local) await state.approve(call.item);
      break;
    case 'rejected':
      // a rejection's message as the refusal's reason; a response as the tool's result
      await state.reject(call.item, { message: rejectionText(call.action, request) });
      break;
    case 'consumed':
      await state.reject(call.item, { message: refusal(call.action, 'its approval was already used: the approved call ran once already') });
      break;
    case 'pending':
      break;
  }
  return request;
}

function placeholder(call: OurCall, policy: CompiledPolicy): ApprovalRequest {
  return {
    callId: call.callId,
    action: call.action,
    toolName: call.toolName,
    argsHash: '',
    args: '',
    policyHash: policy.hash,
    principal: '',
    approvalsRequired: 1,
    state: 'rejected',
    answers: [],
    createdAt: 0,
  };
}
