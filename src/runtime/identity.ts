/**
 * One normalisation of identities (principals and approvers), used by the runtime, every store and
 * the operator CLI, so that `Alice`, `alice `, `alice\u200b`, `ＡＬＩＣＥ` and `ALICE` are one person.
 * Pure string functions: safe in a browser (no Node built-ins).
 *
 * normaliseIdentity(raw):
 *   1. Unicode NFKC (compatibility forms: fullwidth `ＡＬＩＣＥ` -> `ALICE`, ligatures, …);
 *   2. invisible characters removed: every Default_Ignorable_Code_Point (zero-width space and
 *      joiners, soft hyphen, variation selectors, …) and every Bidi_Control character;
 *   3. full case fold (upper- then lower-case, so `ß` and `SS` fold alike), then NFKC again;
 *   4. surrounding whitespace trimmed.
 * An identity with a control character (C0, DEL, C1, line/paragraph separator, lone surrogate) is
 * refused, not cleaned: it is a bug or an attack, and silently dropping it would hide that.
 */

const CONTROL = /[\p{Cc}\p{Zl}\p{Zp}\p{Cs}]/u;
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}]/gu;

export type IdentityCheck = { ok: true; value: string } | { ok: false; problem: 'blank' | 'control_character' | 'not_a_string' };

/** Normalises an identity, or says why it is refused (blank after normalisation, control characters). */
export function checkIdentity(raw: unknown): IdentityCheck {
  if (typeof raw !== 'string') return { ok: false, problem: 'not_a_string' };
  if (CONTROL.test(raw)) return { ok: false, problem: 'control_character' };
  const value = normaliseIdentity(raw);
  if (value === '') return { ok: false, problem: 'blank' };
  return { ok: true, value };
}

// Printable ASCII: NFKC leaves it as it is, it holds no invisible or bidi character, and its full
// case fold is its lower case, so its normal form is lower-cased and trimmed (no Unicode tables).
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** The normal form of an identity (see the module comment). Total: never throws on a string. */
export function normaliseIdentity(raw: string): string {
  if (PRINTABLE_ASCII.test(raw)) return raw.toLowerCase().trim();
  return raw.normalize('NFKC').replace(INVISIBLE, '').toUpperCase().toLowerCase().normalize('NFKC').replace(INVISIBLE, '').trim();
}

/** Two identities name the same person after normalisation. */
export function sameIdentity(a: string, b: string): boolean {
  return normaliseIdentity(a) === normaliseIdentity(b);
}

/** What a refused identity looks like, for error messages. */
export function identityProblemText(problem: Exclude<IdentityCheck, { ok: true }>['problem']): string {
  switch (problem) {
    case 'blank':
      return 'it is blank (empty after normalisation: whitespace and invisible characters only)';
    case 'control_character':
      return 'it holds a control character (newline, escape, …)';
    case 'not_a_string':
      return 'it is not a string';
  }
}
