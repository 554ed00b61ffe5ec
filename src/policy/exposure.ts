/**
 * Least exposure (issue 38): which actions no call can ever pass, and which grants can never
 * authorize a call of an action, decided exactly from the policy, so that the runtime offers the
 * model only the tools the run's principal may use at all.
 *
 * "Some call passes" means some arguments (a JSON object: no float anywhere) that CTRLRun's
 * evaluation (`evaluate`) does not deny (the templates resolve, a rule that allows or asks a person
 * matches first) and, for a grant, whose resource matches one of its patterns and whose constraints
 * hold. The rest of a grant (its subject, environment, expiry, tasks) depends on the run, not on the
 * arguments: the runtime checks it (runtime/exposure.ts), so it is left out of the question here.
 *
 * Exact, not sampled: the policy diff's decision procedure (exact/) over one version, the action's
 * templates and rules and, for a grant, that grant alone as the authority list; its search cuts
 * every argument's values into classes no predicate tells apart, so it finds a passing call exactly
 * when one exists, and each call it finds is checked by `evaluate` itself. A policy too large to
 * search in the budget answers "usable" (nothing hidden), never a guess the other way.
 */
import { patternMatches } from '../runtime/authority.js';
import { evaluate, holds } from './evaluate.js';
import { variableAtoms } from './exact/atoms.js';
import { argsAt, witnessOf } from './exact/compare.js';
import { outcomes } from './exact/lists.js';
import { actionModel, letsOn } from './exact/model.js';
import { TooComplex } from './exact/patterns.js';
import { search } from './exact/search.js';
import type { Operand, Policy, PolicyAction, PolicyGrant } from './types.js';

/** What the runtime needs to know of an action's exposure (emitted into the generated module when not trivial). */
export interface ActionExposure {
  /** No call of the action passes its rules and templates: nobody may ever use it. */
  never: boolean;
  /** Grants whose actions cover this one but can never authorize a passing call of it (resources, constraints). */
  deadGrants: string[];
}

const SEARCH_BUDGET = 200_000;

/** A call that passes, or null when none does; `undefined`: too large to search (treated as passing). */
export type Witness = Record<string, unknown> | null | undefined;

/** The grants of the policy whose action patterns cover `actionId`. */
export function grantsCovering(policy: Policy, actionId: string): PolicyGrant[] {
  return (policy.authority?.grants ?? []).filter((g) => g.actions.some((p) => patternMatches(p, actionId, '.')));
}

/** `budget`: each search's nodes (past it, the answer is "usable"). */
export function actionExposure(policy: Policy, actionId: string, budget = SEARCH_BUDGET): ActionExposure {
  const never = passingCall(policy, actionId, null, budget) === null;
  if (never) return { never, deadGrants: [] };
  const deadGrants = grantsCovering(policy, actionId)
    .filter((g) => passingCall(policy, actionId, g, budget) === null)
    .map((g) => g.id);
  return { never, deadGrants };
}

/**
 * The grant as far as the arguments go: its resources and constraints. Its subject, environments,
 * expiry and tasks are the run's part, so they must never make it dead.
 */
function argumentPart(grant: PolicyGrant): PolicyGrant {
  return { ...grant, subject: {}, environments: null, expiresAt: null, tasks: null };
}

/**
 * A call of `actionId` that the rules pass (and `grant` authorizes, when given), or null, or
 * undefined past the budget (the search's nodes) or the pattern classes' limit.
 */
export function passingCall(policy: Policy, actionId: string, grant: PolicyGrant | null, budget = SEARCH_BUDGET): Witness {
  const action = Object.hasOwn(policy.actions, actionId) ? policy.actions[actionId] : undefined;
  if (!action) return null;
  // one version whose authority is this grant alone (none: the templates and rules only)
  const { authority: _, ...rest } = policy;
  const side: Policy = grant ? { ...rest, authority: { maxDelegationDepth: 0, grants: [argumentPart(grant)] } } : rest;
  let found: Record<string, Operand> | undefined;
  let steps = 0;
  let emitted = false;
  try {
    const model = actionModel(actionId, [{ policy: side, action }], undefined);
    const atoms = variableAtoms(model, 0);
    const result = search(model, atoms, [model.machines[0]!.lists], {
      // a stage whose every outcome lets the call on passes whatever follows; one with none denies
      judge: (states) => {
        // one call is all the question needs: once a region is emitted, the rest of the walk is cut
        // (the search's region limit would only stop it at a second region)
        if (emitted || ++steps > budget) return 'prune';
        const stages = states[0]!.map((list, stage) => [...outcomes(list)].map((out) => letsOn(stage, out)));
        if (stages.some((s) => !s.includes(true))) return 'prune';
        emitted = stages.every((s) => !s.includes(false));
        return emitted ? 'emit' : 'split';
      },
    });
    const region = result.regions[0];
    if (region) found = argsAt(model, witnessOf(atoms, region.atoms));
  } catch (error) {
    if (error instanceof TooComplex) return undefined;
    throw error;
  }
  if (!found) return steps > budget ? undefined : null;
  if (!passes(policy, action, grant, found)) throw new Error(`least exposure: the decision procedure found a call of ${actionId} that evaluate does not pass`);
  return found;
}

/** Whether the call passes the rules and templates, and the grant's constraints and resources: `evaluate` decides. */
function passes(policy: Policy, action: PolicyAction, grant: PolicyGrant | null, call: Record<string, unknown>): boolean {
  const explained = evaluate(policy, action.id, call);
  if (explained.decision === 'deny') return false;
  if (!grant) return true;
  if (!grant.constraints.every((c) => holds(c, Object.hasOwn(call, c.arg) ? call[c.arg] : undefined))) return false;
  return grant.resources === null || (explained.resource !== null && grant.resources.some((p) => patternMatches(p, explained.resource as string, ':')));
}
