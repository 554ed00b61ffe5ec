import type { CallDecision, CompiledAction, DecisionResult } from './types.js';

/**
 * One call, decided in CTRLRun 0.12.2's order. The arguments were checked first
 * (`checkArguments`/`parseArguments`: a refusal there is `invalid_argument` before this runs).
 *
 * 1. an action the policy does not list: deny, `unknown_action` (no template applies);
 * 2. the `resource` template, against the arguments: unresolved is `invalid_argument` (CTRLRun
 *    builds the action with its resource, so this refuses before anything is decided);
 * 3. the `effect` template, against the arguments and `{resource}` = the resolved resource:
 *    unresolved is `effect_key_error`, a denial whatever the rules would say;
 * 4. the rules (the compiled decision function).
 *
 * Pure and total: a throwing compiled function is a denial, never an exception.
 */
export function decideCall(action: CompiledAction | undefined, args: unknown): CallDecision {
  if (action === undefined) return { decision: 'deny', rule: null, reason: 'unknown_action', effectKey: null, resource: null };
  let resource: string | null = null;
  if (action.resource) {
    const r = safely(() => action.resource!(args));
    if (!r.ok) return refused('invalid_argument', `the resource template needs argument "${r.arg}" to be a non-empty string or an integer`);
    resource = r.value;
  }
  let effectKey: string | null = null;
  if (action.effect) {
    const e = safely(() => action.effect!(args, resource));
    if (!e.ok) {
      const why = e.arg === 'resource' ? 'the effect template\'s {resource} needs a resolved resource (and no argument named "resource")' : `the effect template needs argument "${e.arg}" to be a non-empty string or an integer`;
      return { ...refused('effect_key_error', why), resource };
    }
    effectKey = e.value;
  }
  let result: DecisionResult;
  try {
    result = action.decide(args);
  } catch {
    result = { decision: 'deny', rule: null, reason: 'no_matching_rule' };
  }
  return { decision: result.decision, rule: result.rule, reason: result.reason, effectKey, resource };
}

function refused(reason: 'invalid_argument' | 'effect_key_error', detail: string): CallDecision {
  return { decision: 'deny', rule: null, reason, effectKey: null, resource: null, detail };
}

function safely<T extends { ok: boolean }>(f: () => T): T | { ok: false; arg: string } {
  try {
    return f();
  } catch {
    return { ok: false, arg: '?' };
  }
}

/** What a refusal before the rules looks like (the arguments themselves were refused). */
export function invalidArguments(detail: string): CallDecision {
  return refused('invalid_argument', detail);
}
