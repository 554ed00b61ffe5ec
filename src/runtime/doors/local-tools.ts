// a namespace import: SDKs before shell and apply_patch tools still load the runtime (linking fails on a missing named export)
import * as sdk from '@openai/agents';
import type {
  applyPatchTool,
  computerTool,
  shellTool,
  ApplyPatchOperation,
  ApplyPatchTool,
  Computer,
  ComputerTool,
  Editor,
  RunContext,
  Shell,
  ShellAction,
  ShellResult,
  ShellTool,
} from '@openai/agents';
import type { Control } from '../control.js';
import { refusal } from '../core/messages.js';
import { LOCAL_ACTION, type LocalMark } from './local-mark.js';
import { CtrlrunError } from '../errors.js';
import type { ControlInternals } from '../internals.js';
import { createActionCore } from '../core/action-core.js';
import { bindPolicy } from '../core/bind-policy.js';
import type { CompiledPolicy } from '../types.js';
import { localGate, Refused } from './local-gate.js';
import { presentPatchOperation } from './patch-operations.js';
import type { PartsOf } from '../core/parts.js';

export { presentPatchOperation } from './patch-operations.js';

/**
 * Local execution tools: `shellTool({ shell })` and `applyPatchTool({ editor })`. One thin adapter
 * each over the core (decide, pause for a person, claim once, run once, receipt).
 *
 * The SDK runs these tools itself: it asks the tool's public `needsApproval(runContext, action,
 * callId)` and then calls `shell.run(action)` / `editor.createFile(operation)` with the same action
 * object, with no run context and no call id. So the adapter decides in `needsApproval` (where the
 * call id and the run context are), keeps the authorization keyed by that action object, and the
 * wrapped shell or editor runs the body only with it. A call the SDK approves on its own (a bare
 * `state.approve`, `alwaysApprove`) never asks `needsApproval`, so its body finds no authorization
 * and is refused: an approval the SDK holds authorizes nothing.
 *
 * A person's yes is recorded in the store only (the control leaves these calls undecided in the
 * SDK state), so on resume the SDK asks `needsApproval` again, which claims the recorded yes once.
 *
 * What the policy's `when` sees:
 * - shell: `{ command, commands }`: `commands` as the model sent them, `command` joined by "\n";
 *   a call of several commands is decided command by command (each `{ command, commands: [command] }`),
 *   the strictest decision wins;
 * - apply_patch: `{ operation, path, diff? , move_to? }` (`operation` is `create_file`,
 *   `update_file` or `delete_file`).
 */
export interface LocalDoors<A extends string = string> {
  /** `shellTool(options)` guarded by the policy's `action` (a local shell; hosted shells run at OpenAI). */
  protectShellTool: (action: A, options: ProtectShellToolOptions) => ShellTool;
  /** `applyPatchTool(options)` guarded by the policy's `action`. */
  protectApplyPatchTool: (action: A, options: ProtectApplyPatchToolOptions) => ApplyPatchTool;
  /** `computerTool(options)` guarded by the policy's `action`: every computer call (one batch of actions) is one decision. */
  protectComputerTool: <Context = unknown, TComputer extends Computer = Computer>(
    action: A,
    options: ProtectComputerToolOptions<Context, TComputer>,
  ) => ComputerTool<Context, TComputer>;
}

export type ProtectShellToolOptions = Omit<Parameters<typeof shellTool>[0], 'needsApproval' | 'onApproval' | 'shell' | 'environment'> & {
  shell: Shell;
  environment?: { type: 'local'; skills?: unknown[] };
  needsApproval?: never;
  onApproval?: never;
};

export type ProtectApplyPatchToolOptions = Omit<Parameters<typeof applyPatchTool>[0], 'needsApproval' | 'onApproval'> & {
  needsApproval?: never;
  onApproval?: never;
};

/** `computerTool`'s options without `needsApproval` (the policy decides), generic like it: `dispose` and the extractor see your computer's type. */
export type ProtectComputerToolOptions<Context = unknown, TComputer extends Computer = Computer> = {
  name?: string;
  computer: ComputerTool<Context, TComputer>['computer'];
  onSafetyCheck?: ComputerTool<Context, TComputer>['onSafetyCheck'];
  customDataExtractor?: ComputerTool<Context, TComputer>['customDataExtractor'];
  needsApproval?: never;
  onApproval?: never;
};

