import type { RunContext } from '@openai/agents';
import type { ArgumentsCheck } from '../arguments.js';
import { isThenable, taskOf, whoNow, type ControlInternals, type Maybe, type Who } from '../internals.js';
import type { PolicyArgs } from './arguments.js';

/** What the guardrail found for a call it let through: who it acts for, and its arguments' parse (pure functions of the text). */
export interface Vetted {
  context: RunContext<unknown>;
  raw: string;
  who: Who;
  task: string | null;
  /** The call's arguments from `raw` (`callArguments`: as the body gets them), and `policyArgs` of it: the same text gives the same values. */
  checked: ArgumentsCheck;
  fromRaw: PolicyArgs;
}

/** The principal stage's answer: who the call acts for (null: nobody), its task, and the guardrail's parse when it may be reused. */
export interface Principal {
  who: Who | null;
  task: string | null;
  checked?: ArgumentsCheck;
  fromRaw?: PolicyArgs;
}

/**
 * Stage 3, the authority's principal: who the run acts for, from `identity(runContext)` (never
 * from the model), and the run's task for grants that name tasks.
 *
 * The principal the guardrail found for a call it let through is kept for the execute wrapper of
 * that same call (same tool-call object, context and arguments; taken once): `identity` may be
 * costly, and the SDK runs the two back to back. The wrapper still re-decides; without an entry
 * (no guardrail ran, or the SDK passed another object) it asks `identity` itself.
 */
export function principalStage(internals: ControlInternals, hasAuthority: boolean) {
  const vetted = new WeakMap<object, Vetted>();

  /**
   * Who the run acts for, and its task (only asked when the policy has grants): the answer itself
   * when `identity` answers synchronously and no task is asked, so the call waits no turn for it.
   */
  const resolve = (runContext: RunContext<unknown>): Maybe<{ who: Who | null; task: string | null }> => {
    const who = whoNow(internals, runContext);
    if (isThenable(who)) return who.then((w) => withTask(runContext, w));
    return who && hasAuthority ? withTask(runContext, who) : { who, task: null };
  };

  const withTask = async (runContext: RunContext<unknown>, who: Who | null) => ({
    who,
    task: who && hasAuthority ? await taskOf(internals, runContext) : null,
  });

  /** The principal for the body of this call: the guardrail's, taken once, when it is the same call; else resolved again. */
  const forBody = (runContext: RunContext<unknown>, toolCall: { arguments?: string } | undefined): Maybe<Principal> => {
    const entry = toolCall ? vetted.get(toolCall) : undefined;
    if (entry && toolCall) vetted.delete(toolCall);
    if (entry && entry.context === runContext && entry.raw === toolCall?.arguments) return entry;
    return resolve(runContext);
  };

  return {
    resolve,
    forBody,
    /** Only this check's own answer may reach the body: an earlier one is dropped when the guardrail starts. */
    forget: (toolCall: object) => vetted.delete(toolCall),
    remember: (toolCall: object, entry: Vetted) => vetted.set(toolCall, entry),
  };
}

export type PrincipalStage = ReturnType<typeof principalStage>;
