import { canonicalHash } from '../runtime/canonical.js';
import type { Condition, Policy, PolicyAction, Template } from './types.js';

/** Bumped if the projection below ever changes, so old and new hashes never collide. */
export const POLICY_HASH_FORMAT = 'ctrlrun-gen.policy-hash/1';

/**
 * What the policy hash covers: the normalized policy's meaning and nothing of its spelling. No
 * source locations, no file name, no schema version (a file that only bumps `schema:` decides the
 * same way); `when` entries sorted by key and action `controls` sorted (both are unordered sets);
 * rule order kept (first match wins). Templates hash as their source text.
 */
export function policyHashInput(policy: Pick<Policy, 'mode' | 'environment' | 'controls' | 'actions'>): unknown {
  return {
    format: POLICY_HASH_FORMAT,
    mode: policy.mode,
    environment: policy.environment,
    controls: Object.fromEntries(
      Object.values(policy.controls).map((c) => [c.id, { title: c.title, approverRole: c.approverRole }]),
    ),
    actions: Object.fromEntries(Object.values(policy.actions).map((a) => [a.id, actionHashInput(a)])),
  };
}

function actionHashInput(action: PolicyAction): unknown {
  return {
    effect: templateSource(action.effect),
    resource: templateSource(action.resource),
    controls: [...action.controls].sort(),
    approvalsRequired: action.approvalsRequired,
    maxAttempts: action.maxAttempts,
    rules: action.rules.map((r) => ({ decision: r.decision, when: [...r.when].sort(byKey).map(conditionHashInput) })),
  };
}

function conditionHashInput(c: Condition): unknown {
  return { arg: c.arg, op: c.op, value: c.value };
}

function byKey(a: Condition, b: Condition): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

function templateSource(t: Template | undefined): string | undefined {
  return t?.source;
}

/** SHA-256 hex of the canonical JSON of `policyHashInput(policy)`. */
export function policyHash(policy: Pick<Policy, 'mode' | 'environment' | 'controls' | 'actions'>): string {
  return canonicalHash(policyHashInput(policy));
}
