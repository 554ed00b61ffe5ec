/**
 * CTRLRun's grant patterns (`support`, `dana@*`, `payment:*`, `refund-run:**`) as automata over the
 * characters of a string, so the decision procedure can reason about every string at once: which
 * patterns a free string (an agent, a user, a task) can match together, and which strings behave
 * alike inside a rendered resource (`payment:{payment_id}`), where a placeholder's text is pasted
 * between literal parts. Two texts that move every automaton's every state to the same state are
 * interchangeable in any context (their transition functions are equal), so one text per function
 * stands for all of them. Pure; the same matching as `patternMatches` (runtime/authority.ts).
 */

/** An automaton recognising one pattern: states are small integers, 0 the dead state. */
export interface Automaton {
  readonly size: number;
  readonly start: number;
  step(state: number, ch: string): number;
  accepting(state: number): boolean;
}

const DEAD = 0;
const ALL = 1;

/**
 * The automaton of `pattern` (separator null: a subject pattern, one segment). A segment is a
 * literal or a literal then one `*` (any characters but the separator); a final `**` after literal
 * segments matches one more separator and anything after it.
 */
export function patternAutomaton(pattern: string, separator: '.' | ':' | null): Automaton {
  const segments = separator === null ? [pattern] : pattern.split(separator);
  const deep = segments[segments.length - 1] === '**';
  const literal = deep ? segments.slice(0, -1) : segments;
  if (deep && literal.length === 0) return { size: 2, start: ALL, step: () => ALL, accepting: (s) => s === ALL };
  const stems = literal.map((s) => (s.endsWith('*') ? s.slice(0, -1) : s));
  const open = literal.map((s) => s.endsWith('*'));
  // state (i, j): j characters of segment i's stem read; numbered 2.. in order
  const base: number[] = [];
  let next = 2;
  for (const stem of stems) {
    base.push(next);
    next += stem.length + 1;
  }
  const at = (s: number): [number, number] => {
    let i = base.length - 1;
    while (base[i]! > s) i -= 1;
    return [i, s - base[i]!];
  };
  const complete = (i: number, j: number) => j === stems[i]!.length;
  const step = (s: number, ch: string): number => {
    if (s === DEAD || s === ALL) return s;
    const [i, j] = at(s);
    if (separator !== null && ch === separator) {
      if (!complete(i, j)) return DEAD;
      if (i + 1 < stems.length) return base[i + 1]!;
      return deep ? ALL : DEAD;
    }
    const stem = stems[i]!;
    if (j < stem.length) return stem[j] === ch ? s + 1 : DEAD;
    return open[i] ? s : DEAD;
  };
  const accepting = (s: number): boolean => {
    if (s === ALL) return true;
    if (s === DEAD || deep) return false;
    const [i, j] = at(s);
    return i === stems.length - 1 && complete(i, j);
  };
  return { size: next, start: base[0]!, step, accepting };
}

/** Beyond this many classes a family is refused rather than analysed for minutes. */
export const CLASS_LIMIT = 20_000;

export class TooComplex extends Error {}

/** A character used by none of the given texts: it stands for every such character. */
export function otherChar(texts: readonly string[]): string {
  const used = new Set(texts.join(''));
  for (const c of 'xyzqkwXYZQ#~') if (!used.has(c)) return c;
  for (let code = 0xe000; ; code++) if (!used.has(String.fromCharCode(code))) return String.fromCharCode(code);
}

/** Several patterns read together: the states of all of them at once. */
export class PatternFamily {
  readonly alphabet: string[];

  /** `texts`: the patterns (their characters are the ones that matter); `separator`: the one they split on, written in them or not. */
  constructor(
    readonly automata: readonly Automaton[],
    texts: readonly string[],
    separator: string | null,
  ) {
    const chars = [...texts, separator ?? ''];
    // the character no pattern uses first: a plain word stands for "any other" value
    this.alphabet = [...new Set([otherChar(chars), ...chars.join('')])];
  }

  /** Which automata accept `text`. */
  matches(text: string): boolean[] {
    return this.automata.map((a) => a.accepting(stepText(a, a.start, text)));
  }

