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

class FloatArgument extends Error {}

function parseNumber(text: string): unknown {
  if (!INTEGER_LITERAL.test(text)) throw new FloatArgument(text);
  // at most 15 characters: under 10^15, a safe integer, no BigInt needed (`+ 0` makes `-0` the 0 integerValue gives)
  if (text.length <= 15) return Number(text) + 0;
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
  const deep = jsonDepthProblem(raw);
  if (deep !== null) return { ok: false, detail: deep };
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

function hasBigint(value: unknown, depth: number): boolean {
  if (typeof value === 'bigint') return true;
  if (value === null || typeof value !== 'object' || depth > 256) return false;
  for (const v of Array.isArray(value) ? value : Object.values(value)) if (hasBigint(v, depth + 1)) return true;
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

/**
 * Whether JSON text nests arrays/objects deeper than the arguments may (512): a linear scan, run
 * before any recursive parse, schema check, decision or hash sees a 20,000-deep array (which
 * would overflow the stack). Strings are skipped exactly; invalid JSON is left to the parser.
 */
export function jsonDepthProblem(raw: string): string | null {
  let depth = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < raw.length; i++) {
        const d = raw.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_DEPTH) return `the arguments nest more than ${MAX_DEPTH} levels deep`;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return null;
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
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const p = problemIn(value[i], `${path}[${i}]`, depth + 1);
          if (p !== null) return p;
        }
        return null;
      }
      if (!isPlainObject(value)) return `${path} is not a JSON value`;
      for (const key of Object.keys(value)) {
        if (LONE_SURROGATE.test(key)) return `${path} has a key UTF-8 cannot encode (a lone surrogate)`;
        const p = problemIn((value as Record<string, unknown>)[key], `${path}.${key}`, depth + 1);
        if (p !== null) return p;
      }
      return null;
    }
    default:
      return `${path} is not a JSON value (${typeof value})`;
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
