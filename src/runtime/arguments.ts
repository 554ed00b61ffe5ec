import { parse as parseLossless } from 'lossless-json';

/**
 * The model's arguments as CTRLRun 0.12.2 reads them: JSON text parsed without losing a digit,
 * then checked as CTRLRun checks an action's arguments before anything decides:
 *
 * - the arguments are a JSON object (an array, a string, a number, `null` are refused);
 * - an integer is exact at any size: a safe integer arrives as a `number`, a larger one as a
 *   `bigint` (so `===` compares integers exactly, the policy's operands being normalized alike);
 * - a float anywhere (`1.0`, `2.5`, `1e3`, `1e400`), even in an argument no rule reads, refuses
 *   the whole call (CTRLRun's `InvalidArgument`);
 * - a string or key that UTF-8 cannot encode (a lone surrogate such as `"\ud800"`) refuses it too.
 *
 * Refused arguments never reach a decision function, a template or a tool body.
 */

/**
 * A refusal keeps `named`: the arguments as named values when they are a JSON object (a float kept
 * as a `FloatText`, which renders in no template), because CTRLRun resolves an action's resource from
 * its named arguments before it checks their values (`resource_template` comes before
 * `invalid_argument`: `decideArguments`).
 */
export type ArgumentsCheck = { ok: true; value: Record<string, unknown> } | { ok: false; detail: string; named?: Record<string, unknown> };

/** A float argument's JSON text, where a refused call's arguments are still read by name. */
export class FloatText {
  constructor(readonly text: string) {}
}

/** A JSON integer literal (what Python's `json.loads` makes an `int`); anything else numeric is a float. */
const INTEGER_LITERAL = /^-?(?:0|[1-9][0-9]*)$/;

/** The most characters of an integer literal that `Number` reads exactly (under 10^15). */
const SHORT_INTEGER = 15;

class FloatArgument extends Error {}

function parseNumber(text: string): unknown {
  if (!INTEGER_LITERAL.test(text)) throw new FloatArgument(text);
  // under 10^15, a safe integer, no BigInt needed (`+ 0` makes `-0` the 0 integerValue gives)
  if (text.length <= SHORT_INTEGER) return Number(text) + 0;
  return integerValue(text);
}

