import type { RunContext } from '@openai/agents';
import type { ArgumentsCheck } from '../arguments.js';
import { isThenable, taskOf, whoNow, type ControlInternals, type Maybe, type Who } from '../internals.js';
import type { PolicyArgs } from './arguments.js';
import type { DecidedCall } from './types.js';

/** What the guardrail found for a call it let through: who it acts for, and its arguments' parse (pure functions of the text). */
export interface Vetted {
  context: RunContext<unknown>;
  raw: string;
  who: Who;
  task: string | null;
  /** The call's arguments from `raw` (`callArguments`: as the body gets them), and `policyArgs` of it: the same text gives the same values. */
  checked: ArgumentsCheck;
  fromRaw: PolicyArgs;
  /**
   * The guardrail's decision on `checked`, handed on only where deciding again gives the same one:
   * a policy without grants, whose decision is a pure function of the arguments (no principal, task
   * or clock read). Undefined with grants: the body decides again, at its own time (a grant may
   * have expired since).
   */
  decided: DecidedCall | undefined;
}

/** The principal stage's answer: who the call acts for (null: nobody), its task, and the guardrail's parse when it may be reused. */
export interface Principal {
  who: Who | null;
  task: string | null;
  checked?: ArgumentsCheck;
  fromRaw?: PolicyArgs;
  decided?: DecidedCall | undefined;
}

/**
 * Stage 3, the authority's principal: who the run acts for, from `identity(runContext)` (never
 * from the model), and the run's task for grants that name tasks.
 *
 * The principal the guardrail found for a call it let through is kept for the execute wrapper of
 * that same call (same tool-call object, context and arguments; taken once): `identity` may be
 * costly, and the SDK runs the two back to back. The wrapper decides again where a grant could
 * answer otherwise by then, and takes the guardrail's decision where none can; without an entry
 * (no guardrail ran, or the SDK passed another object) it asks `identity` itself.
 */
export function principalStage(internals: ControlInternals, hasAuthority: boolean) {
  const vetted = vettedCalls();
  /** The last answer without a task (frozen: the calls it answers share it). */
  let untasked: { readonly who: Who | null; readonly task: null } = Object.freeze({ who: null, task: null });

  /**
   * Who the run acts for, and its task (only asked when the policy has grants): the answer itself
   * when `identity` answers synchronously and no task is asked, so the call waits no turn for it.
   */
  const resolve = (runContext: RunContext<unknown>): Maybe<{ who: Who | null; task: string | null }> => {
    const who = whoNow(internals, runContext);
    if (isThenable(who)) return whoWithTask(who, runContext);
    if (who && hasAuthority) return withTask(runContext, who);
    // no task asked: the answer for this principal (a string identity's is one object, internals.ts) kept for the next call
    if (untasked.who !== who) untasked = Object.freeze({ who, task: null });
    return untasked;
  };

  // (its closure here, not in resolve: there it gave every call a context)
  const whoWithTask = (who: Promise<Who | null>, runContext: RunContext<unknown>) => who.then((w) => withTask(runContext, w));

  const withTask = async (runContext: RunContext<unknown>, who: Who | null) => ({
    who,
    task: who && hasAuthority ? await taskOf(internals, runContext) : null,
  });

  /** The principal for the body of this call: the guardrail's, taken once, when it is the same call; else resolved again. */
  const forBody = (runContext: RunContext<unknown>, toolCall: { arguments?: string } | undefined): Maybe<Principal> => {
    const entry = toolCall ? vetted.take(toolCall) : undefined;
    if (entry && entry.context === runContext && entry.raw === toolCall?.arguments) return entry;
    return resolve(runContext);
  };

  return {
    resolve,
    forBody,
    /** Only this check's own answer may reach the body: an earlier one is dropped when the guardrail starts. */
    forget: (toolCall: object) => vetted.take(toolCall),
    remember: (toolCall: object, entry: Vetted) => vetted.put(toolCall, entry),
  };
}

/** The most calls let through whose body has not yet taken its entry (the SDK runs a turn's calls' guardrails before their bodies). */
const KEPT_CALLS = 16;

/**
 * The guardrail's entries by tool-call object (its identity is the guarantee that an entry is this
 * call's), taken once. Two short arrays scanned by identity, not a `WeakMap`: an entry lives from
 * a call's guardrail to its body, and a weak table's insert and delete cost more than the whole scan
 * (and the collector's ephemeron work). At most KEPT_CALLS entries: a call let through whose body
 * never ran (a later guardrail refused it) is dropped, oldest first, and a body that finds no
 * entry resolves its principal and arguments again (the same answer, one turn later).
 */
function vettedCalls() {
  const calls: object[] = [];
  const entries: Vetted[] = [];
  const take = (call: object): Vetted | undefined => {
    const at = calls.indexOf(call);
    if (at < 0) return undefined;
    const entry = entries[at];
    // (moved down in place, no array of the removed made: most often the last one goes)
    for (let i = at + 1; i < calls.length; i++) {
      calls[i - 1] = calls[i] as object;
      entries[i - 1] = entries[i] as Vetted;
    }
    calls.pop();
    entries.pop();
    return entry;
  };
  const put = (call: object, entry: Vetted): void => {
    take(call);
    if (calls.length >= KEPT_CALLS) {
      calls.shift();
      entries.shift();
    }
    calls.push(call);
    entries.push(entry);
  };
  return { take, put };
}

export type PrincipalStage = ReturnType<typeof principalStage>;
