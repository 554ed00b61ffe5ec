/**
 * The typed, normalized form of `ctrlrun.yaml` (SPEC §2). Produced by the policy loader,
 * consumed by `explain`, the generator, the codemod and `check`.
 *
 * Normalization: an action written with `decision: X` becomes `rules: [{ when: [], decision: X }]`;
 * defaults are filled in (`mode: enforce`, `approvalsRequired: 1`, `maxAttempts: 1`, `controls: []`).
 * The policy hash is SHA-256 over the canonical JSON of `policyHashInput(policy)`: it never includes
 * source locations, so reformatting the file does not change it.
 */

export type Decision = 'allow' | 'approve' | 'deny';
export type Operator = 'eq' | 'neq' | 'in' | 'lt' | 'lte' | 'gt' | 'gte';
/** A scalar in a `when`: a safe integer, a string or a boolean. Floats never appear. */
export type Scalar = number | string | boolean;

/** 1-based line and column in a source file. */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

export interface Condition {
  /** The key as written: `amount_gte`. */
  key: string;
  /** The argument name: `amount` (split on the last `_<op>`). */
  arg: string;
  op: Operator;
  /** A Scalar; for `in`, an array of Scalars. */
  value: Scalar | Scalar[];
  loc: SourceLocation;
}

export interface Rule {
  /** 0-based position in the action's rules. */
  index: number;
  when: Condition[];
  decision: Decision;
  loc: SourceLocation;
}

export type TemplatePart = { kind: 'text'; text: string } | { kind: 'arg'; arg: string };

export interface Template {
  /** The template as written: `refund:{payment_id}`. */
  source: string;
  parts: TemplatePart[];
  loc: SourceLocation;
}

export interface PolicyAction {
  id: string;
  effect?: Template;
  resource?: Template;
  controls: string[];
  approvalsRequired: number;
  maxAttempts: number;
  rules: Rule[];
  loc: SourceLocation;
}

export interface PolicyControl {
  id: string;
  title?: string;
  approverRole?: string;
  loc: SourceLocation;
}

export interface Policy {
  /** 1..6, from `schema: ctrlrun.policy/vN`. */
  schemaVersion: number;
  mode: 'enforce' | 'observe';
  environment?: string;
  controls: Record<string, PolicyControl>;
  actions: Record<string, PolicyAction>;
  /** SHA-256 hex of the canonical JSON of the normalized policy. */
  hash: string;
  /** Path of the file it was loaded from (as given to the loader). */
  file: string;
}
