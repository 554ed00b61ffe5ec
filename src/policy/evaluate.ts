import { checkArguments, parseArguments, type ArgumentsCheck } from '../runtime/arguments.js';
import type { CallDecision } from '../runtime/types.js';
import { holds, isInteger, jsonEqual } from '../runtime/conditions.js';
import type { Condition, Operand, Operator, Policy, PolicyAction, SourceLocation, Template } from './types.js';

// one meaning of every operator, shared with the approval grants' bounds (runtime/conditions.ts)
export { holds, isInteger, jsonEqual };

export interface ConditionTrace {
  ruleIndex: number;
  key: string;
  arg: string;
  op: Operator;
  expected: Operand;
  /** The argument's value (undefined when missing). */
  actual: unknown;
  held: boolean;
}

export interface Explanation extends CallDecision {
  action: string;
  /** Every `when` entry evaluated, rule by rule, up to and including the matching rule. */
  conditions: ConditionTrace[];
  /** Source location of the matching rule, when one matched. */
  ruleLoc?: SourceLocation;
}

/**
 * The reference semantics (CTRLRun 0.12.2's, SPEC §2); the generated code is tested against it.
 *
 * In order: the `resource` template resolves from the named arguments (else `resource_template`,
 * before their values are checked); the arguments are checked (a JSON object; no float anywhere; no
 * lone surrogate: else `invalid_argument`); an unlisted action is `unknown_action`; the `effect` template resolves, `{resource}` being the resolved
 * resource (else `effect_key_error`, a denial whatever the rules say); then the rules, first match
 * wins (`rule[N]`; `decision` for an action written `decision: X`; no match: deny, `no_matching_rule`).
 *
 * A `when` entry on a missing argument is false, whatever the operator. `eq`/`in` are type-strict
 * and recursive (`1` is not `true`, `"5"` is not `5`); `neq` is the negation of `eq` for a present
 * argument, so it holds across types (`x_neq: 5` holds for `"5"`, `true`, `null`, `[5]`);
 * `lt lte gt gte` hold only for an integer argument (any size). Every entry of an evaluated rule is
 * traced (no short-circuit). Total: never throws.
 */
export function evaluate(policy: Policy, action: string, args: unknown): Explanation {
  return evaluateChecked(policy, action, checkArguments(args));
}

/** `evaluate` on the model's JSON text, parsed losslessly as the runtime parses it. */
export function evaluateJson(policy: Policy, action: string, raw: string): Explanation {
  return evaluateChecked(policy, action, parseArguments(raw));
}

function evaluateChecked(policy: Policy, action: string, checked: ArgumentsCheck): Explanation {
  const base = { action, conditions: [] as ConditionTrace[], effectKey: null, resource: null };
  const found = Object.hasOwn(policy.actions, action) ? policy.actions[action] : undefined;
  const unresolved = (arg: string): Explanation => ({
    ...base,
    decision: 'deny',
    rule: null,
    reason: 'resource_template',
    detail: `the resource template needs argument "${arg}" to be a non-empty string or an integer`,
  });
  if (!checked.ok) {
    // CTRLRun resolves the resource from the named arguments before it checks their values
    const r = found?.resource && checked.named !== undefined ? renderTemplate(found.resource, checked.named, null, false) : null;
    if (r && !r.ok) return unresolved(r.arg);
    return { ...base, decision: 'deny', rule: null, reason: 'invalid_argument', detail: checked.detail };
  }
  const args = checked.value;
  if (found === undefined) return { ...base, decision: 'deny', rule: null, reason: 'unknown_action' };
  let resource: string | null = null;
  if (found.resource) {
    const r = renderTemplate(found.resource, args, null, false);
    if (!r.ok) return unresolved(r.arg);
    resource = r.value;
  }
  let effectKey: string | null = null;
  if (found.effect) {
    const e = renderTemplate(found.effect, args, resource, true);
    if (!e.ok) return { ...base, resource, decision: 'deny', rule: null, reason: 'effect_key_error', detail: `the effect template cannot resolve {${e.arg}}` };
    effectKey = e.value;
  }
  return { ...decideRules(found, args), action, effectKey, resource };
}

