import { canonicalJson, sha256Hex } from '../runtime/canonical.js';
import type { Operand, Policy, PolicyAction, PolicyAuthority } from './types.js';

/** CTRLRun's default environment: a document without `environment:` hashes as `production`. */
export const DEFAULT_ENVIRONMENT = 'production';

type HashSource = Pick<Policy, 'mode' | 'environment' | 'controls' | 'actions' | 'schemaVersion' | 'authority'> & { document?: Record<string, unknown> };

/**
 * What CTRLRun 0.12.2 hashes (its `_canonical_policy`): the parsed decision inputs of the document,
 * not its spelling. `actions` and `controls` as the document holds them (YAML 1.1 values; mapping
 * keys sorted by the canonical JSON, rules in document order; `controls` null when absent),
 * `authority` (CTRLRun's `canonical_grants` of the parsed grants; null without the section), the resolved `environment` (`production`
 * when absent), `mode` (`enforce` when absent) and the `schema` string. `version:` is not in it:
 * relabelling a document does not change its hash.
 */
export function policyHashInput(policy: HashSource): Record<string, unknown> {
  const document = policy.document ?? synthesizedDocument(policy);
  return {
    actions: document.actions ?? null,
    authority: canonicalAuthority(policy.authority),
    controls: document.controls ?? null,
    environment: policy.environment ?? DEFAULT_ENVIRONMENT,
    mode: policy.mode,
    schema: `ctrlrun.policy/v${policy.schemaVersion}`,
  };
}

/** `sha256:` + the SHA-256 hex of the canonical JSON of `policyHashInput` (equal to CTRLRun's `policy_hash`). */
export function policyHash(policy: HashSource): string {
  return `sha256:${sha256Hex(canonicalJson(policyHashInput(policy)))}`;
}

/** For a policy built in code (no document): the document its normalized form stands for. */
function synthesizedDocument(policy: HashSource): Record<string, unknown> {
  const actions: Record<string, unknown> = {};
  for (const action of Object.values(policy.actions)) actions[action.id] = actionDocument(action);
  const controls = Object.values(policy.controls);
  const out: Record<string, unknown> = { actions };
  if (controls.length > 0) {
    out.controls = Object.fromEntries(
      controls.map((c) => [
        c.id,
        {
          ...(c.title !== undefined ? { title: c.title } : {}),
          ...(c.source !== undefined ? { source: c.source } : {}),
          ...(c.approverRole !== undefined ? { approver_role: c.approverRole } : {}),
        },
      ]),
    );
  }
  return out;
}

function actionDocument(action: PolicyAction): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (action.bare && action.rules.length === 1) out.decision = action.rules[0]!.decision;
  else {
    out.rules = action.rules.map((rule) => {
      const r: Record<string, unknown> = { decision: rule.decision };
      if (rule.when.length > 0) r.when = Object.fromEntries(rule.when.map((c) => [c.key, c.value as Operand]));
      if (rule.controls.length > 0) r.controls = rule.controls;
      return r;
    });
  }
  if (action.effect) out.effect = action.effect.source;
  if (action.resource) out.resource = action.resource.source;
  if (action.controls.length > 0) out.controls = action.controls;
  if (action.maxAttempts !== null) out.max_attempts = action.maxAttempts;
  if (action.approvalsRequired !== 1) out.approvals_required = action.approvalsRequired;
  if (action.mcp.notExecutedOnError) out.mcp = { not_executed_on_error: true };
  return out;
}

/**
 * CTRLRun's `canonical_grants`: the parsed grants by id, each with every field that narrows it
 * (constraints as `{argument, op, operand}`, expiry as Python's `isoformat()`, budget windows in
 * seconds, in document order), `max_delegation_depth`, and the break-glass envelopes (none here).
 */
export function canonicalAuthority(authority: PolicyAuthority | undefined): unknown {
  if (authority === undefined) return null;
  const grants: Record<string, unknown> = {};
  for (const g of authority.grants) {
    grants[g.id] = {
      actions: g.actions,
      budgets: g.budgets === null ? null : g.budgets.map((b) => ({ metric: b.metric, limit: b.limit, window: b.windowSeconds })),
      constraints: Object.fromEntries(g.constraints.map((c) => [c.key, { argument: c.arg, op: c.op, operand: c.value as Operand }])),
      delegable: g.delegable,
      environments: g.environments,
      expires_at: g.expiresAt === null ? null : g.expiresAt.iso,
      resources: g.resources,
      subject: { agent: g.subject.agent ?? null, user: g.subject.user ?? null },
      tasks: g.tasks,
    };
  }
  return { break_glass: {}, grants, max_delegation_depth: authority.maxDelegationDepth };
}
