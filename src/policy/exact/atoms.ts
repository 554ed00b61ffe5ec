/**
 * Each variable's domain cut into atoms: candidates (values.ts for arguments; for who asks, where,
 * for which task and when, the patterns' own strings, each environment named, each expiry and the
 * instant after it) grouped by what every predicate reading the variable says of them. Within an
 * atom no predicate can tell two values apart, so one value (the atom's first) decides for all.
 */
import type { ActionModel, VariableFacts } from './model.js';
import { DEFAULT_ENVIRONMENT } from './model.js';
import { PatternFamily, patternAutomaton } from './patterns.js';
import { argumentCandidates } from './values.js';

export interface Atom {
  /** Index in its variable's atoms. */
  id: number;
  /** The candidates it holds, in the order they were built; the first stands for the atom. */
  values: unknown[];
}

function freeStrings(patterns: readonly string[], separator: ':' | null, fallback: string): string[] {
  const unique = [...new Set(patterns)].sort();
  if (unique.length === 0) return [fallback];
  const strings = new PatternFamily(
    unique.map((p) => patternAutomaton(p, separator)),
    unique,
    separator,
  ).freeStrings();
  // the empty string is a class of its own only when a pattern tells it apart; prefer a word first
  return [...strings.filter((s) => s !== ''), ...strings.filter((s) => s === '')];
}

function freshName(taken: readonly string[], base: string): string {
  for (let i = 0; ; i++) {
    const s = i === 0 ? base : `${base}-${i}`;
    if (!taken.includes(s)) return s;
  }
}

/** The candidates of one variable. `now`: the instant the diff speaks from (no earlier instant is asked about). */
export function candidates(kind: ActionModel['variables'][number]['kind'], facts: VariableFacts, now: number): unknown[] {
  switch (kind) {
    case 'arg':
      return argumentCandidates({
        constants: facts.constants,
        schema: facts.schema,
        ...(facts.family
          ? { pasted: { strings: (c: readonly string[]) => facts.family!.pastedStrings(c), integers: (i) => facts.family!.pastedIntegers(i) } }
          : {}),
      });
    case 'agent':
      return freeStrings(facts.patterns, null, 'agent');
    case 'user':
      return [...freeStrings(facts.patterns, null, 'user'), null];
    case 'task':
      return [...freeStrings(facts.patterns, ':', 'task'), null];
    case 'environment':
      return [DEFAULT_ENVIRONMENT, ...new Set(facts.environments), freshName(facts.environments, 'staging')];
    case 'now':
      return [now, ...[...new Set(facts.instants)].filter((ms) => ms >= now).flatMap((ms) => [ms, ms + 1])];
  }
}

/** What the predicates reading one variable say of a value of it: values alike here are in one atom. */
export function signatureOf(model: ActionModel, index: number, value: unknown): string {
  const values: unknown[] = [];
  values[index] = value;
  const out: string[] = [];
  for (const p of model.predicates) {
    if (!p.vars.includes(index)) continue;
    out.push(p.vars.length === 1 ? (p.test(values) ? '1' : '0') : (p.profile?.(value) ?? ''));
  }
  return out.join('\u0001');
}

/** The atom of `atoms` (one variable's) that holds `value`, by its signature; undefined when none does. */
export function atomOf(model: ActionModel, index: number, atoms: readonly Atom[], value: unknown): Atom | undefined {
  const s = signatureOf(model, index, value);
  return atoms.find((a) => signatureOf(model, index, a.values[0]) === s);
}

/** Every variable's atoms, in the model's variable order. */
export function variableAtoms(model: ActionModel, now: number): Atom[][] {
  return model.variables.map((variable) => {
    const groups = new Map<string, Atom>();
    for (const value of candidates(variable.kind, model.facts[variable.index]!, now)) {
      const signature = signatureOf(model, variable.index, value);
      let atom = groups.get(signature);
      if (!atom) {
        atom = { id: groups.size, values: [] };
        groups.set(signature, atom);
      }
      atom.values.push(value);
    }
    return [...groups.values()];
  });
}
