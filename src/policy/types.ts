/**
 * The typed, normalized form of `ctrlrun.yaml` (SPEC §2). Produced by the policy loader,
 * consumed by `explain`, the generator, the codemod and `check`.
 *
 * Normalization: an action written with `decision: X` becomes `rules: [{ when: [], decision: X }]`
 * with `bare: true` (its reason is `decision`, CTRLRun's word); defaults are filled in
 * (`mode: enforce`, `approvalsRequired: 1`, `maxAttempts: null` = no ceiling, `controls: []`).
 * The policy hash is CTRLRun's (`sha256:` + the hash of its canonical document; src/policy/hash.ts).
 */

export type Decision = 'allow' | 'approve' | 'deny';
export type Operator = 'eq' | 'neq' | 'in' | 'lt' | 'lte' | 'gt' | 'gte';
/**
 * A value in a `when`, as CTRLRun reads it: null, a boolean, a string, an exact integer (a `number`
 * when safe, a `bigint` beyond 2^53: the same normalization as the call's arguments, so `===`
 * compares integers exactly), or (for `eq`, `neq`, `in`) a list or a mapping of those. Floats never appear.
 */
export type Operand = null | boolean | string | number | bigint | Operand[] | { [key: string]: Operand };
/** An operand that is not a container. */
export type Scalar = null | boolean | string | number | bigint;

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
  /** The operand; for `in`, the list of candidates. */
  value: Operand;
  loc: SourceLocation;
}

export interface Rule {
  /** 0-based position in the action's rules. */
  index: number;
  when: Condition[];
  decision: Decision;
  /** Control ids this rule cites (v4+), beside the action's. */
  controls: string[];
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
  /** Written `decision: X` (reason `decision`), not `rules:` (reason `rule[N]`). */
  bare: boolean;
  effect?: Template;
  resource?: Template;
  controls: string[];
  approvalsRequired: number;
  /** null: the action names no ceiling (CTRLRun: retries after NotExecuted are not bounded). */
  maxAttempts: number | null;
  /** The `mcp:` mapping (v2+): `not_executed_on_error` (default false). */
  mcp: { notExecutedOnError: boolean };
  /**
   * The `upstream:` pin (v8): `tool_schema_sha256` (`sha256:` + 64 hex), checked by the MCP doors;
   * the TLS pins (`tls_cert_sha256` digests of the leaf's DER; `tls_cert_file` paths as written and
   * the certificates they held when the policy was read), honoured by the HTTP MCP doors through
   * the pinned fetch.
   */
  upstream?: { toolSchemaSha256?: string; tlsCertSha256?: string[]; tlsCertFiles?: string[]; tlsCertPems?: string[] };
  /** The `data:` labels (v4): argument name, then its label, in document order (CTRLRun §7.4). */
  data?: Array<[string, string]>;
  rules: Rule[];
  loc: SourceLocation;
}

export interface PolicyControl {
  id: string;
  title?: string;
  source?: string;
  approverRole?: string;
  loc: SourceLocation;
}

/** A budget on a grant (CTRLRun v7): the sum of `metric` over a rolling `window` may reach `limit`. */
export interface PolicyBudget {
  /** `count` (one per call) or the name of an argument whose integer value is summed. */
  metric: string;
  /** Non-negative; a `bigint` beyond 2^53. */
  limit: number | bigint;
  /** Whole seconds, positive, at most 100 years. */
  windowSeconds: number;
}

/** One grant of `authority:` (CTRLRun v3; `tasks` and `budgets` v7). */
export interface PolicyGrant {
  id: string;
  subject: { agent?: string; user?: string };
  actions: string[];
  /** null: any resource (the key is absent). */
  resources: string[] | null;
  constraints: Condition[];
  environments: string[] | null;
  /** The expiry as CTRLRun renders it (Python's `isoformat()`, offset kept) and as epoch ms. */
  expiresAt: { iso: string; ms: number } | null;
  delegable: boolean;
  tasks: string[] | null;
  budgets: PolicyBudget[] | null;
  loc: SourceLocation;
}

/** The `authority:` section (v3+): who may propose which actions, under which limits. */
export interface PolicyAuthority {
  maxDelegationDepth: number;
  grants: PolicyGrant[];
}

export interface Policy {
  /** 1..8, from `schema: ctrlrun.policy/vN`. */
  schemaVersion: number;
  /** The operator's own `version:` label (v4+): recorded, never part of the hash. */
  version?: string;
  mode: 'enforce' | 'observe';
  /** Where `mode:` is written (absent: not written, so `enforce`). */
  modeLoc?: SourceLocation;
  environment?: string;
  controls: Record<string, PolicyControl>;
  actions: Record<string, PolicyAction>;
  /** The `authority:` section; absent: no grants are consulted (CTRLRun's opt-in). */
  authority?: PolicyAuthority;
  /** CTRLRun's policy hash: `sha256:` + SHA-256 hex of the canonical document (src/policy/hash.ts). */
  hash: string;
  /** The document as CTRLRun's loader reads it (YAML 1.1 values), for the hash. */
  document?: Record<string, unknown>;
  /** Path of the file it was loaded from (as given to the loader). */
  file: string;
}
