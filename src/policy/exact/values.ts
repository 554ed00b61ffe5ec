/**
 * The values one argument can take, cut into finitely many classes: candidates built from the
 * constants the policies mention so that every region the predicates can tell apart holds at
 * least one of them. For integers the cut points are each constant, its neighbours and the
 * schema's ends (between two cut points every comparison answers alike); for strings each constant,
 * the empty string and one string equal to none; for lists and mappings each constant and one equal
 * to none; null, both booleans, and the argument left out. Floats never reach a rule (the runtime
 * refuses a call holding one), so they are no candidate. Pure.
 */
import { checkArguments } from '../../runtime/arguments.js';
import { isInteger, jsonEqual } from '../evaluate.js';
import type { Operand } from '../types.js';

/** An argument left out of the call. */
export const ABSENT: unique symbol = Symbol('absent');
export type ArgValue = Operand | typeof ABSENT;

/**
 * What the tool's parameter schema says of one argument, as the decision procedure needs it:
 * whether it accepts a value (ABSENT: the argument left out) and the values at its edges (a range's
 * ends, each enum value), which cut the domain too. `generate`'s ParamSchema gives both.
 */
export interface ArgSchema {
  accepts(value: ArgValue): boolean;
  edges: readonly Operand[];
}

const abs = (n: bigint): bigint => (n < 0n ? -n : n);

/** An integer as the runtime holds it: a number when safe, else a bigint. */
export function asInteger(v: bigint): number | bigint {
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
}

/** Every scalar, list and mapping a `when` value holds (an `in` list's members first: a witness reads better with one). */
function flatten(values: readonly Operand[]): Operand[] {
  const out: Operand[] = [];
  for (const v of values) {
    if (Array.isArray(v)) out.push(...v);
    out.push(v);
  }
  return out;
}

export function valueKey(v: ArgValue): string {
  if (v === ABSENT) return '\u0000absent';
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v)) return `[${v.map(valueKey).join(',')}]`;
  if (typeof v === 'object' && v !== null)
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${valueKey((v as Record<string, Operand>)[k] as Operand)}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

/** A string equal to none of `taken` (nor empty). */
export function freshString(taken: readonly Operand[]): string {
  for (let i = 0; ; i++) {
    const s = i === 0 ? 'x' : `x${i}`;
    if (!taken.some((t) => t === s)) return s;
  }
}

/** The integer cut points: each constant and its neighbours, the schema's integer edges; 0 when there are none. */
export function integerCuts(constants: readonly Operand[]): bigint[] {
  const points = new Set<bigint>();
  for (const c of constants) {
    if (!isInteger(c)) continue;
    const v = BigInt(c);
    points
      .add(v - 1n)
      .add(v)
      .add(v + 1n);
  }
  if (points.size === 0) points.add(0n);
  return [...points].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The intervals between cut points (each cut point alone, each gap between two, and both tails). */
export function elementaryIntervals(cuts: readonly bigint[]): Array<[bigint | null, bigint | null]> {
  const out: Array<[bigint | null, bigint | null]> = [[null, cuts[0]! - 1n]];
  cuts.forEach((c, i) => {
    out.push([c, c]);
    const next = cuts[i + 1];
    if (next === undefined) out.push([c + 1n, null]);
    else if (next > c + 1n) out.push([c + 1n, next - 1n]);
  });
  return out;
}

export interface CandidateOptions {
  /** The constants the policies compare the argument with (rules and grant constraints, both versions). */
  constants: readonly Operand[];
  schema?: ArgSchema | undefined;
  /**
   * For an argument pasted into a resource that grant patterns test: more strings and integers, one
   * for each way its text can move the patterns' automata (patterns.ts).
   */
  pasted?: { strings(constants: readonly string[]): string[]; integers(intervals: ReadonlyArray<readonly [bigint | null, bigint | null]>): bigint[] };
}

/**
 * Candidates for one argument, the most telling first (the constants as written, then the others;
 * the argument left out last): every class of values the predicates and the schema can tell apart
 * holds one of them. Only the ones the schema accepts.
 */
export function argumentCandidates(options: CandidateOptions): ArgValue[] {
  const schemaEdges = options.schema?.edges ?? [];
  const all = flatten([...options.constants, ...schemaEdges]);
  const strings = all.filter((v): v is string => typeof v === 'string');
  const cuts = integerCuts(all);
  const out: ArgValue[] = [];
  const seen = new Set<string>();
  const add = (v: ArgValue): void => {
    const k = valueKey(v);
    if (seen.has(k)) return;
    seen.add(k);
    if (options.schema && !options.schema.accepts(v)) return;
    // a value the runtime refuses before any rule (a lone surrogate, a float) is no call at all
    if (v !== ABSENT && !checkArguments({ v }).ok) return;
    out.push(v);
  };
  for (const v of all) add(isInteger(v) ? asInteger(BigInt(v)) : v);
  // a string first among the rest (an id reads as one), then one integer of each interval between
  // cut points, the nearest to zero first (the plainer witness)
  add(freshString(all));
  const reps = elementaryIntervals(cuts).map(([lo, hi]) => (lo !== null && lo > 0n ? lo : hi !== null && hi < 0n ? hi : 0n));
  for (const n of reps.sort((a, b) => (abs(a) < abs(b) ? -1 : abs(a) > abs(b) ? 1 : 0))) add(asInteger(n));
  add('');
  if (options.pasted) {
    for (const s of options.pasted.strings([...new Set([...strings, ''])])) add(s);
    for (const n of options.pasted.integers(elementaryIntervals(cuts))) add(asInteger(n));
  }
  const lists = all.filter((v) => Array.isArray(v));
  add(lists.some((l) => jsonEqual(l, [])) ? [freshString(all)] : []);
  const maps = all.filter((v) => typeof v === 'object' && v !== null && !Array.isArray(v));
  add(maps.some((m) => jsonEqual(m, {})) ? { [freshString(all)]: null } : {});
  add(null);
  add(true);
  add(false);
  add(ABSENT);
  return out;
}