export { LOCAL_ACTION, type LocalMark } from './local-mark.js';

export function bindLocalTools<A extends string = string>(control: Control, policy: CompiledPolicy): LocalDoors<A> {
  const internals = bindPolicy(control, policy, 'bindLocalTools');
  return {
    protectShellTool: (action, options) => makeShellTool(internals, policy, action, options),
    protectApplyPatchTool: (action, options) => makeApplyPatchTool(internals, policy, action, options),
    protectComputerTool: <Context, TComputer extends Computer>(action: A, options: ProtectComputerToolOptions<Context, TComputer>) =>
      makeComputerTool(internals, policy, action, options as unknown as ProtectComputerToolOptions) as unknown as ComputerTool<Context, TComputer>,
  };
}

// --- presentation to the policy ---------------------------------------------------------------

export function presentShellAction(action: Pick<ShellAction, 'commands'> | undefined): { command: string; commands: string[] } {
  const commands = Array.isArray(action?.commands) ? action.commands.map((c) => String(c)) : [];
  return { command: commands.join('\n'), commands };
}

/**
 * The parts of a presented shell call of several commands: each command as a call of that one
 * command presents it (`{ command, commands: [command] }`), decided on its own (core/parts.ts).
 * One command (or none): the call is one part.
 */
export const shellParts: PartsOf = (args) => {
  const commands = (args as { commands?: unknown } | null)?.commands;
  return Array.isArray(commands) && commands.length > 1 ? commands.map((c) => ({ command: String(c), commands: [String(c)] })) : undefined;
};

/** The SDK's factory, or a clear error on an SDK that has none (shell and apply_patch tools are recent). */
function sdkFactory<K extends 'shellTool' | 'applyPatchTool' | 'computerTool'>(name: K): (typeof sdk)[K] {
  const factory = (sdk as Record<string, unknown>)[name];
  if (typeof factory !== 'function') throw new CtrlrunError(`${name} is not in this version of @openai/agents; upgrade it to use this door.`);
  return factory as (typeof sdk)[K];
}

function checkOptions(who: string, action: string, options: object | undefined, need: string): void {
  if (!options || typeof options !== 'object') throw new CtrlrunError(`${who}('${action}'): options are required, as for ${need}.`);
  for (const key of ['needsApproval', 'onApproval'] as const) {
    if (key in options) {
      throw new CtrlrunError(
        `${who}('${action}'): remove \`${key}\`: the policy (ctrlrun.yaml) decides which calls need a person, and the control records the answers (an inline onApproval cannot wait for one).`,
      );
    }
  }
}

function mark<T extends object>(tool: T, action: string, present: LocalMark['present'], more: Pick<LocalMark, 'refusalOf' | 'parts'> = {}): T {
  const value: LocalMark = { action, present, ...more };
  Object.defineProperty(tool, LOCAL_ACTION, { value, enumerable: false });
  return tool;
}

// --- shell --------------------------------------------------------------------------------------

function makeShellTool(internals: ControlInternals, policy: CompiledPolicy, action: string, options: ProtectShellToolOptions): ShellTool {
  const who = 'protectShellTool';
  checkOptions(who, action, options, 'shellTool({ shell })');
  const inner = options.shell;
  if (!inner || typeof inner.run !== 'function') throw new CtrlrunError(`${who}('${action}'): \`shell\` must be a Shell (an object with run(action)).`);
  const environment = (options as { environment?: { type?: unknown } }).environment;
  if (environment !== undefined && environment.type !== 'local') {
    throw new CtrlrunError(
      `${who}('${action}'): a hosted shell (environment.type '${String(environment.type)}') runs at OpenAI and takes no approval; this door guards a local shell.`,
    );
  }
  const core = createActionCore(internals, policy, action, { door: { kind: 'shell' }, parts: shellParts });
  const gate = localGate(internals, core, who, () => made.name);
  const shell: Shell = {
    run: async (shellAction: ShellAction): Promise<ShellResult> => {
      const out = await gate.run(shellAction, presentShellAction(shellAction), () => inner.run(shellAction));
      if (out instanceof Refused) return { output: [{ stdout: '', stderr: out.refused, outcome: { type: 'exit', exitCode: null } }] };
      return out;
    },
  };
  const made = sdkFactory('shellTool')({
    ...(options as object),
    shell,
    needsApproval: (runContext: RunContext, shellAction: ShellAction, callId?: string) =>
      gate.needsApproval(runContext as RunContext<unknown>, shellAction, presentShellAction(shellAction), callId),
  } as unknown as Parameters<typeof shellTool>[0]) as ShellTool;
  return mark(made, action, (raw) => presentShellAction((raw as { action?: ShellAction }).action), { parts: shellParts });
}

