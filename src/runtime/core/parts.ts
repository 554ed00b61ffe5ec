import type { CompiledAction, Decision, DecisionResult } from '../types.js';

/**
 * A call of several parts: a shell call's commands, a function-form patch's operations. CTRLRun
 * decides one action on one set of arguments; a door whose one call does several things asks the
 * action's rules about each part on its own, so a rule about one command or one path cannot be
 * passed by adding a harmless one next to it. The parts of the presented arguments, or undefined
 * when the call is one part (then the arguments are decided as they are).
 */
export type PartsOf = (args: unknown) => readonly unknown[] | undefined;

const STRICTNESS: Readonly<Record<Decision, number>> = { allow: 0, approve: 1, deny: 2 };

/** What a compiled decision function that threw answers (`decideCall`'s reading: a denial). */
const THREW: DecisionResult = { decision: 'deny', rule: null, reason: 'no_matching_rule' };

/**
 * The strictest of the parts' decisions: any deny denies, else any approve sends the whole call to
 * a person, else it is allowed. Among equals, the first part's (its rule names the reason). Pure
 * and total, like the compiled function it reads.
 */
export function strictestOf(decide: CompiledAction['decide'], parts: readonly unknown[]): DecisionResult {
  let strictest: DecisionResult | undefined;
  for (const part of parts) {
    let result: DecisionResult;
    try {
      result = decide(part);
    } catch {
      result = THREW;
    }
    if (strictest === undefined || STRICTNESS[result.decision] > STRICTNESS[strictest.decision]) strictest = result;
    if (strictest.decision === 'deny') break;
  }
  return strictest ?? THREW;
}

/**
 * The action as a door of several-part calls decides it: its templates (`effect:`, `resource:`)
 * read the whole call's arguments, its rules each part (`strictestOf`). The action itself when the
 * door has no parts.
 */
export function decidedByParts(action: CompiledAction | undefined, partsOf: PartsOf | undefined): CompiledAction | undefined {
  if (action === undefined || partsOf === undefined) return action;
  const decide = action.decide;
  return {
    ...action,
    decide: (args) => {
      const parts = partsOf(args);
      return parts === undefined ? decide(args) : strictestOf(decide, parts);
    },
  };
}
