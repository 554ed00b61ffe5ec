import { UserError } from './diagnostics.js';
import { checkIdentity, identityProblemText } from './runtime/identity.js';

/**
 * Text an operator's terminal must not obey. What the store holds was partly chosen by the model
 * (effect keys, arguments, call ids, error text) and the store may have been written by anyone
 * with access: printed raw, an ESC sequence clears the screen, a newline forges a table row, a bidi
 * control reorders what follows. Pure functions.
 */

/** Characters that change how a terminal shows what follows, or that cannot be seen. */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Default_Ignorable_Code_Point}\p{Bidi_Control}]/u;
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'gu');
/** The same, but a newline: JSON.stringify escapes those inside strings, so a raw one is its own indentation. */
const UNSAFE_IN_JSON = /(?!\n)[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Default_Ignorable_Code_Point}\p{Bidi_Control}]/gu;

/** Opens and closes model-chosen text that had to be escaped. */
export const MARK_OPEN = '«';
export const MARK_CLOSE = '»';
export const MARK_NOTE = `${MARK_OPEN}…${MARK_CLOSE} marks stored text with control, invisible or bidi characters, shown escaped (\\u{…}); it was not written by ctrlrun-gen.`;

/**
 * Text safe to print: unchanged when it holds nothing unsafe; else every unsafe character (and
 * every backslash, so an escape cannot be forged) is written as an escape and the whole is marked.
 */
export function terminalSafe(text: string): { text: string; marked: boolean } {
  if (!UNSAFE.test(text) && !text.includes(MARK_OPEN) && !text.includes(MARK_CLOSE)) return { text, marked: false };
  const escaped = text.replace(/\\/g, '\\\\').replace(UNSAFE_ALL, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
  return { text: `${MARK_OPEN}${escaped}${MARK_CLOSE}`, marked: true };
}

/**
 * `terminalSafe` line by line: the text's own newlines stay (a multi-line hint of ours), every
 * other unsafe character within a line is escaped and that line marked.
 */
export function terminalSafeLines(text: string): { text: string; marked: boolean } {
  let marked = false;
  const lines = text.split('\n').map((line) => {
    const out = terminalSafe(line);
    marked ||= out.marked;
    return out.text;
  });
  return { text: lines.join('\n'), marked };
}

/**
 * Source text for a code frame: every unsafe character but newline and tab written as `\u{…}`
 * (a backslash stays itself: the frame shows the file's own text, never stored data to be read back).
 */
export function escapedSource(text: string): string {
  return UNSAFE.test(text) ? text.replace(UNSAFE_ALL, (c) => (c === '\n' || c === '\t' || c === '\r' ? c : `\\u{${c.codePointAt(0)!.toString(16)}}`)) : text;
}

/** Collects whether anything was marked while printing, for one note at the end. */
export function safePrinter() {
  let marked = false;
  return {
    show(text: string): string {
      const out = terminalSafe(text);
      marked ||= out.marked;
      return out.text;
    },
    get marked() {
      return marked;
    },
    /** The note to append when something was marked (with its newline), else ''. */
    note(): string {
      return marked ? `${MARK_NOTE}\n` : '';
    },
  };
}

/**
 * JSON for a terminal: JSON.stringify already escapes C0 controls; this also escapes DEL, C1
 * controls, line/paragraph separators, bidi and invisible characters (still valid JSON, same value).
 */
export function terminalJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(UNSAFE_IN_JSON, (c) =>
    [...Array(c.length).keys()].map((i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''),
  );
}

/**
 * A name or reason an operator typed (`--as`, `--reason`): trimmed; refused (exit 2) when it holds
 * a control, bidi or invisible character, which could forge a line or reorder what others read.
 */
export function operatorText(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined;
  const bad = UNSAFE.exec(value);
  if (bad) {
    const code = `U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    throw new UserError(`${flag}: holds a control, invisible or bidi character (${code}); refused.\nhint: type the text on one line, without escape sequences`);
  }
  return value.trim();
}

/** An operator's name (`--as`): operatorText, then the runtime's identity normalisation (so `BOB` is `bob`). */
export function operatorName(value: string, flag: string): string {
  const checked = checkIdentity(operatorText(value, flag));
  if (!checked.ok)
    throw new UserError(`${flag}: name who answers (it is recorded), e.g. ${flag} bob; this one is refused: ${identityProblemText(checked.problem)}.`);
  return checked.value;
}