// --- apply_patch ----------------------------------------------------------------------------

/** What an SDK Editor method resolves to (the SDK's own type: a result, or nothing). */
type EditorResult = ReturnType<Editor['updateFile']>;

/**
 * `applyPatchTool(options)` guarded by `action`. The sandbox door reuses it for the SDK's own
 * apply_patch tool of a filesystem capability (`who` names the door in refusals).
 */
export function makeApplyPatchTool(
  internals: ControlInternals,
  policy: CompiledPolicy,
  action: string,
  options: ProtectApplyPatchToolOptions,
  who = 'protectApplyPatchTool',
): ApplyPatchTool {
  checkOptions(who, action, options, 'applyPatchTool({ editor })');
  const inner = options.editor;
  if (!inner || typeof inner.createFile !== 'function' || typeof inner.updateFile !== 'function' || typeof inner.deleteFile !== 'function') {
    throw new CtrlrunError(`${who}('${action}'): \`editor\` must be an Editor (createFile, updateFile, deleteFile).`);
  }
  const core = createActionCore(internals, policy, action, { door: { kind: 'apply_patch' } });
  const gate = localGate(internals, core, who, () => made.name);
  const guarded = (op: ApplyPatchOperation, body: () => EditorResult) => async (): EditorResult => {
    const out = await gate.run(op, presentPatchOperation(op), body);
    return out instanceof Refused ? { status: 'failed', output: out.refused } : out;
  };
  const editor: Editor = {
    createFile: (op, ctx) => guarded(op, () => inner.createFile(op, ctx))(),
    updateFile: (op, ctx) => guarded(op, () => inner.updateFile(op, ctx))(),
    deleteFile: (op, ctx) => guarded(op, () => inner.deleteFile(op, ctx))(),
  };
  const made = sdkFactory('applyPatchTool')({
    ...(options as object),
    editor,
    needsApproval: (runContext: RunContext, operation: ApplyPatchOperation, callId?: string) =>
      gate.needsApproval(runContext as RunContext<unknown>, operation, presentPatchOperation(operation), callId),
  } as Parameters<typeof applyPatchTool>[0]);
  return mark(made, action, (raw) => presentPatchOperation((raw as { operation?: ApplyPatchOperation }).operation));
}

// --- computer -----------------------------------------------------------------------------------

type ComputerAction = { type?: unknown; [field: string]: unknown };

/** The actions of a `computer_call` item: its batch (`actions`), or its one `action` (the SDK's reading). */
export function computerActionsOf(rawItem: unknown): ComputerAction[] {
  const item = (rawItem ?? {}) as { actions?: unknown; action?: unknown };
  if (Array.isArray(item.actions) && item.actions.length > 0) return item.actions as ComputerAction[];
  return item.action && typeof item.action === 'object' ? [item.action as ComputerAction] : [];
}

/**
 * What the policy sees of one computer call (a batch of actions, run as one):
 * `{ action, actions, text?, keys? }`: `action` the action types in order joined by "\n" (one
 * action: its type, e.g. `click`); `actions` the actions as the model sent them (snake_case:
 * `{ type: 'click', x, y, button }`); `text` what the `type` actions type, joined by "\n";
 * `keys` each `keypress`'s keys joined by "+", one line per keypress.
 */
export function presentComputerCall(actions: readonly unknown[]): Record<string, unknown> {
  const list = actions.map((a) => (a && typeof a === 'object' ? (JSON.parse(JSON.stringify(a)) as ComputerAction) : { type: String(a) }));
  const out: Record<string, unknown> = { action: list.map((a) => String(a.type ?? '')).join('\n'), actions: list };
  const typed = list.filter((a) => a.type === 'type').map((a) => String(a.text ?? ''));
  if (typed.length > 0) out.text = typed.join('\n');
  const keys = list.filter((a) => a.type === 'keypress').map((a) => (Array.isArray(a.keys) ? a.keys.map(String).join('+') : ''));
  if (keys.length > 0) out.keys = keys.join('\n');
  return out;
}

