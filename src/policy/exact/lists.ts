/**
 * Decision lists over predicates: the form the decision procedure reasons in. An entry's guard is
 * a conjunction of literals (a predicate, true or false); the first entry whose guard holds gives
 * the list's outcome. Assigning a variable evaluates the predicates it completes and leaves a
 * residual list, written canonically, so two residuals that print the same decide the same. Pure.
 */

/** A predicate's id + 1, negative for "the predicate is false". */
export type Literal = number;

export interface Entry {
  readonly guard: readonly Literal[];
  /** The outcome's key (its meaning is the model's: see model.ts). */
  readonly out: string;
}

export type DecisionList = readonly Entry[];

export const lit = (predicate: number, value: boolean): Literal => (value ? predicate + 1 : -(predicate + 1));
export const predicateOf = (l: Literal): number => Math.abs(l) - 1;

/**
 * The list once the predicates `truth` knows are evaluated: an entry with a false literal is gone,
 * true literals drop out of the guards, and nothing after an entry that always holds is kept (nor an
 * entry whose guard repeats an earlier one's: it can never be the first to hold).
 */
export function residual(list: DecisionList, truth: (predicate: number) => boolean | undefined): Entry[] {
  const out: Entry[] = [];
  const guards = new Set<string>();
  for (const e of list) {
    let dropped = false;
    const guard: Literal[] = [];
    for (const l of e.guard) {
      const t = truth(predicateOf(l));
      if (t === undefined) guard.push(l);
      else if (t !== l > 0) {
        dropped = true;
        break;
      }
    }
    if (dropped) continue;
    guard.sort((a, b) => a - b);
    const key = guard.join(',');
    if (guards.has(key)) continue;
    guards.add(key);
    out.push(guard.length === e.guard.length ? e : { guard, out: e.out });
    if (guard.length === 0) break;
  }
  return out;
}

/** The outcome when the first entry always holds, else undefined. */
export function determined(list: DecisionList): string | undefined {
  const first = list[0];
  return first !== undefined && first.guard.length === 0 ? first.out : undefined;
}

/** The outcomes still possible (every entry's, as far as the list says). */
export function outcomes(list: DecisionList): Set<string> {
  return new Set(list.map((e) => e.out));
}

export function listKey(list: DecisionList): string {
  return list.map((e) => `${e.guard.join(',')}>${e.out}`).join(';');
}

/** The predicates a list still reads. */
export function predicatesIn(list: DecisionList, into: Set<number>): void {
  for (const e of list) for (const l of e.guard) into.add(predicateOf(l));
}
