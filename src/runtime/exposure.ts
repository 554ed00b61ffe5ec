import { coversRun, expired, taskHolds } from './authority.js';
import type { Who } from './internals.js';
import type { CompiledPolicy } from './types.js';

/**
 * Least exposure at run time: whether the policy lets this run's principal use an action at all,
 * for some arguments. The arguments' part was decided exactly when the module was generated
 * (`exposure` on the compiled action: no call passes the rules, or a grant never authorizes one);
 * the run's part is decided here by the authority stage's own predicates: the grant's subject,
 * actions and environments, its expiry, its tasks. A tool no call of which could pass is not offered
 * to the model (the SDK's `isEnabled`), so the model cannot plan with it. Pure.
 */
export function usableBy(policy: CompiledPolicy, action: string, who: Who, environment: string, task: string | null, now: number): boolean {
  if (policy.mode !== 'enforce') return true; // observe mode refuses nothing
  const compiled = policy.actions[action];
  if (!compiled || compiled.exposure?.never === true) return false;
  if (!policy.authority) return true;
  const dead = compiled.exposure?.deadGrants ?? [];
  return policy.authority.grants.some((g) => !dead.includes(g.id) && coversRun(g, who.subject, action, environment) && !expired(g, now) && taskHolds(g, task));
}

/**
 * Whether anything about the action can depend on who runs it or be hidden at all (else the tool
 * needs no check): exactly when `usableBy` can answer no. An action the policy does not list (an MCP
 * or sandbox tool no manifest entry maps) is denied for every input (`unknown_action`), so it is
 * hidden too: a tool nobody reviewed never reaches the model, description and all.
 */
export function mayHide(policy: CompiledPolicy, action: string): boolean {
  if (policy.mode !== 'enforce') return false;
  const compiled = policy.actions[action];
  return Boolean(policy.authority) || !compiled || compiled.exposure?.never === true;
}
