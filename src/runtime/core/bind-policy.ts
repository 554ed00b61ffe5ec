import type { Control } from '../control.js';
import { CtrlrunError } from '../errors.js';
import { INTERNALS, type ControlInternals } from '../internals.js';
import type { CompiledPolicy } from '../types.js';

/** Binds `policy` to `control` (each door's binder calls it); a second policy with another hash is an error. */
export function bindPolicy(control: Control, policy: CompiledPolicy, who: string): ControlInternals {
  const internals = control?.[INTERNALS];
  if (!internals) throw new CtrlrunError(`${who}: the first argument must be a Control made by createControl().`);
  if (!policy || typeof policy.hash !== 'string' || typeof policy.actions !== 'object') {
    throw new CtrlrunError(`${who}: the policy is missing or not a compiled policy; regenerate with \`ctrlrun-gen generate\`.`);
  }
  if (internals.policy && internals.policy.hash !== policy.hash) {
    throw new CtrlrunError(
      `${who}: this control is already bound to policy ${internals.policy.hash.slice(0, 12)}, not ${policy.hash.slice(0, 12)}. One control serves one policy: use a second control.`,
    );
  }
  internals.policy = policy;
  return internals;
}