function decideRules(found: PolicyAction, args: Record<string, unknown>): Omit<Explanation, 'action' | 'effectKey' | 'resource'> {
  const conditions: ConditionTrace[] = [];
  const scope = dataScope(found.data, args);
  for (const rule of found.rules) {
    let all = true;
    for (const condition of rule.when) {
      const derived = condition.arg === DATA_SCOPE;
      const actual = derived ? scope : Object.hasOwn(args, condition.arg) ? args[condition.arg] : undefined;
      const held = derived ? holdsOnScope(condition, scope) : holds(condition, actual);
      conditions.push({ ruleIndex: rule.index, key: condition.key, arg: condition.arg, op: condition.op, expected: condition.value, actual, held });
      if (!held) all = false;
    }
    if (all)
      return {
        decision: rule.decision,
        rule: found.bare ? null : rule.index,
        reason: found.bare ? 'decision' : `rule[${rule.index}]`,
        conditions,
        ruleLoc: rule.loc,
      };
  }
  return { decision: 'deny', rule: null, reason: 'no_matching_rule', conditions };
}

/**
 * A template against checked arguments: each placeholder must be a non-empty string or an integer.
 * In an effect template `{resource}` is the resolved resource, and an argument named `resource`
 * makes it ambiguous (refused), as in CTRLRun.
 */
export function renderTemplate(
  template: Template,
  args: Record<string, unknown>,
  resource: string | null,
  isEffect: boolean,
): { ok: true; value: string } | { ok: false; arg: string } {
  let out = '';
  for (const part of template.parts) {
    if (part.kind === 'text') {
      out += part.text;
      continue;
    }
    if (isEffect && part.arg === 'resource') {
      if (resource === null || Object.hasOwn(args, 'resource')) return { ok: false, arg: 'resource' };
      out += resource;
      continue;
    }
    const value = Object.hasOwn(args, part.arg) ? args[part.arg] : undefined;
    if (!isPart(value)) return { ok: false, arg: part.arg };
    out += String(value);
  }
  return { ok: true, value: out };
}

/** A value a template placeholder accepts: a non-empty string or an integer (any size). */
export function isPart(value: unknown): value is string | number | bigint {
  return (typeof value === 'string' && value !== '') || Number.isSafeInteger(value) || typeof value === 'bigint';
}

const DATA_SCOPE = 'data_scope';

/**
 * CTRLRun §7.4's `data_scope`: the labels (`data:`) of the arguments the call supplies, each once,
 * sorted by code point (Python's `sorted`). An action without `data:` has the empty scope.
 */
export function dataScope(data: ReadonlyArray<readonly [string, string]> | undefined, args: Record<string, unknown>): string[] {
  if (!data) return [];
  const labels = new Set<string>();
  for (const [name, label] of data) if (Object.hasOwn(args, name)) labels.add(label);
  return [...labels].sort(byCodePoint);
}

function byCodePoint(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0) as number);
  const y = [...b].map((c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  return x.length - y.length;
}

/**
 * A condition on `data_scope` (CTRLRun's grammar): `in` holds when the scope and the list share a
 * label; `eq`/`neq` against a list compare the two as sets (order and repeats aside); against
 * anything else `eq` never holds and `neq` always does; `lt lte gt gte` never hold (a list is not
 * an integer).
 */
export function holdsOnScope(condition: Pick<Condition, 'op' | 'value'>, scope: readonly string[]): boolean {
  const expected = condition.value;
  switch (condition.op) {
    case 'in':
      return Array.isArray(expected) && expected.some((v) => typeof v === 'string' && scope.includes(v));
    case 'eq':
    case 'neq': {
      if (!Array.isArray(expected)) return condition.op === 'neq';
      const same = expected.every((v) => typeof v === 'string' && scope.includes(v)) && scope.every((l) => expected.includes(l));
      return condition.op === 'eq' ? same : !same;
    }
    default:
      return false;
  }
}

/**
 * The policy's decision on an action's arguments, as the operators' surfaces weigh an approver's
 * edit or grant (serve, the CLI); undefined for an action the policy does not list (nobody can say
 * the edit is not a denial there). The run decides again under its own policy.
 */
export function policyDecider(policy: Policy): (action: string, args: Record<string, unknown>) => CallDecision | undefined {
  return (action, args) => (Object.hasOwn(policy.actions, action) ? evaluate(policy, action, args) : undefined);
}
