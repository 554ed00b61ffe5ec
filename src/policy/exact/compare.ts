/**
 * Where two versions of one action decide differently: the decision procedure (search.ts) over
 * both versions' lists, judged by what the runtime would do (model.ts `combine`), each region
 * reported with a witness (one value per variable) and both versions' outcomes on it. Regions that
 * differ alike and in one variable only are merged. Pure.
 */
import { type Atom, variableAtoms } from './atoms.js';
import { type DecisionList, determined, outcomes, residual } from './lists.js';
import { type ActionModel, actionModel, type CallOutcome, combine, outcomeKey, type Side } from './model.js';
import { search, type State } from './search.js';
import type { Operand } from '../types.js';
import { ABSENT, type ArgSchema } from './values.js';

export interface RegionChange {
  /** Per variable split on: the atoms allowed (a variable not named: any). */
  atoms: Map<number, number[]>;
  /** One value per variable of the model (the region's first call). */
  witness: unknown[];
  before: CallOutcome;
  after: CallOutcome;
}

export interface ActionComparison {
  model: ActionModel;
  atoms: Atom[][];
  changes: RegionChange[];
  /** More regions than the limit: the ones past it are not listed. */
  truncated: boolean;
}

/** Beyond this many combinations the judge does not list a version's possible outcomes (it splits on). */
const PRODUCT_LIMIT = 4096;

/** The outcome keys a version may still come to, or undefined when too many to list. */
function possible(state: State): Set<string> | undefined {
  const [t, r, a] = state.map(outcomes) as [Set<string>, Set<string>, Set<string>];
  if (t.size * r.size * a.size > PRODUCT_LIMIT) return undefined;
  const out = new Set<string>();
  for (const x of t) for (const y of r) for (const z of a) out.add(outcomeKey(combine(x, y, z)));
  return out;
}

function stateKey(state: State): string {
  return state.map((l) => l.map((e) => `${e.guard.join(',')}>${e.out}`).join(';')).join('/');
}

/** Whether two versions' residuals may still decide differently: prune (no), emit (yes, throughout), or split. */
export function judgeTwo(states: readonly State[]): 'prune' | 'emit' | 'split' {
  const [a, b] = states as [State, State];
  if (stateKey(a) === stateKey(b)) return 'prune';
  const pa = possible(a);
  const pb = possible(b);
  if (pa && pb && pa.size === 1 && pb.size === 1) return [...pa][0] === [...pb][0] ? 'prune' : 'emit';
  return 'split';
}

/** Every predicate's value at one full assignment, then a version's outcome there. */
export function outcomeAt(model: ActionModel, machine: number, values: readonly unknown[]): CallOutcome {
  const truth = new Map(model.predicates.map((p) => [p.id, p.test(values)]));
  const lists = model.machines[machine]!.lists.map((l: DecisionList) => determined(residual(l, (id) => truth.get(id))));
  return combine(lists[0]!, lists[1]!, lists[2]!);
}

/** The arguments of a call given one value per variable (an argument at ABSENT is left out). */
export function argsAt(model: ActionModel, values: readonly unknown[]): Record<string, Operand> {
  const out: Record<string, Operand> = {};
  // defined, not assigned: an argument named `__proto__` is a key like any other
  for (const v of model.variables)
    if (v.kind === 'arg' && values[v.index] !== ABSENT)
      Object.defineProperty(out, v.name, { value: values[v.index], enumerable: true, writable: true, configurable: true });
  return out;
}

/** The region's first call: each variable at the first value of its first allowed atom. */
export function witnessOf(atoms: readonly Atom[][], allowed: ReadonlyMap<number, number[]>): unknown[] {
  return atoms.map((list, v) => list[allowed.get(v)?.[0] ?? 0]?.values[0]);
}

export function compareAction(
  actionId: string,
  base: Side,
  head: Side,
  options: { schema?: ReadonlyMap<string, ArgSchema> | undefined; now: number; limit?: number },
): ActionComparison {
  const model = actionModel(actionId, [base, head], options.schema);
  const atoms = variableAtoms(model, options.now);
  // a variable the schema leaves no value for: no call reaches the policy at all
  if (atoms.some((list) => list.length === 0)) return { model, atoms, changes: [], truncated: false };
  const start = model.machines.map((m) => m.lists);
  const found = search(model, atoms, start, { judge: judgeTwo, ...(options.limit !== undefined ? { limit: options.limit } : {}) });
  const changes = merge(
    found.regions.map((r) => {
      const witness = witnessOf(atoms, r.atoms);
      const before = outcomeAt(model, 0, witness);
      const after = outcomeAt(model, 1, witness);
      if (outcomeKey(before) === outcomeKey(after)) throw new Error(`the decision procedure reported a region of ${actionId} on which both versions agree`);
      return { atoms: r.atoms, witness, before, after };
    }),
    atoms,
  );
  return { model, atoms, changes, truncated: found.truncated };
}

/** Regions that change alike and differ in one variable's atoms only, as one (repeated until none merge). */
function merge(changes: RegionChange[], atoms: readonly Atom[][]): RegionChange[] {
  const all = (v: number) => atoms[v]!.map((a) => a.id);
  const allowed = (c: RegionChange, v: number) => c.atoms.get(v) ?? all(v);
  const same = (x: number[], y: number[]) => x.length === y.length && x.every((a, i) => a === y[i]);
  let list = [...changes];
  for (let merged = true; merged; ) {
    merged = false;
    outer: for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const x = list[i]!;
        const y = list[j]!;
        if (outcomeKey(x.before) !== outcomeKey(y.before) || outcomeKey(x.after) !== outcomeKey(y.after)) continue;
        const vars = new Set([...x.atoms.keys(), ...y.atoms.keys()]);
        const differ = [...vars].filter((v) => !same(allowed(x, v), allowed(y, v)));
        if (differ.length > 1) continue;
        const atomsOf = new Map(x.atoms);
        for (const v of differ) {
          const union = [...new Set([...allowed(x, v), ...allowed(y, v)])].sort((a, b) => a - b);
          if (union.length === atoms[v]!.length) atomsOf.delete(v);
          else atomsOf.set(v, union);
        }
        list[i] = { ...x, atoms: atomsOf };
        list.splice(j, 1);
        merged = true;
        break outer;
      }
    }
  }
  list = list.map((c) => ({ ...c, atoms: new Map([...c.atoms].filter(([v, ids]) => ids.length < atoms[v]!.length)) }));
  return list;
}
