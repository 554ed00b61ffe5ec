/**
 * The scanner's one reader of JSON with comments and trailing commas (tsconfig, package.json, a
 * Deno config or import map). `parseJsonc` gives the value; `parseJsoncObject` also says where and
 * why a config the user is told about is no JSON object.
 */
import { typescript } from './typescript.js';

/** JSON with comments and trailing commas (tsconfig), parsed; undefined when it does not parse. */
export function parseJsonc(text: string): unknown {
  let out = '';
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === '"') {
      const start = i++;
      while (i < n && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      out += text.slice(start, ++i);
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      i = text.indexOf('*/', i + 2);
      i = i < 0 ? n : i + 2;
    } else {
      // a trailing comma goes here, outside strings: a string holding `,}` keeps it
      if (c === '}' || c === ']') out = withoutTrailingComma(out);
      out += c;
      i++;
    }
  }
  try {
    return JSON.parse(out);
  } catch {
    return undefined;
  }
}

/** `out` without a comma that ends it (white space after the comma kept). */
function withoutTrailingComma(out: string): string {
  let j = out.length - 1;
  while (j >= 0 && /\s/.test(out[j]!)) j--;
  return out[j] === ',' ? out.slice(0, j) + out.slice(j + 1) : out;
}

/** Where a text is no JSON object, and why. */
export interface JsoncError {
  /** Offset in the text, and the 1-based line and column of it. */
  offset: number;
  line: number;
  column: number;
  /** The value at the top level is no object (else: a syntax error, `reason`). */
  rootNotObject: boolean;
  /** The parser's words (TypeScript's JSON parser). */
  reason: string;
}

/**
 * The text as a JSON object, or where and why not. The text goes through `parseJsonc` first; one it
 * refuses, or whose top level is no object, is read again by TypeScript's JSON parser (loaded only
 * then), whose first diagnostic locates the problem; where it sees none (an empty text, a hex
 * number), its value is the answer. `file` names the text in TypeScript's diagnostics.
 */
export function parseJsoncObject(file: string, text: string): { value: Record<string, unknown>; error?: undefined } | { value?: undefined; error: JsoncError } {
  const quick = parseJsonc(text);
  if (quick !== null && typeof quick === 'object' && !Array.isArray(quick)) return { value: quick as Record<string, unknown> };
  const { config, error } = typescript.parseConfigFileTextToJson(file, text);
  if (!error) return { value: config as Record<string, unknown> };
  const offset = error.start ?? 0;
  const reason = typescript.flattenDiagnosticMessageText(error.messageText, ' ');
  return { error: { offset, ...lineAndColumn(text, offset), rootNotObject: error.code === ROOT_NOT_OBJECT, reason } };
}

/** TypeScript's diagnostic "The root value of a '{0}' file must be an object." */
const ROOT_NOT_OBJECT = 5092;

/** The 1-based line and column of an offset in `text`. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}
