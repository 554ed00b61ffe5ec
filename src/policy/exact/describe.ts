/**
 * A region in words: per variable split on, the values its atoms hold (`amount 600..`, `currency
 * "usd" or "eur"`, `fee missing`, `agent matching none of support`), the variables not named being
 * free. Integers are told by their ranges between the cut points (exact: values.ts cut them there);
 * strings by the constants they equal or "any other string". Pure.
 */
import { isInteger } from '../evaluate.js';
import type { Atom } from './atoms.js';
import { type ActionModel, DEFAULT_ENVIRONMENT, type Variable } from './model.js';
import { ABSENT, type ArgValue, elementaryIntervals, integerCuts, valueKey } from './values.js';

export interface VariableText {
  /** `amount`, or `agent`, `user`, `environment`, `task`, `time`. */
  name: string;
  text: string;
}

function show(v: unknown): string {
  if (typeof v === 'bigint') return v.toString();
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));
}

function range(lo: bigint | null, hi: bigint | null): string {
  if (lo !== null && hi !== null) return lo === hi ? `${lo}` : `${lo}..${hi}`;
  if (lo !== null) return `${lo}..`;
  if (hi !== null) return `..${hi}`;
  return 'any integer';
}

/** The integers among `values` as ranges of the intervals they stand for (adjacent ones joined). */
function integerRanges(values: readonly ArgValue[], cuts: readonly bigint[], accepted: (n: bigint) => boolean): string[] {
  const mine = new Set(values.filter((v) => isInteger(v)).map((v) => BigInt(v as number | bigint)));
  const spans: Array<[bigint | null, bigint | null]> = [];
  for (const [lo, hi] of elementaryIntervals(cuts)) {
    const inside = [...mine].find((n) => (lo === null || n >= lo) && (hi === null || n <= hi));
    if (inside === undefined || !accepted(inside)) continue;
    const last = spans[spans.length - 1];
    if (last && last[1] !== null && lo !== null && last[1] + 1n === lo) last[1] = hi;
    else spans.push([lo, hi]);
  }
  return spans.map(([lo, hi]) => range(lo, hi));
}

/** The values of an argument's atoms, in words (each a kind of value: `600..`, `"usd"`, `missing`). */
function argumentWords(model: ActionModel, variable: Variable, atoms: readonly Atom[]): string[] {
  const facts = model.facts[variable.index]!;
  const values = atoms.flatMap((a) => a.values as ArgValue[]);
  const constants = [...facts.constants, ...(facts.schema?.edges ?? [])];
  const words: string[] = [];
  const cuts = integerCuts(constants.flatMap((c) => (Array.isArray(c) ? [c, ...c] : [c])));
  if (facts.family) {
    // pasted into a resource that grants test: the classes are of text, not of ranges
    const ints = values.filter((v) => isInteger(v));
    if (ints.length > 0) words.push(`integers like ${ints.slice(0, 3).map(show).join(', ')}`);
  } else words.push(...integerRanges(values, cuts, () => true));
  const constantKeys = new Set(constants.flatMap((c) => (Array.isArray(c) ? [c, ...c] : [c])).map(valueKey));
  const strings = values.filter((v): v is string => typeof v === 'string');
  const named = strings.filter((s) => constantKeys.has(valueKey(s)) || s === '');
  const fresh = strings.some((s) => !named.includes(s));
  // "" goes without saying in "any string"
  words.push(...named.filter((s) => !(s === '' && fresh && !facts.family)).map(show));
  const other = strings.filter((s) => !named.includes(s));
  const anyOther = constants.some((c) => typeof c === 'string' && c !== '') ? 'any other string' : 'any string';
  if (other.length > 0)
    words.push(
      facts.family
        ? `strings like ${other.slice(0, 3).map(show).join(', ')}`
        : strings.includes('')
          ? anyOther
          : `${anyOther.replace('string', 'non-empty string')}`,
    );
  const kinds = { list: (v: unknown) => Array.isArray(v), mapping: (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v) };
  for (const [kind, is] of Object.entries(kinds)) {
    const named = [...constantKeys].length > 0 && constants.some(is);
    for (const v of values.filter(is)) words.push(constantKeys.has(valueKey(v as ArgValue)) ? show(v) : named ? `any other ${kind}` : `any ${kind}`);
  }
  if (values.includes(null)) words.push('null');
  if (values.includes(true)) words.push('true');
  if (values.includes(false)) words.push('false');
  if (values.includes(ABSENT)) words.push('missing');
  return words;
}

