/**
 * CTRLRun's `when` entries (`<arg>_<op>: value`) as data: the split of a key, and whether an entry
 * holds for an argument's value. The reference evaluator (`policy/evaluate.ts`, which `explain` and
 * the policy tests use) and the approval grants' bounds (`approval-grants.ts`, checked at run time,
 * where no generated code exists for them) read the same functions, so an operator means the same
 * thing in a rule and in a grant. Pure; nothing here imports the generator.
 */

export type ConditionOperator = 'eq' | 'neq' | 'in' | 'lt' | 'lte' | 'gt' | 'gte';

/** Longest first, as CTRLRun splits `<arg>_<op>`. */
export const OPERATORS: readonly ConditionOperator[] = ['neq', 'lte', 'gte', 'eq', 'in', 'lt', 'gt'];
export const ORDER_OPERATORS: readonly ConditionOperator[] = ['lt', 'lte', 'gt', 'gte'];

export type ConditionKeyParse =
  | { ok: true; arg: string; op: ConditionOperator }
  | { ok: false; reason: 'no-operator'; suffix: string }
  | { ok: false; reason: 'no-arg'; op: ConditionOperator }
  | { ok: false; reason: 'bad-arg'; arg: string; op: ConditionOperator };

/** `<arg>_<op>`, split on the longest operator suffix (CTRLRun): `min_amount_gte` is (`min_amount`, `gte`). Any non-empty argument name. */
export function parseConditionKey(key: string): ConditionKeyParse {
  for (const op of OPERATORS) {
    const suffix = `_${op}`;
    if (key.endsWith(suffix) && key.length > suffix.length) return { ok: true, arg: key.slice(0, -suffix.length), op };
    if (key === suffix) return { ok: false, reason: 'no-arg', op };
  }
  const cut = key.lastIndexOf('_');
  return { ok: false, reason: 'no-operator', suffix: cut < 0 ? key : key.slice(cut + 1) };
}

/** An exact integer (not a boolean): a safe-integer `number` or a `bigint`. */
export function isInteger(value: unknown): value is number | bigint {
  return Number.isSafeInteger(value) || typeof value === 'bigint';
}

/** Type-strict, recursive equality of JSON values (integers normalized: a `number` when safe, else a `bigint`). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!Object.hasOwn(b, k) || !jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

/**
 * Whether one `when` entry holds for an argument value (undefined: the argument is missing, and no
 * entry holds). `eq`/`in` are type-strict and recursive; `neq` is the negation of `eq` for a present
 * argument; `lt lte gt gte` hold only for integers (any size).
 */
export function holds(condition: { op: ConditionOperator; value: unknown }, actual: unknown): boolean {
  if (actual === undefined) return false;
  const expected = condition.value;
  switch (condition.op) {
    case 'eq':
      return jsonEqual(actual, expected);
    case 'neq':
      return !jsonEqual(actual, expected);
    case 'in':
      return Array.isArray(expected) && expected.some((v) => jsonEqual(actual, v));
    case 'lt':
      return isInteger(actual) && isInteger(expected) && actual < expected;
    case 'lte':
      return isInteger(actual) && isInteger(expected) && actual <= expected;
    case 'gt':
      return isInteger(actual) && isInteger(expected) && actual > expected;
    case 'gte':
      return isInteger(actual) && isInteger(expected) && actual >= expected;
    default:
      return false;
  }
}
