/**
 * A grant's resource patterns (CTRLRun's: segments split on `:`, each a literal or a literal and one
 * trailing `*`, an optional final `**`) as one deterministic automaton over characters, and the
 * strings that stand for every way a template placeholder can move it. `exposure.ts` uses them to
 * decide exactly whether some call's resource can match a grant: a placeholder's value matters to
 * the patterns only through the function it induces on the automaton's states (finitely many), so
 * one value per function (and per class of the policy's conditions) covers every value.
 */

const DEAD = -1;
const DEEP = -2;

interface Pattern {
  /** The segments before a final `**`: a literal, and whether a `*` follows it. */
  segments: Array<{ literal: string[]; star: boolean }>;
  /** The pattern ends in `**`: anything after the segments and a `:`. */
  deep: boolean;
}

function parsePattern(text: string): Pattern {
  const parts = text.split(':');
  const deep = parts[parts.length - 1] === '**';
  const kept = deep ? parts.slice(0, -1) : parts;
  return { deep, segments: kept.map((s) => ({ literal: [...(s.endsWith('*') ? s.slice(0, -1) : s)], star: s.endsWith('*') })) };
}

/** One pattern's state: DEAD, DEEP (matches whatever follows), or (segment, offset) encoded as segment * 4096 + offset. */
type PState = number;
const code = (segment: number, offset: number): PState => segment * 4096 + offset;

function initial(p: Pattern): PState {
  return p.segments.length === 0 ? DEEP : code(0, 0);
}

function step(p: Pattern, state: PState, ch: string): PState {
  if (state === DEAD || state === DEEP) return state;
  const i = Math.floor(state / 4096);
  const j = state % 4096;
  const seg = p.segments[i]!;
  if (j < seg.literal.length) return ch === seg.literal[j] ? code(i, j + 1) : DEAD;
  if (ch === ':') {
    if (i + 1 < p.segments.length) return code(i + 1, 0);
    return p.deep ? DEEP : DEAD;
  }
  return seg.star ? state : DEAD;
}

function accepts(p: Pattern, state: PState): boolean {
  if (state === DEEP) return true;
  if (state === DEAD) return false;
  const i = Math.floor(state / 4096);
  return !p.deep && i === p.segments.length - 1 && state % 4096 === p.segments[i]!.literal.length;
}

/** A state function: for each automaton state (by index), the state after reading a string. */
export type StateFunction = readonly number[];

export interface ResourceAutomaton {
  /** The characters the patterns name, `:`, and characters standing for every other one (all alike to the automaton). */
  readonly alphabet: readonly string[];
  /** A character no pattern names (nor `:`): stands for every other character. */
  readonly other: string;
  /** The function a string induces. */
  functionOf(text: string): StateFunction;
  /** `first` then `second`. */
  compose(first: StateFunction, second: StateFunction): StateFunction;
  identity: StateFunction;
  /** Whether the string whose function from the start is `f` matches some pattern. */
  matches(f: StateFunction): boolean;
  key(f: StateFunction): string;
}

/** Characters no pattern names, in a fixed order: stand-ins for the infinitely many such characters. */
const SPARE = 'xyzqwjkv~#%&=+!?XYZQWJKV0123456789'.split('').concat([...'§¶¤µ']);

export function resourceAutomaton(patterns: readonly string[]): ResourceAutomaton {
  const parsed = patterns.map(parsePattern);
  const named = new Set<string>();
  for (const p of parsed) for (const s of p.segments) for (const ch of s.literal) named.add(ch);
  named.delete(':');
  const spares = SPARE.filter((c) => !named.has(c));
  const other = spares[0]!;
  const alphabet = [...[...named].sort(), ':', other];
  // the reachable tuples of per-pattern states, interned
  const index = new Map<string, number>();
  const tuples: PState[][] = [];
  const intern = (t: PState[]): number => {
    const k = t.join(',');
    let n = index.get(k);
    if (n === undefined) {
      n = tuples.length;
      index.set(k, n);
      tuples.push(t);
    }
    return n;
  };
  intern(parsed.map(initial));
  const table: number[][] = [];
  for (let q = 0; q < tuples.length; q++) {
    table[q] = alphabet.map((ch) => intern(tuples[q]!.map((s, i) => step(parsed[i]!, s, ch))));
  }
  const column = new Map(alphabet.map((ch, c) => [ch, c]));
  const otherColumn = column.get(other)!;
  const charFunction = (ch: string): StateFunction => {
    const c = column.get(ch) ?? (ch === ':' ? column.get(':')! : otherColumn);
    return table.map((row) => row[c]!);
  };
  const identity = tuples.map((_, q) => q);
  const compose = (first: StateFunction, second: StateFunction): StateFunction => first.map((q) => second[q]!);
  return {
    alphabet,
    other,
    identity,
    compose,
    functionOf: (text) => {
      let f: StateFunction = identity;
      for (const ch of text) f = compose(f, charFunction(ch));
      return f;
    },
    matches: (f) => tuples[f[0]!]!.some((s, i) => accepts(parsed[i]!, s)),
    key: (f) => f.join(','),
  };
}