/** The Computer methods the SDK calls for each action type (in `toolExecution`); `screenshot` actions call none. */
const METHOD_OF: Record<string, keyof Computer | undefined> = {
  click: 'click',
  double_click: 'doubleClick',
  drag: 'drag',
  keypress: 'keypress',
  move: 'move',
  scroll: 'scroll',
  type: 'type',
  wait: 'wait',
  screenshot: undefined,
};

/** Runs one action on the user's computer, as the SDK would. */
async function dispatch(computer: Computer, a: ComputerAction, runContext: RunContext<unknown>): Promise<void> {
  const n = (v: unknown) => Number(v);
  switch (a.type) {
    case 'click':
      return computer.click(n(a.x), n(a.y), a.button as Parameters<Computer['click']>[2], runContext);
    case 'double_click':
      return computer.doubleClick(n(a.x), n(a.y), runContext);
    case 'drag':
      return computer.drag(
        (Array.isArray(a.path) ? a.path : []).map((p: { x?: unknown; y?: unknown }) => [n(p.x), n(p.y)] as [number, number]),
        runContext,
      );
    case 'keypress':
      return computer.keypress(Array.isArray(a.keys) ? a.keys.map(String) : [], runContext);
    case 'move':
      return computer.move(n(a.x), n(a.y), runContext);
    case 'scroll':
      return computer.scroll(n(a.x), n(a.y), n(a.scroll_x), n(a.scroll_y), runContext);
    case 'type':
      return computer.type(String(a.text ?? ''), runContext);
    case 'wait':
      return computer.wait(runContext);
    default:
      return undefined;
  }
}

function isComputer(candidate: unknown): candidate is Computer {
  const c = candidate as Record<string, unknown> | null;
  return (
    !!c &&
    typeof c === 'object' &&
    ['screenshot', 'click', 'doubleClick', 'drag', 'keypress', 'move', 'scroll', 'type', 'wait'].every((m) => typeof c[m] === 'function')
  );
}

/**
 * One computer call being decided or run on one run context. The SDK asks `needsApproval` once per
 * action of the batch, all in the same tick, then (if it may run) calls the computer's methods in
 * order, then `screenshot()`, with the run context but no call id. So the actions asked in one tick
 * form the call the policy decides; the first method call runs the whole decided batch once (and
 * takes the screenshot) through the core; the SDK's remaining calls for that batch are answered
 * from it.
 */
interface Round {
  callId: string;
  actions: ComputerAction[];
  /** The methods the SDK will call for this batch, in order (the last is `screenshot`). */
  expected: string[];
  next: number;
  ran?: Promise<string>;
}

const MAX_PENDING_REFUSALS = 1000;

