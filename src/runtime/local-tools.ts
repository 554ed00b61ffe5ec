// a namespace import: SDKs before shell and apply_patch tools still load the runtime (linking fails on a missing named export)
import * as sdk from '@openai/agents';
import {
  type applyPatchTool,
  type shellTool,
  type ApplyPatchOperation,
  type ApplyPatchResult,
  type ApplyPatchTool,
  type Editor,
  type RunContext,
  type Shell,
  type ShellAction,
  type ShellResult,
  type ShellTool,
} from '@openai/agents';
import { refusal, type Control } from './control.js';
import { decideCall } from './decide.js';
import { ActionDenied, CtrlrunError } from './errors.js';
import { argsHashOf, type ControlInternals } from './internals.js';
import { bindPolicy, createActionCore, type ActionCore, type Authorization } from './protected-tool.js';
import type { CompiledPolicy } from './types.js';
import { noteNestedFailure } from './nested.js';

function noteAndReturn(runContext: unknown, error: CtrlrunError): CtrlrunError {
  noteNestedFailure(runContext, error);
  return error;
}

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
 * - apply_patch: `{ operation, path, diff? , move_to? }` (`operation` is `create_file`,
 *   `update_file` or `delete_file`).
 */
export interface LocalDoors<A extends string = string> {
  /** `shellTool(options)` guarded by the policy's `action` (a local shell; hosted shells run at OpenAI). */
  protectShellTool: (action: A, options: ProtectShellToolOptions) => ShellTool;
  /** `applyPatchTool(options)` guarded by the policy's `action`. */
  protectApplyPatchTool: (action: A, options: ProtectApplyPatchToolOptions) => ApplyPatchTool;
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

/** On a tool made here: its action and how a raw call item of it is presented to the policy. */
export const LOCAL_ACTION: unique symbol = Symbol.for('ctrlrun.localTool.action');

export interface LocalMark {
  action: string;
  /** The policy's view of a raw `shell_call` / `apply_patch_call` item of this tool. */
  present: (rawItem: unknown) => unknown;
}

export function bindLocalTools<A extends string = string>(control: Control, policy: CompiledPolicy): LocalDoors<A> {
  const internals = bindPolicy(control, policy, 'bindLocalTools');
  return {
    protectShellTool: (action, options) => makeShellTool(internals, policy, action, options),
    protectApplyPatchTool: (action, options) => makeApplyPatchTool(internals, policy, action, options),
  };
}

// --- presentation to the policy ---------------------------------------------------------------

export function presentShellAction(action: Pick<ShellAction, 'commands'> | undefined): { command: string; commands: string[] } {
  const commands = Array.isArray(action?.commands) ? action.commands.map((c) => String(c)) : [];
  return { command: commands.join('\n'), commands };
}

export function presentPatchOperation(operation: ApplyPatchOperation | undefined): Record<string, string> {
  const op = (operation ?? {}) as { type?: unknown; path?: unknown; diff?: unknown; moveTo?: unknown };
  const out: Record<string, string> = { operation: String(op.type ?? ''), path: String(op.path ?? '') };
  if (typeof op.diff === 'string') out.diff = op.diff;
  if (typeof op.moveTo === 'string') out.move_to = op.moveTo;
  return out;
}

// --- the gate shared by the two adapters ---------------------------------------------------

/** A refusal for the model to read (the body did not run). */
class Refused {
  constructor(readonly refused: string) {}
}

type Entry = Authorization | Refused;

function localGate(internals: ControlInternals, core: ActionCore, who: string) {
  const { action } = core;
  /** The authorization of each call, keyed by the action object the SDK passes to both hooks. */
  const decided = new WeakMap<object, Entry>();

  const needsApproval = async (runContext: RunContext<unknown>, key: object, args: unknown, callId: string | undefined): Promise<boolean> => {
    decided.delete(key);
    if (await core.needsApproval(runContext, args)) {
      const request = callId ? await internals.store.getRequest(callId) : null;
      if (!request || request.state === 'pending') return true; // the SDK pauses; control.request records it
      if (request.state === 'rejected') {
        const no = request.answers.find((a) => a.decision === 'reject');
        decided.set(key, new Refused(refusal(action, no ? `rejected by ${no.approver}${no.reason ? `: ${no.reason}` : ''}` : 'rejected')));
        return false;
      }
      // approved or consumed: the claim below decides (a consumed one throws ApprovalMismatch)
    }
    try {
      decided.set(key, await core.authorize(args, runContext, callId ?? null, undefined));
    } catch (error) {
      // a refusal is the model's to read and the run goes on; every other error of this library stops the run
      if (error instanceof ActionDenied) {
        decided.set(key, new Refused(`${error.message} It must not be retried; tell the user it was refused.`));
        return false;
      }
      if (error instanceof CtrlrunError) {
        noteNestedFailure(runContext, error);
        throw error;
      }
      throw noteAndReturn(runContext, new CtrlrunError(`ctrlrun: ${action} did not run: the control failed before the body (${String((error as Error)?.message ?? error)}).`, {
        action,
        callId: callId ?? null,
        cause: error,
      }));
    }
    return false;
  };

  /** The body, only with this call's authorization. Returns the body's result, or the refusal text. */
  const run = async <R>(key: object, args: unknown, body: () => Promise<R>): Promise<R | Refused> => {
    const entry = decided.get(key);
    decided.delete(key);
    if (entry === undefined) {
      const facts = { callId: null, argsHash: argsHashOf(undefined, args), principal: null, decision: decideCall(core.compiled, args) };
      await core.receipt(facts, { result: 'refused', reason: 'approval_unrecorded' });
      return new Refused(
        refusal(action, `${who}: no decision of the control reached this call; an approval held only by the SDK state (state.approve, alwaysApprove) authorizes nothing`),
      );
    }
    if (entry instanceof Refused) return entry;
    if (entry.kind === 'observe') return (await core.observe(entry.facts, args, body)) as R;
    return (await core.runBody(entry, body)) as R;
  };

  return { needsApproval, run };
}

/** The SDK's factory, or a clear error on an SDK that has none (shell and apply_patch tools are recent). */
function sdkFactory<K extends 'shellTool' | 'applyPatchTool'>(name: K): (typeof sdk)[K] {
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

function mark<T extends object>(tool: T, action: string, present: LocalMark['present']): T {
  Object.defineProperty(tool, LOCAL_ACTION, { value: { action, present } satisfies LocalMark, enumerable: false });
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
    throw new CtrlrunError(`${who}('${action}'): a hosted shell (environment.type '${String(environment.type)}') runs at OpenAI and takes no approval; this door guards a local shell.`);
  }
  const core = createActionCore(internals, policy, action, {});
  const gate = localGate(internals, core, who);
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
  return mark(made, action, (raw) => presentShellAction((raw as { action?: ShellAction }).action));
}

// --- apply_patch ----------------------------------------------------------------------------

function makeApplyPatchTool(internals: ControlInternals, policy: CompiledPolicy, action: string, options: ProtectApplyPatchToolOptions): ApplyPatchTool {
  const who = 'protectApplyPatchTool';
  checkOptions(who, action, options, 'applyPatchTool({ editor })');
  const inner = options.editor;
  if (!inner || typeof inner.createFile !== 'function' || typeof inner.updateFile !== 'function' || typeof inner.deleteFile !== 'function') {
    throw new CtrlrunError(`${who}('${action}'): \`editor\` must be an Editor (createFile, updateFile, deleteFile).`);
  }
  const core = createActionCore(internals, policy, action, {});
  const gate = localGate(internals, core, who);
  const guarded = (op: ApplyPatchOperation, body: () => Promise<ApplyPatchResult | void>) => async (): Promise<ApplyPatchResult | void> => {
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