/** The functions non-empty strings induce, each with up to `perFunction` distinct strings inducing it, within `budget` steps (undefined past it). */
export function stringFunctions(
  a: ResourceAutomaton,
  perFunction: number,
  maxLength: number,
  budget = 200_000,
): Map<string, { f: StateFunction; strings: string[] }> | undefined {
  // every character no pattern names induces the same function: a few of them, so that several
  // distinct strings of one function exist wherever one with such a character does
  const pool = [...a.alphabet.slice(0, -1), ...SPARE.filter((c) => !a.alphabet.includes(c)).slice(0, Math.max(1, perFunction))];
  const chars = pool.map((ch) => ({ ch, f: a.functionOf(ch) }));
  const found = new Map<string, { f: StateFunction; strings: string[] }>();
  let frontier: Array<{ s: string; f: StateFunction }> = [{ s: '', f: a.identity }];
  let steps = 0;
  for (let length = 1; length <= maxLength && frontier.length > 0; length++) {
    const next: Array<{ s: string; f: StateFunction }> = [];
    for (const { s, f } of frontier) {
      for (const c of chars) {
        if (++steps > budget) return undefined;
        const g = a.compose(f, c.f);
        const k = a.key(g);
        const entry = found.get(k) ?? { f: g, strings: [] };
        found.set(k, entry);
        // kept to `perFunction` a function: extensions of kept strings by one suffix stay distinct
        if (entry.strings.length < perFunction) {
          entry.strings.push(s + c.ch);
          next.push({ s: s + c.ch, f: g });
        }
      }
    }
    frontier = next;
  }
  return found;
}

/**
 * The functions the decimal numerals of the integers in [lo, hi] induce (null: unbounded), one
 * integer each, within `budget` steps (undefined past it). A digit walk per length, bounded where
 * the range is; an unbounded side needs lengths only up to `extra` past its bound's (a longer
 * numeral repeats a function among its prefixes and pumps down to one that long).
 */
export function integerFunctions(
  a: ResourceAutomaton,
  lo: bigint | null,
  hi: bigint | null,
  extra: number,
  budget = 200_000,
): Map<string, { f: StateFunction; value: bigint }> | undefined {
  const out = new Map<string, { f: StateFunction; value: bigint }>();
  const digits = [...'0123456789'].map((d) => a.functionOf(d));
  let steps = 0;
  const add = (f: StateFunction, value: bigint) => {
    const k = a.key(f);
    if (!out.has(k)) out.set(k, { f, value });
  };
  // magnitudes in [from, to] (to null: unbounded), numerals after `start` (the sign's function)
  const magnitudes = (from: bigint, to: bigint | null, start: StateFunction, sign: bigint): boolean => {
    const minLength = String(from).length;
    const maxLength = to === null ? minLength + extra : String(to).length;
    for (let length = minLength; length <= maxLength; length++) {
      const low = from > 10n ** BigInt(length - 1) || length === 1 ? from : 10n ** BigInt(length - 1);
      const high = to !== null && to < 10n ** BigInt(length) - 1n ? to : 10n ** BigInt(length) - 1n;
      if (low > high) continue;
      const lowText = String(low).padStart(length, '0');
      const highText = String(high).padStart(length, '0');
      // states: tight to the low bound, tight to the high bound, function; a witness prefix each
      let layer = new Map<string, { lowTight: boolean; highTight: boolean; f: StateFunction; text: string }>();
      layer.set('start', { lowTight: true, highTight: true, f: start, text: '' });
      for (let pos = 0; pos < length; pos++) {
        const next = new Map<string, { lowTight: boolean; highTight: boolean; f: StateFunction; text: string }>();
        for (const s of layer.values()) {
          const from = s.lowTight ? Number(lowText[pos]) : 0;
          const to = s.highTight ? Number(highText[pos]) : 9;
          for (let d = from; d <= to; d++) {
            if (++steps > budget) return false;
            const lowTight = s.lowTight && d === from;
            const highTight = s.highTight && d === to;
            const f = a.compose(s.f, digits[d]!);
            const k = `${lowTight}|${highTight}|${a.key(f)}`;
            if (!next.has(k)) next.set(k, { lowTight, highTight, f, text: s.text + d });
          }
        }
        layer = next;
      }
      for (const s of layer.values()) add(s.f, sign * BigInt(s.text));
    }
    return true;
  };
  const minus = a.functionOf('-');
  // the negative integers of the range: magnitudes from max(1, -hi) to -lo
  if (lo === null || lo < 0n) {
    const from = hi !== null && hi < 0n ? -hi : 1n;
    const to = lo === null ? null : -lo;
    if ((to === null || from <= to) && !magnitudes(from, to, minus, -1n)) return undefined;
  }
  if (hi === null || hi >= 0n) {
    const from = lo !== null && lo > 0n ? lo : 0n;
    if ((hi === null || from <= hi) && !magnitudes(from, hi, a.identity, 1n)) return undefined;
  }
  return out;
}