function makeComputerTool(internals: ControlInternals, policy: CompiledPolicy, action: string, options: ProtectComputerToolOptions): ComputerTool {
  const who = 'protectComputerTool';
  checkOptions(who, action, options, 'computerTool({ computer })');
  const config = computerConfigOf(who, action, options);
  const core = createActionCore(internals, policy, action, { door: { kind: 'computer' } });
  /** Refused calls paused for the control to reject with this text (the model reads it as the SDK's rejection). */
  const refusals = new Map<string, string>();
  const gate = localGate(
    internals,
    core,
    who,
    () => made.name,
    (callId, text) => {
      refusals.delete(callId);
      refusals.set(callId, text);
      if (refusals.size > MAX_PENDING_REFUSALS) refusals.delete(refusals.keys().next().value as string);
    },
  );
  /** Per run context: the round still collecting actions (this tick), and the decided round the SDK runs next. */
  const collecting = new WeakMap<object, Map<string, Round>>();
  const current = new WeakMap<object, Round>();
  const decisions = new WeakMap<Round, Promise<boolean>>();
  const wrappers = new WeakMap<object, Computer>();
  const innerOf = new WeakMap<object, Computer>();

  const decide = async (runContext: RunContext<unknown>, round: Round): Promise<boolean> => {
    current.delete(runContext);
    const pause = await gate.needsApproval(runContext, round, presentComputerCall(round.actions), round.callId);
    if (!pause) current.set(runContext, round);
    return pause;
  };

  const needsApproval = (runContext: RunContext, computerAction: unknown, callId?: string): Promise<boolean> => {
    if (typeof callId !== 'string' || callId === '') {
      return Promise.reject(
        new CtrlrunError(`${who}('${action}'): the SDK asked about a computer action without a call id; no decision can be bound to it.`, { action }),
      );
    }
    let perRun = collecting.get(runContext);
    if (!perRun) {
      perRun = new Map();
      collecting.set(runContext, perRun);
    }
    let round = perRun.get(callId);
    let decided: Promise<boolean> | undefined;
    if (!round) {
      const fresh: Round = { callId, actions: [], expected: [], next: 0 };
      round = fresh;
      perRun.set(callId, fresh);
      const rounds = perRun;
      // decided after this tick: every action of the batch has been asked by then
      decided = Promise.resolve().then(() => {
        rounds.delete(callId);
        fresh.expected = [...fresh.actions.map((a) => METHOD_OF[String(a.type)]).filter((m): m is keyof Computer => m !== undefined), 'screenshot'];
        return decide(runContext as RunContext<unknown>, fresh);
      });
      decisions.set(fresh, decided);
    }
    round.actions.push((computerAction ?? {}) as ComputerAction);
    return decided ?? (decisions.get(round) as Promise<boolean>);
  };

  const step = computerStep(gate, current, who, action);

  const guard = (inner: Computer): Computer => {
    if (!isComputer(inner)) throw new CtrlrunError(`${who}('${action}'): the computer's initializer did not return a Computer.`, { action });
    const known = wrappers.get(inner);
    if (known) return known;
    const guarded = guardedComputer(inner, step);
    wrappers.set(inner, guarded);
    innerOf.set(guarded, inner);
    return guarded;
  };

  const made = sdkFactory('computerTool')({
    ...(options as object),
    computer: guardedComputerOption(config, guard, innerOf),
    needsApproval,
  } as unknown as Parameters<typeof computerTool>[0]) as ComputerTool;
  return mark(made, action, (raw) => presentComputerCall(computerActionsOf(raw)), { refusalOf: (callId) => refusals.get(callId) });
}

/** One SDK call of a computer method: the first of a decided batch runs it; returns the screenshot for `screenshot`. */
function computerStep(gate: ReturnType<typeof localGate>, current: WeakMap<object, Round>, who: string, action: string) {
  return async (inner: Computer, method: string, runContext: RunContext<unknown> | undefined): Promise<string | undefined> => {
    const round = runContext ? current.get(runContext) : undefined;
    if (!round || round.expected[round.next] !== method) {
      // no decision of the control reached this call (an approval held only by the SDK): nothing runs
      const out = await gate.run({}, { action: method }, async () => undefined);
      throw new CtrlrunError(out instanceof Refused ? out.refused : refusal(action, `${who}: no decision of the control reached this computer call`), {
        action,
      });
    }
    round.next++;
    if (round.next >= round.expected.length && runContext) current.delete(runContext);
    if (!round.ran) {
      const ctx = runContext as RunContext<unknown>;
      round.ran = (async () => {
        const out = await gate.run(round, presentComputerCall(round.actions), async () => {
          for (const a of round.actions) await dispatch(inner, a, ctx);
          return inner.screenshot(ctx);
        });
        if (out instanceof Refused) throw new CtrlrunError(out.refused, { action, callId: round.callId });
        return out;
      })();
      round.ran.catch(() => {
        if (runContext && current.get(runContext) === round) current.delete(runContext);
      });
    }
    const shot = await round.ran;
    return method === 'screenshot' ? shot : undefined;
  };
}

/** The `computer` option, checked: a Computer, a function that creates one, or a `{ create, dispose? }` provider. */
function computerConfigOf(who: string, action: string, options: ProtectComputerToolOptions): unknown {
  const config = (options as { computer?: unknown }).computer;
  const provider = config && typeof config === 'object' && !isComputer(config) && typeof (config as { create?: unknown }).create === 'function';
  if (!isComputer(config) && typeof config !== 'function' && !provider) {
    throw new CtrlrunError(
      `${who}('${action}'): \`computer\` must be a Computer, a function that creates one, or { create, dispose? }, as for computerTool().`,
    );
  }
  return config;
}

