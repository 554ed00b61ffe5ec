import { UserError } from '../diagnostics.js';

/**
 * The one place serve and `operators` turn a typed or proxied name into an identity.
 * Same normal form the runtime compares principals and approvers with (NFKC, invisible
 * characters removed, case folded, trimmed); blank names and control characters are refused.
 */
const CONTROL = /[\p{Cc}\p{Zl}\p{Zp}\p{Cs}]/u;
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}]/gu;

export function normaliseName(raw: string): string {
  return raw.normalize('NFKC').replace(INVISIBLE, '').toUpperCase().toLowerCase().normalize('NFKC').replace(INVISIBLE, '').trim();
}

/** The normalised name, or undefined when it is blank or holds control characters. */
export function tryName(raw: string): string | undefined {
  if (CONTROL.test(raw)) return undefined;
  const value = normaliseName(raw);
  return value === '' || value.length > 200 ? undefined : value;
}

export function checkName(raw: string, what: string): string {
  const value = tryName(raw);
  if (value === undefined) throw new UserError(`${what}: ${JSON.stringify(raw)} is not a usable identity (blank, too long, or it holds a control character).\nhint: use the person's login or e-mail, e.g. bob@example.com`);
  return value;
}
