/**
 * Which rules of one action some call reaches, by the decision procedure (search.ts) over one
 * version's rules: whether a rule's conditions can hold at all (within the tools' schema, when
 * given), whether some call is decided by it (first match), and which earlier rules take the calls
 * it matches. Exact, so a rule shadowed by several earlier rules together, or by an earlier rule
 * and the schema, is found as surely as one behind a catch-all. Pure.
 */
import { type Atom, variableAtoms } from './atoms.js';
import { witnessOf } from './compare.js';
import { determined, type Entry, type Literal, outcomes } from './lists.js';
import { type ActionModel, actionModel, type Side } from './model.js';
import { search } from './search.js';
import type { ArgSchema } from './values.js';

export interface RuleReach {
  rule: number;
  /** A call that satisfies the rule's conditions (one value per variable), or undefined: none does. */
  matching?: unknown[];
  /** Whether some call is decided by it (no earlier rule matches it). */
  reached: boolean;
  /** The earlier rules that match some call it matches (the ones that shadow it, when it is not reached). */
  earlier: number[];
}

export interface ActionReach {
  model: ActionModel;
  atoms: Atom[][];
  rules: RuleReach[];
}

const HIT = 'hit';

/** A call for which the first entry of `list` that holds has the outcome HIT, if any. */
function find(model: ActionModel, atoms: readonly Atom[][], list: Entry[]): unknown[] | undefined {
  const found = search(model, atoms, [[[], list, []]], {
    judge: (states) => {
      const l = states[0]![1]!;
      if (determined(l) === HIT) return 'emit';
      return outcomes(l).has(HIT) ? 'split' : 'prune';
    },
    limit: 1,
  });
  const region = found.regions[0];
  return region ? witnessOf(atoms, region.atoms) : undefined;
}

const holds = (guard: readonly Literal[]): Entry[] => [
  { guard, out: HIT },
  { guard: [], out: 'miss' },
];

/** Every rule of `side`'s action: can it match, is it reached, which earlier rules take its calls. */
export function actionReach(actionId: string, side: Side, schema: ReadonlyMap<string, ArgSchema> | undefined, now = 0): ActionReach {
  const model = actionModel(actionId, [side], schema);
  const atoms = variableAtoms(model, now);
  const guards = model.guards[0]!;
  const empty = atoms.some((list) => list.length === 0);
  const rules = guards.map((guard, i): RuleReach => {
    const matching = empty ? undefined : find(model, atoms, holds(guard));
    if (!matching) return { rule: i, reached: false, earlier: [] };
    // first match wins: rule i decides a call when no earlier rule holds for it
    const first: Entry[] = guards.slice(0, i + 1).map((g, j) => ({ guard: g, out: j === i ? HIT : `rule ${j}` }));
    first.push({ guard: [], out: 'none' });
    if (find(model, atoms, first)) return { rule: i, matching, reached: true, earlier: [] };
    const earlier = guards.slice(0, i).flatMap((g, j) => (find(model, atoms, holds([...g, ...guard])) ? [j] : []));
    return { rule: i, matching, reached: false, earlier };
  });
  return { model, atoms, rules };
}
