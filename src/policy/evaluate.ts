import type { DecisionResult } from '../runtime/types.js';
import type { Condition, Operator, Policy, Scalar, SourceLocation } from './types.js';

export interface ConditionTrace {
  ruleIndex: number;
  key: string;
  arg: string;
  op: Operator;
  expected: Scalar | Scalar[];
  /** The argument's value (undefined when missing). */
  actual: unknown;
  held: boolean;
}

export interface Explanation extends DecisionResult {
  action: string;
  /** Every `when` entry evaluated, rule by rule, up to and including the matching rule. */
  conditions: ConditionTrace[];
  /** Source location of the matching rule, when one matched. */
  ruleLoc?: SourceLocation;
}

/**
 * The reference semantics of SPEC §2 (first match wins; no match: deny; unknown action:
 * `unknown_action`). The generated decision functions must agree with it on every input.
 *
 * - `args` that is not a plain object (null, an array, a primitive): every entry is false.
 * - An argument that is missing, a float, NaN, an integer beyond 2^53 or of the wrong type makes
 *   its entry false, whatever the operator (`neq` included).
 * - `eq`, `neq`, `in`: strict equality between scalars of the same type.
 * - `lt`, `lte`, `gt`, `gte`: integers only.
 * - A rule holds when all its entries hold (none: always). Every entry of an evaluated rule is
 *   traced (no short-circuit), so `explain` shows each one; the result is the same.
 * Total: never throws, whatever `args` is (accessor properties are treated as missing).
 */
export function evaluate(policy: Policy, action: string, args: unknown): Explanation {
  const found = Object.hasOwn(policy.actions, action) ? policy.actions[action] : undefined;
  if (found === undefined) return { action, decision: 'deny', rule: null, reason: 'unknown_action', conditions: [] };
  const conditions: ConditionTrace[] = [];
  for (const rule of found.rules) {
    let all = true;
    for (const condition of rule.when) {
      const actual = argumentOf(args, condition.arg);
      const held = holds(condition, actual);
      conditions.push({ ruleIndex: rule.index, key: condition.key, arg: condition.arg, op: condition.op, expected: condition.value, actual, held });
      if (!held) all = false;
    }
    if (all) return { action, decision: rule.decision, rule: rule.index, reason: 'rule_matched', conditions, ruleLoc: rule.loc };
  }
  return { action, decision: 'deny', rule: null, reason: 'no_rule_matched', conditions };
}

/** The own data property `name` of a plain object; undefined for anything else. */
function argumentOf(args: unknown, name: string): unknown {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
  try {
    const descriptor = Object.getOwnPropertyDescriptor(args, name);
    return descriptor !== undefined && 'value' in descriptor ? descriptor.value : undefined;
  } catch {
    return undefined;
  }
}

/** A value a `when` may compare: a safe integer, a string or a boolean. Floats, NaN, ±Infinity, huge integers: no. */
export function isComparable(value: unknown): value is Scalar {
  return typeof value === 'string' || typeof value === 'boolean' || Number.isSafeInteger(value);
}

/** Whether one `when` entry holds for an argument value. */
export function holds(condition: Pick<Condition, 'op' | 'value'>, actual: unknown): boolean {
  if (!isComparable(actual)) return false;
  const expected = condition.value;
  switch (condition.op) {
    case 'eq':
      return sameType(actual, expected) && actual === expected;
    case 'neq':
      return sameType(actual, expected) && actual !== expected;
    case 'in':
      return Array.isArray(expected) && expected.some((v) => sameType(actual, v) && actual === v);
    case 'lt':
      return typeof actual === 'number' && typeof expected === 'number' && actual < expected;
    case 'lte':
      return typeof actual === 'number' && typeof expected === 'number' && actual <= expected;
    case 'gt':
      return typeof actual === 'number' && typeof expected === 'number' && actual > expected;
    case 'gte':
      return typeof actual === 'number' && typeof expected === 'number' && actual >= expected;
    default:
      return false;
  }
}

function sameType(a: Scalar, b: Scalar | Scalar[]): boolean {
  return !Array.isArray(b) && typeof a === typeof b;
}