type ComputerInit = (args: { runContext: RunContext<unknown> }) => Computer | Promise<Computer>;
type ComputerDispose = (args: { runContext: RunContext<unknown>; computer: Computer }) => void | Promise<void>;

/** The `computer` option the SDK gets, in the shape the user gave: every Computer it yields is the guarded one; `dispose` gets the user's own. */
function guardedComputerOption(config: unknown, guard: (inner: Computer) => Computer, innerOf: WeakMap<object, Computer>): unknown {
  if (isComputer(config)) return guard(config);
  if (typeof config === 'function') return async (args: { runContext: RunContext<unknown> }) => guard(await (config as ComputerInit)(args));
  const p = config as { create: ComputerInit; dispose?: ComputerDispose };
  return {
    create: async (args: { runContext: RunContext<unknown> }) => guard(await p.create(args)),
    ...(typeof p.dispose === 'function'
      ? {
          dispose: (args: { runContext: RunContext<unknown>; computer: Computer }) =>
            p.dispose?.({ ...args, computer: innerOf.get(args.computer) ?? args.computer }),
        }
      : {}),
  };
}

/** A Computer whose every method goes through `step` (which runs the decided batch once), its environment and dimensions the inner one's. */
function guardedComputer(
  inner: Computer,
  step: (inner: Computer, method: string, runContext: RunContext<unknown> | undefined) => Promise<string | undefined>,
): Computer {
  const rc = (v: unknown) => v as RunContext<unknown> | undefined;
  return {
    get environment() {
      return inner.environment;
    },
    get dimensions() {
      return inner.dimensions;
    },
    ...(typeof inner.initRun === 'function' ? { initRun: (runContext?: RunContext) => inner.initRun?.(runContext) } : {}),
    screenshot: async (runContext?: RunContext) => (await step(inner, 'screenshot', rc(runContext))) as string,
    click: async (_x: number, _y: number, _b: unknown, runContext?: RunContext) => void (await step(inner, 'click', rc(runContext))),
    doubleClick: async (_x: number, _y: number, runContext?: RunContext) => void (await step(inner, 'doubleClick', rc(runContext))),
    drag: async (_p: unknown, runContext?: RunContext) => void (await step(inner, 'drag', rc(runContext))),
    keypress: async (_k: unknown, runContext?: RunContext) => void (await step(inner, 'keypress', rc(runContext))),
    move: async (_x: number, _y: number, runContext?: RunContext) => void (await step(inner, 'move', rc(runContext))),
    scroll: async (_x: number, _y: number, _sx: number, _sy: number, runContext?: RunContext) => void (await step(inner, 'scroll', rc(runContext))),
    type: async (_t: string, runContext?: RunContext) => void (await step(inner, 'type', rc(runContext))),
    wait: async (runContext?: RunContext) => void (await step(inner, 'wait', rc(runContext))),
  } as unknown as Computer;
}

/** The computer calls of `state` this library refused and paused for the refusal to reach the model: rejected in the state with it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function rejectRefusedComputerCalls(state: { getInterruptions(): any[]; reject(item: any, options?: { message?: string }): unknown }): number {
  let rejected = 0;
  if (typeof state?.getInterruptions !== 'function') return 0;
  for (const item of state.getInterruptions()) {
    const raw = (item as { rawItem?: { type?: unknown; callId?: unknown } }).rawItem;
    if (raw?.type !== 'computer_call' || typeof raw.callId !== 'string') continue;
    const text = computerMarkOf(item)?.refusalOf?.(raw.callId);
    if (text === undefined) continue;
    state.reject(item, { message: text });
    rejected++;
  }
  return rejected;
}

/** The mark of the computer tool the SDK runs for an interruption's agent (its first computer tool). */
export function computerMarkOf(item: { agent?: unknown }): LocalMark | undefined {
  const tools: unknown = (item.agent as { tools?: unknown } | undefined)?.tools;
  if (!Array.isArray(tools)) return undefined;
  const tool = tools.find((t) => t && typeof t === 'object' && (t as { type?: string }).type === 'computer') as { [LOCAL_ACTION]?: LocalMark } | undefined;
  return tool?.[LOCAL_ACTION];
}
