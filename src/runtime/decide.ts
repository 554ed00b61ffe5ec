import type { ArgumentsCheck } from './arguments.js';
import type { CallDecision, CompiledAction, DecisionResult, TemplateResult } from './types.js';

/**
 * A call whose arguments were checked (`checkArguments`/`parseArguments`), decided in CTRLRun
 * 0.12.2's order: CTRLRun resolves the action's resource from the call's named arguments BEFORE it
 * builds the action (where a float or a lone surrogate anywhere is refused), so refused arguments
 * whose resource does not resolve are `resource_template`, the others `invalid_argument`. Arguments
 * that are no JSON object at all (not JSON, a duplicate key, too deep, an array) name nothing and
 * are `invalid_argument`. Checked arguments go on to `decideCall`.
 */
export function decideArguments(action: CompiledAction | undefined, checked: ArgumentsCheck): CallDecision {
  if (checked.ok) return decideCall(action, checked.value);
  if (action?.resource && checked.named !== undefined) {
    const r = template(action.resource, checked.named, null);
    if (!r.ok) return unresolvedResource(r.arg);
  }
  return invalidArguments(checked.detail);
}

/**
 * One call, decided in CTRLRun 0.12.2's order. The arguments were checked first
 * (`decideArguments`: a refusal there is `resource_template` or `invalid_argument` before this runs).
 *
 * 1. an action the policy does not list: deny, `unknown_action` (no template applies);
 * 2. the `resource` template, against the arguments: unresolved is `resource_template` (CTRLRun
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
    const r = template(action.resource, args, null);
    if (!r.ok) return unresolvedResource(r.arg);
    resource = r.value;
  }
  let effectKey: string | null = null;
  if (action.effect) {
    const e = template(action.effect, args, resource);
    if (!e.ok) {
      const why =
        e.arg === 'resource'
          ? 'the effect template\'s {resource} needs a resolved resource (and no argument named "resource")'
          : `the effect template needs argument "${e.arg}" to be a non-empty string or an integer`;
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

function unresolvedResource(arg: string): CallDecision {
  return refused('resource_template', `the resource template needs argument "${arg}" to be a non-empty string or an integer`);
}

function refused(reason: 'invalid_argument' | 'resource_template' | 'effect_key_error', detail: string): CallDecision {
  return { decision: 'deny', rule: null, reason, effectKey: null, resource: null, detail };
}

/**
 * A template's answer, a throw read as unresolved. Called with its arguments, not as a closure: one
 * capturing the action and the arguments gave every decision a context to allocate, templates or not.
 */
function template(of: (args: unknown, resource: string | null) => TemplateResult, args: unknown, resource: string | null): TemplateResult {
  try {
    return of(args, resource);
  } catch {
    return { ok: false, arg: '?' };
  }
}

/** A refusal before the call exists (no resource, refused arguments, an unlisted action): no authority applies. */
export function builtNoCall(reason: string): boolean {
  return reason === 'invalid_argument' || reason === 'resource_template' || reason === 'unknown_action';
}

/** What a refusal before the rules looks like (the arguments themselves were refused). */
export function invalidArguments(detail: string): CallDecision {
  return refused('invalid_argument', detail);
}