  /**
   * One shortest string for every combination of states the automata can reach together from their
   * starts: every set of patterns some string matches together is matched by one of them.
   */
  freeStrings(): string[] {
    const start = this.automata.map((a) => a.start);
    const seen = new Map<string, string>([[start.join(','), '']]);
    const queue: Array<[number[], string]> = [[start, '']];
    while (queue.length > 0) {
      const [states, text] = queue.shift()!;
      for (const ch of this.alphabet) {
        const moved = states.map((s, i) => stepText(this.automata[i]!, s, ch));
        const key = moved.join(',');
        if (seen.has(key)) continue;
        if (seen.size >= CLASS_LIMIT) throw new TooComplex('the patterns combine into too many classes of strings');
        seen.set(key, text + ch);
        queue.push([moved, text + ch]);
      }
    }
    return [...seen.values()];
  }

  /** The transition function of a text: where it moves every state of every automaton (its key). */
  functionOf(text: string): string {
    return fnKey(this.automata.map((a) => Array.from({ length: a.size }, (_, s) => stepText(a, s, text))));
  }

  /**
   * Strings pasted into a rendered text: one for every transition function a string can have
   * together with every way it can relate to `constants` (equal to one of them, or to none): a
   * breadth-first search over the product of the functions and a trie of the constants.
   */
  pastedStrings(constants: readonly string[]): string[] {
    const trie = new Trie(constants);
    const seen = new Map<string, string>();
    const queue: Array<[number[][], number, string]> = [];
    const visit = (fn: number[][], node: number, text: string): void => {
      const key = `${fnKey(fn)}#${node}`;
      if (seen.has(key)) return;
      if (seen.size >= CLASS_LIMIT) throw new TooComplex('the patterns combine into too many classes of strings');
      seen.set(key, text);
      queue.push([fn, node, text]);
    };
    visit(
      this.automata.map((a) => Array.from({ length: a.size }, (_, s) => s)),
      0,
      '',
    );
    // code points, never a lone surrogate (a constant may hold one): the runtime refuses a string holding one
    const alphabet = [...new Set([...this.alphabet, ...constants.join('')])].filter((ch) => !/\p{Cs}/u.test(ch));
    while (queue.length > 0) {
      const [fn, node, text] = queue.shift()!;
      for (const ch of alphabet) {
        visit(this.after(fn, ch), trie.step(node, ch), text + ch);
      }
    }
    return [...seen.values()];
  }

  /**
   * Integers pasted into a rendered text: for each interval (ends included, null unbounded), one
   * integer of it for every transition function its decimal text can have there.
   */
  pastedIntegers(intervals: ReadonlyArray<readonly [bigint | null, bigint | null]>): bigint[] {
    const out: bigint[] = [];
    for (const [lo, hi] of intervals) {
      // the negative part as `-` and a magnitude, the rest as the magnitude itself
      if (lo === null || lo < 0n) for (const m of this.magnitudes(hi === null || hi >= 0n ? 1n : -hi, lo === null ? null : -lo, '-')) out.push(-m);
      if (hi === null || hi >= 0n) for (const m of this.magnitudes(lo === null || lo < 0n ? 0n : lo, hi, '')) out.push(m);
    }
    return out;
  }

  /** Where `text` moves each state of `fn`'s results. */
  private after(fn: readonly number[][], text: string): number[][] {
    return fn.map((f, i) => f.map((s) => stepText(this.automata[i]!, s, text)));
  }