/** The patterns the atoms' values all match and all fail (of those the variable's values do not all answer alike). */
function patternText(model: ActionModel, variable: Variable, atoms: readonly Atom[], every: readonly Atom[]): string {
  const values = atoms.flatMap((a) => a.values);
  const domain = every.flatMap((a) => a.values);
  const holds = (pred: ActionModel['predicates'][number], v: unknown) => {
    const at: unknown[] = [];
    at[variable.index] = v;
    return pred.test(at);
  };
  const telling = model.predicates.filter(
    (p) => p.vars.length === 1 && p.vars[0] === variable.index && domain.some((v) => holds(p, v)) && domain.some((v) => !holds(p, v)),
  );
  const name = (key: string) => key.slice(key.indexOf(' ') + 1);
  if (values.every((v) => v === null)) return variable.kind === 'task' ? 'none (the run names no task)' : 'none';
  const yes = telling.filter((p) => values.every((v) => holds(p, v))).map((p) => name(p.key));
  const no = telling.filter((p) => values.every((v) => !holds(p, v))).map((p) => name(p.key));
  const parts: string[] = [];
  if (yes.length > 0) parts.push(`matching ${yes.join(' and ')}`);
  if (no.length > 0) parts.push(`matching none of ${no.join(', ')}`);
  if (values.includes(null)) parts.push('or none');
  return `${parts.join(', ') || 'any'} (e.g. ${show(values.find((v) => v !== null) ?? null)})`;
}

function environmentText(atoms: readonly Atom[]): string {
  return atoms
    .flatMap((a) => a.values)
    .map((v) => (v === DEFAULT_ENVIRONMENT ? "the policy's own (the control names none)" : show(v)))
    .join(' or ');
}

function timeText(model: ActionModel, variable: Variable, atoms: readonly Atom[]): string {
  const instants = [...new Set(model.facts[variable.index]!.instants)].sort((a, b) => a - b);
  const values = atoms.flatMap((a) => a.values as number[]);
  const after = instants.filter((ms) => values.every((v) => v > ms));
  const until = instants.filter((ms) => values.every((v) => v <= ms));
  const parts = [
    ...(after.length > 0 ? [`after ${new Date(after[after.length - 1]!).toISOString()}`] : []),
    ...(until.length > 0 ? [`until ${new Date(until[0]!).toISOString()}`] : []),
  ];
  return parts.join(' and ') || 'any time';
}

/** The region's variables in words, in the model's order. */
export function describeRegion(model: ActionModel, atoms: readonly Atom[][], allowed: ReadonlyMap<number, number[]>): VariableText[] {
  const out: VariableText[] = [];
  for (const [index, ids] of [...allowed].sort((a, b) => a[0] - b[0])) {
    const variable = model.variables[index]!;
    const chosen = ids.map((id) => atoms[index]![id]!);
    let text: string;
    if (variable.kind === 'arg') {
      // most of the values: said as what they are not, when that is shorter
      text = argumentWords(model, variable, chosen).join(' or ');
      const rest = argumentWords(
        model,
        variable,
        atoms[index]!.filter((a) => !ids.includes(a.id)),
      );
      // "any integer" reads "an integer" after "not"
      const one = (w: string) =>
        w
          .replace(/^any other /, 'another ')
          .replace(/^any ([aeiou])/, 'an $1')
          .replace(/^any /, 'a ');
      const words = rest.map(one);
      const but = words.length === 1 ? `not ${words[0]}` : `neither ${words.slice(0, -1).join(', ')} nor ${words[words.length - 1]}`;
      if (rest.length > 0 && but.length < text.length) text = but;
    } else if (variable.kind === 'environment') text = environmentText(chosen);
    else if (variable.kind === 'now') text = timeText(model, variable, chosen);
    else text = patternText(model, variable, chosen, atoms[index]!);
    out.push({ name: variable.kind === 'now' ? 'time' : variable.name, text });
  }
  return out;
}