/** The normalized representation of an exact integer: a `number` when safe, else a `bigint`. */
export function integerValue(text: string | bigint): number | bigint {
  const big = typeof text === 'bigint' ? text : BigInt(text);
  if (big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(big);
  return big;
}

/** Parses the model's JSON arguments losslessly and checks them (see the module comment). Never throws. */
export function parseArguments(raw: string): ArgumentsCheck {
  const scan = scanText(raw, true);
  if (scan === TOO_DEEP) return { ok: false, detail: DEEP_DETAIL };
  const plain = scan === NOT_PLAIN ? undefined : parsedPlainly(raw, scan);
  return plain === undefined ? parsedLosslessly(raw) : checkArguments(plain);
}

/**
 * The lossless parse alone, with the depth check before it: what `parseArguments` gives for any
 * text (its `JSON.parse` path is only a faster way to the same value, and a test holds them equal).
 */
export function parseArgumentsLosslessly(raw: string): ArgumentsCheck {
  return scanText(raw, false) === TOO_DEEP ? { ok: false, detail: DEEP_DETAIL } : parsedLosslessly(raw);
}

function parsedLosslessly(raw: string): ArgumentsCheck {
  let value: unknown;
  try {
    value = parseLossless(raw, null, parseNumber);
  } catch (error) {
    if (error instanceof FloatArgument) {
      const detail = `a float is not an allowed argument (${error.message}); integers only (count the smallest unit)`;
      return withNamed({ ok: false, detail }, namedWithFloats(raw));
    }
    return { ok: false, detail: `the arguments are not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  return checkArguments(value);
}

/**
 * `JSON.parse`'s value where it is the lossless parse's: the scan found no number the two read
 * differently, and the value has as many keys as the text (`JSON.parse` keeps the last of a
 * duplicate key, where the lossless parse refuses the text or keeps an equal value). Else
 * undefined, and the lossless parse decides, with its own messages.
 */
function parsedPlainly(raw: string, keysInText: number): unknown {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined; // (JSON.parse never gives undefined itself)
  }
  return keysIn(value) === keysInText ? value : undefined;
}

/** Object keys at any depth (the scan has bounded the depth). */
function keysIn(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  let n = 0;
  if (Array.isArray(value)) {
    for (const v of value) n += keysIn(v);
    return n;
  }
  // (a for-in over own keys, not Object.keys: no key list copied; JSON.parse's objects are plain)
  for (const key in value) if (hasOwn.call(value, key)) n += 1 + keysIn((value as Record<string, unknown>)[key]);
  return n;
}

// `hasOwnProperty.call`, not Object.hasOwn: V8 answers it from the for-in's own cache
const hasOwn = Object.prototype.hasOwnProperty;

/** The JSON text parsed again, floats kept as `FloatText` (only after the lossless parse refused a float). */
function namedWithFloats(raw: string): unknown {
  try {
    return parseLossless(raw, null, (text) => (INTEGER_LITERAL.test(text) ? integerValue(text) : new FloatText(text)));
  } catch {
    return undefined;
  }
}

function withNamed(refused: { ok: false; detail: string }, value: unknown): ArgumentsCheck {
  return isPlainObject(value) ? { ...refused, named: value } : refused;
}

/**
 * Checked arguments as `JSON.parse` would have given them (integers beyond 2^53 as the nearest
 * `number`, which is what `JSON.parse` rounds them to): for the tool's schema and the SDK's view,
 * so the model's text is parsed once per stage. The value itself when it holds no `bigint`.
 */
export function plainArguments(value: unknown): unknown {
  return hasBigint(value, 0) ? toPlain(value, 0) : value;
}

/** Whether a checked value holds a bigint anywhere (JSON.stringify throws on one). */
export function holdsBigint(value: unknown): boolean {
  return hasBigint(value, 0);
}

function hasBigint(value: unknown, depth: number): boolean {
  if (typeof value === 'bigint') return true;
  if (value === null || typeof value !== 'object' || depth > 256) return false;
  if (Array.isArray(value)) {
    for (const v of value) if (hasBigint(v, depth + 1)) return true;
    return false;
  }
  for (const key in value) if (hasOwn.call(value, key) && hasBigint((value as Record<string, unknown>)[key], depth + 1)) return true;
  return false;
}

function toPlain(value: unknown, depth: number): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (value === null || typeof value !== 'object' || depth > 256) return value;
  if (Array.isArray(value)) return value.map((v) => toPlain(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value))
    Object.defineProperty(out, k, { value: toPlain(v, depth + 1), enumerable: true, writable: true, configurable: true });
  return out;
}

/**
 * Checks arguments that are already values (a caller's typed object, or a lossless parse): a plain
 * object whose every value, at any depth, is null, a boolean, a well-formed string, an exact
 * integer (a safe-integer `number` or a `bigint`), an array or a plain object of those. A `number`
 * that is not a safe integer is a float here (its exact value is not known). Never throws.
 */
export function checkArguments(value: unknown): ArgumentsCheck {
  if (!isPlainObject(value)) return { ok: false, detail: `the arguments must be a JSON object, found ${describe(value)}` };
  const problem = problemIn(value, 'arguments', 0);
  if (problem !== null) return { ok: false, detail: problem, named: value };
  return { ok: true, value: value as Record<string, unknown> };
}

const MAX_DEPTH = 512;

const DEEP_DETAIL = `the arguments nest more than ${MAX_DEPTH} levels deep`;

/**
 * Whether JSON text nests arrays/objects deeper than the arguments may (512): a linear scan, run
 * before any recursive parse, schema check, decision or hash sees a 20,000-deep array (which
 * would overflow the stack). Strings are skipped exactly; invalid JSON is left to the parser.
 */
export function jsonDepthProblem(raw: string): string | null {
  return scanText(raw, false) === TOO_DEEP ? DEEP_DETAIL : null;
}

/**
 * `jsonDepthProblem` of the text `check` is `parseArguments` (or `parseArgumentsLosslessly`) of,
 * without scanning it again: both refuse a text that nests too deep before anything else, with
 * this detail, and a text they did not refuse for it is not too deep.
 */
export function depthProblemOf(check: ArgumentsCheck): string | null {
  return !check.ok && check.detail === DEEP_DETAIL ? DEEP_DETAIL : null;
}

const TOO_DEEP = -2;
const NOT_PLAIN = -1;

/**
 * One linear pass over JSON text: TOO_DEEP when it nests deeper than MAX_DEPTH. With `reading`
 * (parseArguments' scan; the depth checks run again on every call, and skip this work): NOT_PLAIN
 * when a number in it is one `JSON.parse` reads otherwise than the lossless parse (a float, `-0`,
 * an integer over 15 characters), else how many object keys it has (a string before a colon).
 */
function scanText(raw: string, reading: boolean): number {
  let depth = 0;
  let keys = 0;
  let plain = reading;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < raw.length; i++) {
        const d = raw.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
      if (plain && raw.charCodeAt(afterSpace(raw, i + 1)) === 0x3a) keys++;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_DEPTH) return TOO_DEEP;
    } else if (c === 0x5d || c === 0x7d) depth--;
    else if (plain && (c === 0x2d || (c >= 0x30 && c <= 0x39))) {
      const end = numberEnd(raw, i);
      plain = readsAlike(raw, i, end);
      i = end - 1;
    }
  }
  return plain ? keys : NOT_PLAIN;
}

function afterSpace(raw: string, i: number): number {
  let j = i;
  for (let c = raw.charCodeAt(j); c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; c = raw.charCodeAt(++j));
  return j;
}

/** Where a number token starting at `i` ends: its digits, sign, point and exponent characters. */
function numberEnd(raw: string, i: number): number {
  let j = i + 1;
  for (let c = raw.charCodeAt(j); (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d; c = raw.charCodeAt(++j));
  return j;
}

/**
 * Whether the number token `raw[start, end)` is one `JSON.parse` reads as `parseNumber` does: an
 * integer literal (`INTEGER_LITERAL`) of at most SHORT_INTEGER characters, not `-0`. Read in place,
 * no slice and no pattern: it runs for every number of every call's text.
 */
function readsAlike(raw: string, start: number, end: number): boolean {
  if (end - start > SHORT_INTEGER) return false;
  let i = raw.charCodeAt(start) === 0x2d ? start + 1 : start;
  if (i === end) return false;
  const first = raw.charCodeAt(i);
  // a leading 0 is the literal 0 alone, and `-0` is a float's zero to JSON.parse
  if (first === 0x30) return i + 1 === end && i === start;
  if (first < 0x31 || first > 0x39) return false;
  for (i++; i < end; i++) {
    const c = raw.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

/** A surrogate code unit that is not half of a pair (what UTF-8 cannot encode). */
const LONE_SURROGATE = /\p{Cs}/u;

function problemIn(value: unknown, path: string, depth: number): string | null {
  if (depth > MAX_DEPTH) return `${path} nests too deeply`;
  switch (typeof value) {
    case 'string':
      return !LONE_SURROGATE.test(value) ? null : `${path} holds a string UTF-8 cannot encode (a lone surrogate)`;
    case 'boolean':
    case 'bigint':
      return null;
    case 'number':
      return Number.isSafeInteger(value) ? null : `a float is not an allowed argument (${path} is ${String(value)}); integers only (count the smallest unit)`;
    case 'object': {
      if (value === null) return null;
      // a member's path is written only for a member that is not plainly fine (its problem names it):
      // checked on every stage of every call, most members are
      const inner = depth < MAX_DEPTH;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          if (inner && plainlyFine(value[i])) continue;
          const p = problemIn(value[i], `${path}[${i}]`, depth + 1);
          if (p !== null) return p;
        }
        return null;
      }
      if (!isPlainObject(value)) return `${path} is not a JSON value`;
      for (const key in value) {
        if (!hasOwn.call(value, key)) continue; // (a plain object's own keys, no key list copied)
        if (LONE_SURROGATE.test(key)) return `${path} has a key UTF-8 cannot encode (a lone surrogate)`;
        const member = (value as Record<string, unknown>)[key];
        if (inner && plainlyFine(member)) continue;
        const p = problemIn(member, `${path}.${key}`, depth + 1);
        if (p !== null) return p;
      }
      return null;
    }
    default:
      return `${path} is not a JSON value (${typeof value})`;
  }
}

/** A scalar `problemIn` finds nothing in (at a depth it may be at): null, a boolean, a bigint, a safe integer, a well-formed string. */
function plainlyFine(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
      return !LONE_SURROGATE.test(value);
    case 'boolean':
    case 'bigint':
      return true;
    case 'number':
      return Number.isSafeInteger(value);
    default:
      return value === null;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
