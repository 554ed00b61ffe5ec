import { UserError } from '../diagnostics.js';
import { checkIdentity, identityProblemText } from '../runtime/identity.js';

/**
 * The one place serve and `operators` turn a typed or proxied name into an identity: the runtime's
 * own normalisation (checkIdentity), so an operator's name compares with principals and approvers
 * as the stores compare them. Names over 200 characters are refused too.
 */
export function tryName(raw: string): string | undefined {
  const checked = checkIdentity(raw);
  return checked.ok && checked.value.length <= 200 ? checked.value : undefined;
}

export function checkName(raw: string, what: string): string {
  const checked = checkIdentity(raw);
  if (checked.ok && checked.value.length <= 200) return checked.value;
  const why = checked.ok ? 'it is over 200 characters' : identityProblemText(checked.problem);
  throw new UserError(`${what}: ${JSON.stringify(raw)} is not a usable identity: ${why}.\nhint: use the person's login or e-mail, e.g. bob@example.com`);
}
