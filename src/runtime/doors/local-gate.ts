import type { RunContext } from '@openai/agents';
import { isHardHalt } from '../core/halt.js';
import { refusal, rejectionText } from '../core/messages.js';
import type { ActionCore } from '../core/action-core.js';
import type { Authorization } from '../core/types.js';
import { decideCall } from '../decide.js';
import { ActionDenied, CtrlrunError } from '../errors.js';
import { argsHashOf, type ControlInternals } from '../internals.js';
import { noteNestedFailure } from '../nested.js';

/**
 * The gate of the doors whose body the SDK runs after asking the tool's `needsApproval` (shell,
 * apply_patch, computer, a sandbox's patch tool): the call is decided in `needsApproval` (where the
 * call id and the run context are), its authorization kept under a key both hooks share, and the
 * body runs only with it. A call the SDK approves on its own (a bare `state.approve`,
 * `alwaysApprove`) never asks `needsApproval`, so its body finds no authorization and is refused.
 * A person's yes stays in the store: on resume the SDK asks `needsApproval` again, which claims it.
 */

/** A refusal for the model to read (the body did not run). */
export class Refused {
  constructor(readonly refused: string) {}
}

type Entry = Authorization | Refused;

export type LocalGate = ReturnType<typeof localGate>;

/** `toolName`: the SDK tool's name (asked when a call pauses, to file its request under it). */
export function localGate(
  internals: ControlInternals,
  core: ActionCore,
  who: string,
  toolName: () => string,
  pauseRefusal?: (callId: string, text: string) => void,
) {
  const { action } = core;
  /** The authorization of each call, keyed by the object the SDK passes to both hooks. */
  const decided = new WeakMap<object, Entry>();
  /** A refusal: for the body to report (shell, apply_patch), or, for a door whose body has no text to report it with (computer), a pause the control rejects with the text. */
  const refuse = (key: object, callId: string | undefined, text: string): boolean => {
    if (pauseRefusal && callId) {
      pauseRefusal(callId, text);
      return true;
    }
    decided.set(key, new Refused(text));
    return false;
  };

  const needsApproval = async (runContext: RunContext<unknown>, key: object, args: unknown, callId: string | undefined): Promise<boolean> => {
    decided.delete(key);
    // a call the policy pauses is filed in the store here (with its call id), whoever drives the run
    if (await core.needsApproval(runContext, args, callId, { toolName: toolName() })) {
      const request = callId ? await internals.store.getRequest(callId) : null;
      if (!request || request.state === 'pending') return true; // the SDK pauses (unfiled only when it cannot be bound: control.request files it)
      if (request.state === 'rejected') return refuse(key, callId, rejectionText(action, request));
      // approved or consumed: the claim below decides (a consumed one throws ApprovalMismatch)
    }
    try {
      decided.set(key, await core.authorize(args, runContext, callId ?? null, undefined));
    } catch (error) {
      // a refusal is the model's to read and the run goes on; every other error of this library stops the run
      // (a hard halt ends the run)
      if (error instanceof ActionDenied && !isHardHalt(error))
        return refuse(key, callId, `${error.message} It must not be retried; tell the user it was refused.`);
      if (error instanceof CtrlrunError) {
        noteNestedFailure(runContext, error);
        throw error;
      }
      const failed = new CtrlrunError(`ctrlrun: ${action} did not run: the control failed before the body (${String((error as Error)?.message ?? error)}).`, {
        action,
        callId: callId ?? null,
        cause: error,
      });
      noteNestedFailure(runContext, failed);
      throw failed;
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
        refusal(
          action,
          `${who}: no decision of the control reached this call; an approval held only by the SDK state (state.approve, alwaysApprove) authorizes nothing`,
        ),
      );
    }
    if (entry instanceof Refused) return entry;
    if (entry.kind === 'observe') return (await core.observe(entry.facts, args, body)) as R;
    return (await core.runBody(entry, body)) as R;
  };

  return { needsApproval, run };
}
