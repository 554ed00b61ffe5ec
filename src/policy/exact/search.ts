/**
 * The decision procedure: a search over the product of the variables' atoms that never enumerates
 * it. At each step one variable the residual lists still read is split into its atoms; atoms that
 * leave every list in the same residual go down one branch together (that branch's region allows
 * them all), and a branch stops as soon as the judge can tell (two versions whose residuals print
 * alike decide alike; lists already decided need no more variables). Every call of the domain lies
 * in exactly one leaf, so what the judge reports is exact, not sampled. Pure.
 */
import type { Atom } from './atoms.js';
import { type DecisionList, listKey, predicatesIn, residual } from './lists.js';
import type { ActionModel } from './model.js';

/** One version's residual lists. */
export type State = readonly DecisionList[];

export type Verdict = 'prune' | 'emit' | 'split';

export interface Region {
  /** Per variable split on the way: the atoms its values may be in (a variable not named: any). */
  atoms: Map<number, number[]>;
  /** The residual lists where the judge said `emit`. */
  states: State[];
}

export interface SearchOptions {
  /** What to do with a node: stop (nothing to report below), report it as one region, or split on. */
  judge: (states: readonly State[]) => Verdict;
  /** Stop after this many regions (`truncated` says so). */
  limit?: number;
}

export interface SearchResult {
  regions: Region[];
  truncated: boolean;
}

export const REGION_LIMIT = 2000;

export function search(model: ActionModel, atoms: readonly Atom[][], start: readonly State[], options: SearchOptions): SearchResult {
  const regions: Region[] = [];
  const limit = options.limit ?? REGION_LIMIT;
  let truncated = false;
  const values: unknown[] = [];
  const assigned = new Set<number>();
  // the predicates each variable completes, once all of their variables are assigned
  const readers = model.variables.map((v) => model.predicates.filter((p) => p.vars.includes(v.index)));

  const walk = (states: readonly State[], path: Map<number, number[]>): void => {
    if (truncated) return;
    const verdict = options.judge(states);
    if (verdict === 'prune') return;
    if (verdict === 'emit') {
      if (regions.length >= limit) truncated = true;
      else regions.push({ atoms: new Map(path), states: [...states] });
      return;
    }
    const read = new Set<number>();
    for (const s of states) for (const l of s) predicatesIn(l, read);
    const next = nextVariable(model, read, assigned);
    if (next === undefined) throw new Error('the decision procedure ran out of variables before the lists were decided');
    const groups = new Map<string, { atoms: number[]; states: State[] }>();
    for (const atom of atoms[next]!) {
      values[next] = atom.values[0];
      assigned.add(next);
      const known = new Map<number, boolean>();
      for (const p of readers[next]!) if (p.vars.every((v) => assigned.has(v))) known.set(p.id, p.test(values));
      const moved = states.map((s) => s.map((l) => residual(l, (id) => known.get(id))));
      assigned.delete(next);
      const key = `${moved.map((s) => s.map(listKey).join('/')).join('//')}#${pending(model, moved, assigned, next, atom.id, path)}`;
      const g = groups.get(key);
      if (g) g.atoms.push(atom.id);
      else groups.set(key, { atoms: [atom.id], states: moved });
    }
    assigned.add(next);
    for (const g of groups.values()) {
      // a later predicate reading this variable with others reads the value of the group's first atom
      values[next] = atoms[next]![g.atoms[0]!]!.values[0];
      path.set(next, g.atoms);
      walk(g.states, path);
      path.delete(next);
    }
    assigned.delete(next);
    values[next] = undefined;
  };
  // lists as written may hold entries no call reaches (after one that always holds): residuals drop them
  // (and a predicate that reads no variable, a `data_scope` test of an action without labels, is a constant)
  const constant = (id: number) => (model.predicates[id]!.vars.length === 0 ? model.predicates[id]!.test([]) : undefined);
  walk(
    start.map((s) => s.map((l) => residual(l, constant))),
    new Map(),
  );
  return { regions, truncated };
}

/** The first variable (in the model's order) that a predicate still read reads and that is not assigned yet. */
function nextVariable(model: ActionModel, read: ReadonlySet<number>, assigned: ReadonlySet<number>): number | undefined {
  let best: number | undefined;
  for (const id of read) for (const v of model.predicates[id]!.vars) if (!assigned.has(v) && (best === undefined || v < best)) best = v;
  return best;
}

/**
 * What the residuals do not show but a branch depends on: for each predicate of several variables
 * still read, the atoms its assigned variables took (two atoms of one variable may read alike now
 * and differently once the predicate's other variables are known).
 */
function pending(
  model: ActionModel,
  states: readonly State[],
  assigned: ReadonlySet<number>,
  now: number,
  atom: number,
  path: ReadonlyMap<number, number[]>,
): string {
  const read = new Set<number>();
  for (const s of states) for (const l of s) predicatesIn(l, read);
  const parts: string[] = [];
  for (const id of read) {
    const p = model.predicates[id]!;
    if (p.vars.length < 2) continue;
    for (const v of p.vars) {
      if (v === now) parts.push(`${id}:${v}=${atom}`);
      else if (assigned.has(v)) parts.push(`${id}:${v}=${path.get(v)?.join(',')}`);
    }
  }
  return parts.join(';');
}