  /** Magnitudes in [a, b] (b null: unbounded), one for each function `sign` then the digits can have. */
  private magnitudes(a: bigint, b: bigint | null, sign: string): bigint[] {
    if (b !== null && b < a) return [];
    const start = this.after(
      this.automata.map((x) => Array.from({ length: x.size }, (_, s) => s)),
      sign,
    );
    const found = new Map<string, bigint>();
    const add = (classes: Classes) => {
      for (const [k, [, v]] of classes) if (!found.has(k)) found.set(k, v);
      if (found.size > CLASS_LIMIT) throw new TooComplex('the patterns combine into too many classes of integers');
    };
    if (a === 0n) add(new Map([[fnKey(this.after(start, '0')), [this.after(start, '0'), 0n]]]));
    const from = a === 0n ? 1n : a;
    if (b !== null && b < from) return [...found.values()];
    // every number of a length, without leading zero: the next length's follow from these
    let every: Classes = new Map();
    for (let d = 1n; d <= 9n; d++) {
      const fn = this.after(start, String(d));
      every.set(fnKey(fn), [fn, d]);
    }
    const seen = new Set<string>();
    for (let length = 1; b === null || length <= b.toString().length; length++) {
      if (length > 1) every = this.extend(every);
      if (length < from.toString().length) continue;
      const low = 10n ** BigInt(length - 1);
      const high = 10n ** BigInt(length) - 1n;
      const lo = from > low ? from : low;
      const hi = b !== null && b < high ? b : high;
      if (lo > hi) continue;
      if (lo === low && hi === high) add(every);
      else add(this.digitsBetween(start, lo, hi, length));
      if (b === null && lo === low) {
        // unbounded: the classes of every longer length repeat with a period; stop at the first repeat
        const signature = [...every.keys()].sort().join(';');
        if (seen.has(signature)) break;
        seen.add(signature);
      }
    }
    return [...found.values()];
  }

  /** The functions of the numbers one digit longer than `classes`' numbers (one number each). */
  private extend(classes: Classes): Classes {
    const out: Classes = new Map();
    for (const [fn, value] of classes.values()) {
      for (let d = 0n; d <= 9n; d++) {
        const moved = this.after(fn, String(d));
        const k = fnKey(moved);
        if (!out.has(k)) out.set(k, [moved, value * 10n + d]);
      }
    }
    return out;
  }

  /** The functions of `start` then the digits of each `length`-digit number in [from, to], one number each (a digit DP). */
  private digitsBetween(start: number[][], from: bigint, to: bigint, length: number): Classes {
    const lo = from.toString().padStart(length, '0');
    const hi = to.toString().padStart(length, '0');
    const out: Classes = new Map();
    const seen = new Set<string>();
    const walk = (pos: number, fn: number[][], tightLo: boolean, tightHi: boolean, value: bigint): void => {
      const k = fnKey(fn);
      if (pos === length) {
        if (!out.has(k)) out.set(k, [fn, value]);
        return;
      }
      const memo = `${pos}#${tightLo ? 1 : 0}${tightHi ? 1 : 0}#${k}`;
      if (seen.has(memo)) return;
      seen.add(memo);
      const min = tightLo ? Number(lo[pos]) : 0;
      const max = tightHi ? Number(hi[pos]) : 9;
      for (let d = min; d <= max; d++) walk(pos + 1, this.after(fn, String(d)), tightLo && d === min, tightHi && d === max, value * 10n + BigInt(d));
    };
    walk(0, start, true, true, 0n);
    return out;
  }
}

/** Transition functions (by key) with one number that has each. */
type Classes = Map<string, [number[][], bigint]>;

function fnKey(fn: readonly number[][]): string {
  return fn.map((f) => f.join(',')).join('|');
}

/** The state `text` leads to from `state`, one UTF-16 unit at a time (as `startsWith` and `===` compare). */
export function stepText(a: Automaton, state: number, text: string): number {
  let s = state;
  for (let i = 0; i < text.length; i++) s = a.step(s, text[i]!);
  return s;
}

/** A trie of constant strings (by code point), as an automaton: node 0 the root, -1 off the trie. */
class Trie {
  private readonly edges = new Map<string, number>();
  private size = 1;

  constructor(words: readonly string[]) {
    for (const w of words) {
      let node = 0;
      for (const point of w) {
        const k = `${node}:${point}`;
        let n = this.edges.get(k);
        if (n === undefined) {
          n = this.size++;
          this.edges.set(k, n);
        }
        node = n;
      }
    }
  }

  /** One code point on. */
  step(node: number, point: string): number {
    return node < 0 ? -1 : (this.edges.get(`${node}:${point}`) ?? -1);
  }
}
