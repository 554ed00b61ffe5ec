/**
 * Contracts of `ctrlrun-gen/runtime`. This module imports nothing of the generator
 * (no ts-morph, yargs, yaml): generated code and user code import it at run time.
 */

export type Decision = 'allow' | 'approve' | 'deny';

/**
 * Why a decision was reached, in CTRLRun 0.12.2's words: `rule[N]` (the 0-based rule that matched),
 * `decision` (an action written `decision: X`), `no_matching_rule`, `unknown_action`,
 * `resource_template` (the resource template did not resolve: refused first, before the arguments'
 * values are checked), `effect_key_error` (the effect template did not resolve: refused whatever
 * the rules say) and `invalid_argument` (the arguments refused before any rule).
 */
export type DecisionReason =
  | `rule[${number}]`
  | 'decision'
  | 'no_matching_rule'
  | 'unknown_action'
  | 'effect_key_error'
  | 'resource_template'
  | 'invalid_argument'
  /** CTRLRun's authority refusals (a policy with `authority:`): before the rules. */
  | 'no_authority'
  | 'authority_expired'
  | 'authority_task'
  | 'authority_constraint';

export interface DecisionResult {
  decision: Decision;
  /** 0-based index of the matching rule, or null (bare decision, no match, unknown action, refusal). */
  rule: number | null;
  reason: DecisionReason;
}

/** A decision with the call's resolved templates (null when the action has none, or on a refusal before them). */
export interface CallDecision extends DecisionResult {
  effectKey: string | null;
  resource: string | null;
  /** Why the arguments or a template were refused (`invalid_argument`, `resource_template`, `effect_key_error`). */
  detail?: string;
}

/** Result of rendering an `effect:`/`resource:` template against the call's arguments. */
export type TemplateResult = { ok: true; value: string } | { ok: false; arg: string };

/** One action of the compiled policy, as the generated module emits it. */
export interface CompiledAction {
  id: string;
  /**
   * Straight-line decision function over checked arguments (`checkArguments`); pure, total (never
   * throws on any input). Templates are not its business: `decideCall` resolves them first.
   */
  decide: (args: unknown) => DecisionResult;
  /** The effect template; `{resource}` in it is the call's resolved resource (the second argument). */
  effect?: (args: unknown, resource: string | null) => TemplateResult;
  resource?: (args: unknown) => TemplateResult;
  controls: readonly string[];
  approvalsRequired: number;
  /** Attempts allowed on one effect key, the first included; null: no ceiling (CTRLRun's default). */
  maxAttempts: number | null;
  /**
   * CTRLRun's `upstream:` pin (v8): an MCP tool whose listed schema no longer hashes to the pin is
   * refused; with TLS pins (`tlsCertSha256`: `sha256:` digests of the leaf certificate's DER;
   * `tlsCertPems`: the certificates of `tls_cert_file`, the only trust anchors), a call runs only
   * through an MCP server over HTTP whose fetch is the generated module's `upstreamFetch`, after it
   * has seen a pinned certificate (`upstream_unverified`, `upstream_mismatch`).
   */
  upstream?: { toolSchemaSha256?: string; tlsCertSha256?: readonly string[]; tlsCertPems?: readonly string[] };
  /**
   * CTRLRun's per-action `mcp:` mapping (v2): with `notExecutedOnError`, an MCP result marked
   * `isError` means the tool did not act (the effect is `failed`, may be tried again); without it
   * such a result leaves the effect `ambiguous`, as CTRLRun's gateway records it.
   */
  mcp?: { notExecutedOnError?: boolean };
  /** The arguments the action's `data:` labels: the decision log keeps them only as their hash. */
  sensitive?: readonly string[];
  /**
   * Least exposure, as `generate` computed it exactly from the policy (policy/exposure.ts): `never`,
   * no call of the action can pass its rules and templates; `deadGrants`, grants whose actions cover
   * it but that can never authorize a passing call (their resources or constraints). A tool nobody
   * may use for this run's principal is not offered to the model (runtime/exposure.ts). Absent: none.
   */
  exposure?: { never?: boolean; deadGrants?: readonly string[] };
  /**
   * `generate` found no rule of the action deciding `approve`: its calls are allowed or refused,
   * never paused, so the SDK's `needsApproval` answers false without reading the arguments (the
   * guardrail and the body still decide every call). Absent: a call may pause (hand-written
   * policies, older modules). Set on an action that can pause, its `approve` calls are refused
   * unrun (no approval reaches them), never run unasked.
   */
  neverPauses?: true;
}

/** A grant's budget (CTRLRun v7): the un-released sum of `metric` over the last `windowMs` may reach `limit`. */
export interface CompiledBudget {
  /** `count` (one per call) or an argument name. */
  metric: string;
  /** Decimal digits (any size). */
  limit: string;
  windowMs: number;
}

/** One grant of the policy's `authority:` (CTRLRun v3; tasks and budgets v7). */
export interface CompiledGrant {
  id: string;
  /** Subject patterns: the principal's agent and user (null: any). */
  agent: string | null;
  user: string | null;
  actions: readonly string[];
  /** null: any resource. */
  resources: readonly string[] | null;
  environments: readonly string[] | null;
  /** Epoch ms; valid up to and including this instant. null: no expiry. */
  expiresAt: number | null;
  /** null: any task (or none). */
  tasks: readonly string[] | null;
  budgets: readonly CompiledBudget[] | null;
  /** The grant's `constraints`, compiled as one rule: `allow` when they all hold. Absent: none. */
  constraints?: (args: unknown) => DecisionResult;
}

/** The policy's `authority:` section: a call no grant covers is denied (`no_authority`). */
export interface CompiledAuthority {
  grants: readonly CompiledGrant[];
}

export interface CompiledPolicy {
  /** `sha256:` + hex: CTRLRun's policy hash of the same file (same as the loader's `Policy.hash`). */
  hash: string;
  mode: 'enforce' | 'observe';
  environment?: string;
  actions: Readonly<Record<string, CompiledAction>>;
  /** CTRLRun's `authority:` (v3+); absent: every principal may propose every action (the opt-in). */
  authority?: CompiledAuthority;
  /** SDK tool name (as written in code) -> action id, from the manifest. */
  tools: Readonly<Record<string, string>>;
  /** MCP server name -> tool name (as the server lists it) -> action id, from the manifest's `mcp:` entries. */
  mcp?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Hosted MCP server label -> action id, from the manifest's `hosted_mcp:` entries. */
  hostedMcp?: Readonly<Record<string, string>>;
  /**
   * Action id -> the patterns (`flow_*`) the sanitized names of its tools keep to, for the tools
   * whose names the code computes (the manifest's `tool: { at, names }` entries).
   */
  computedNames?: Readonly<Record<string, readonly string[]>>;
  /**
   * SandboxAgent capability tools, from the manifest's `sandbox:` entries: tool name -> action id
   * for every SandboxAgent (`tools`), and per agent name (`agents`, which wins).
   */
  sandbox?: {
    readonly tools?: Readonly<Record<string, string>>;
    readonly agents?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  };
  /** Handoffs, from the manifest's `handoff:` entries: the target agent's name -> action id. */
  handoffs?: Readonly<Record<string, string>>;
}

// ---------------------------------------------------------------------------------------------
// The store: the source of truth across processes. Every method that changes state is ONE atomic
// operation of the store (a transaction / conditional write), never read-then-write in the runtime.
// All times are epoch milliseconds supplied by the caller (the runtime passes its clock).
// ---------------------------------------------------------------------------------------------

export type ApprovalState = 'pending' | 'approved' | 'rejected' | 'consumed';

export interface ApprovalAnswer {
  approver: string;
  /**
   * `approve` (as proposed, or with edited arguments: `args`), `reject` (the call does not run; the
   * model reads `reason`), `respond` (the call does not run; the model reads `result` in place of
   * the tool's own: a reject whose message is a result).
   */
  decision: 'approve' | 'reject' | 'respond';
  reason?: string;
  at: number;
  /**
   * Approve with edits: the canonical JSON of the arguments this approver approved, and its hash.
   * Absent: the request's own arguments, as the model proposed them. Every approval of one request
   * approves the same arguments (`edit_mismatch` otherwise).
   */
  args?: string;
  argsHash?: string;
  /** Respond: what the model reads as the tool's result (the body never runs). */
  result?: string;
}

/** The door kinds a call can pause at (`ApprovalRequest.door`). */
export type PausedDoorKind = 'function' | 'mcp' | 'agent' | 'sandbox' | 'shell' | 'apply_patch' | 'computer' | 'hosted_mcp';

/**
 * Where a request's call paused, as the runtime filed it: the door's kind and, when that door can
 * run arguments an approver edited, the tool's parameters as a JSON schema (what the model sees:
 * the edit form is built from it, and an edit is checked against it before it is recorded). No
 * `schema`: this door refuses edits (docs/runtime.md, "Approve with edits": which and why).
 */
export interface PausedDoor {
  kind: PausedDoorKind;
  schema?: unknown;
}

export interface ApprovalRequest {
  /** The SDK call id; the primary key. */
  callId: string;
  action: string;
  /** The SDK tool name (as the model saw it). */
  toolName: string;
  /** SHA-256 hex of the canonical JSON of the parsed arguments. */
  argsHash: string;
  /** Canonical JSON of the arguments, for operators to read. */
  args: string;
  policyHash: string;
  /** Who the run acts for (from `identity`), never from the model. */
  principal: string;
  approvalsRequired: number;
  state: ApprovalState;
  answers: ApprovalAnswer[];
  createdAt: number;
  /** When the request became approved or rejected. */
  decidedAt?: number;
  consumedAt?: number;
  /** The door the call paused at (and its schema where edits are possible); absent on requests filed without it. */
  door?: PausedDoor;
}

export type NewApprovalRequest = Omit<ApprovalRequest, 'state' | 'answers' | 'decidedAt' | 'consumedAt'>;

export type AddAnswerResult =
  | { outcome: 'recorded'; request: ApprovalRequest }
  /** The same approver already answered: nothing changed. */
  | { outcome: 'duplicate'; request: ApprovalRequest }
  /** The approver is the request's principal: refused, nothing changed. */
  | { outcome: 'approver_is_requester'; request: ApprovalRequest }
  /** The request is no longer pending (approved, rejected or consumed): nothing changed. */
  | { outcome: 'not_pending'; request: ApprovalRequest }
  /** An approval of other arguments than the earlier approvals of this request approved (M-of-N approve one edit): nothing changed. */
  | { outcome: 'edit_mismatch'; request: ApprovalRequest }
  | { outcome: 'unknown' };

export type ClaimResult =
  /** The request was `approved` and is now `consumed` (this caller is the only one to get this). */
  | { outcome: 'claimed'; request: ApprovalRequest }
  | { outcome: 'consumed'; request: ApprovalRequest }
  | { outcome: 'not_approved'; request: ApprovalRequest }
  /** Approved, but for another call (action, arguments, policy or principal differ): NOT consumed. */
  | { outcome: 'mismatch'; request: ApprovalRequest }
  | { outcome: 'unknown' };

/** What a claim must match to use an approval up (principals compare after identity normalisation). */
export interface ClaimBinding {
  action: string;
  argsHash: string | null;
  policyHash: string;
  principal: string | null;
}

export type EffectState = 'in_flight' | 'committed' | 'failed' | 'ambiguous';

export interface EffectRecord {
  key: string;
  action: string;
  state: EffectState;
  /** Attempts started so far (1 after the first reservation). */
  attempts: number;
  /** Id of the attempt currently (or last) holding the key. */
  attemptId: string;
  /** While in_flight: the lease end; past it the attempt is considered crashed (ambiguous). */
  leaseUntil: number;
  updatedAt: number;
  resolvedBy?: string;
}

export type ReserveResult =
  /** `claimed`: with `claim`, the approval this reservation used up (consumed in the same transaction). */
  | { outcome: 'reserved'; effect: EffectRecord; claimed?: ApprovalRequest }
  | { outcome: 'duplicate'; effect: EffectRecord }
  /** in flight elsewhere (lease not over), or ambiguous: unknown whether it happened. */
  | { outcome: 'ambiguous'; effect: EffectRecord }
  /** failed before and `attempts >= maxAttempts`. */
  | { outcome: 'exhausted'; effect: EffectRecord }
  /** A charge would take its budget past the limit: nothing was written (no reservation, no charge). */
  | { outcome: 'budget_exhausted'; charge: BudgetCharge }
  /** With `claim`: the approval cannot be used up (what `claimApproval` would have said); nothing was written. */
  | { outcome: 'claim_refused'; claim: Exclude<ClaimResult, { outcome: 'claimed' }> };

/**
 * What a reservation spends against one budget of one grant (CTRLRun's `Charge`): the store checks
 * `held + amount <= limit` (held: the un-released ledger rows of this grant and metric consumed in
 * the last `windowMs`) in the same transaction as the reservation, and writes both or neither.
 */
export interface BudgetCharge {
  grantId: string;
  metric: string;
  /** Decimal digits, non-negative (any size). */
  amount: string;
  /** Decimal digits, non-negative (any size). */
  limit: string;
  windowMs: number;
}

/** One ledger row: a charge held by an effect's attempt until the effect is failed (then released). */
export interface Consumption {
  grantId: string;
  metric: string;
  amount: string;
  effectKey: string;
  attempt: number;
  consumedAt: number;
  releasedAt: number | null;
}

export interface ReserveEffectInput {
  key: string;
  action: string;
  attemptId: string;
  maxAttempts: number;
  now: number;
  leaseMs: number;
  /** Budgets this reservation spends (CTRLRun's `charges=`); none or empty: the reservation path of old. */
  charges?: readonly BudgetCharge[];
  /**
   * The approval this reservation uses up (CTRLRun §4.2 A4: consumption and reservation in one
   * transaction). It is decided first (`claim_refused` if it could not be claimed), and consumed
   * only when the key is reserved: a duplicate, an ambiguous key, exhausted attempts or a spent
   * budget leave it approved.
   */
  claim?: { callId: string; binding: ClaimBinding };
}

/** What the runtime asks a store to append; the store assigns seq, prev_hash and hash atomically. */
export interface ReceiptBody {
  at: number;
  action: string;
  call_id: string | null;
  args_hash: string | null;
  principal: string | null;
  /** allow | approve | deny (what the policy said), even in observe mode. */
  decision: Decision | null;
  reason: string;
  approvers: string[];
  effect_key: string | null;
  /** e.g. requested, executed, failed, denied, refused, observed, approved, rejected, resolved. */
  result: string;
  policy_hash: string;
  mode: 'enforce' | 'observe';
  environment: string | null;
  /** Only on a checkpoint receipt (`action: ctrlrun.checkpoint`): an Ed25519 signature of an earlier receipt's seq and hash. */
  checkpoint?: ReceiptCheckpoint;
  /** Only on a prune record (`action: ctrlrun.prune`): what an operator pruned (see prune.ts). */
  prune?: PruneRecord;
  /**
   * An approval with edited arguments: on the answer's receipt (`args_hash` the proposal's) and on
   * every receipt of the resumed call (`args_hash` what ran, as `ran_args_hash`).
   */
  edit?: ReceiptEdit;
  /**
   * An approval grant (not the policy's `authority:` grants): the receipt that made it
   * (`granted`), the one that revoked it (`revoked`), and each call it let run without a pause.
   */
  approval_grant?: string;
  /** A `responded` receipt: SHA-256 (hex) of what the model was given in place of the tool's result. */
  response_hash?: string;
}

/** What an approval with edits changed: the model's arguments' hash, the approved ones', what ran, and who edited. */
export interface ReceiptEdit {
  proposed_args_hash: string;
  approved_args_hash: string;
  /** On the resumed call's receipts only: the hash of the arguments the body ran (the approved ones). */
  ran_args_hash?: string;
  /** The approver whose answer first carried the edit. */
  edited_by: string;
}

/**
 * What one prune removed, as its record (a receipt, signed like any other) names it: the log, the
 * scope, the seq range and the hash of the range's last record (its head, which the kept chain links
 * to), and the cutoff on the pruner's clock.
 */
export interface PruneRecord {
  log: 'decisions' | 'receipts';
  /** The tenant whose entries were pruned (their arguments erased, their hashes kept); null: the whole store's oldest records were removed. */
  tenant: string | null;
  /** The first and last seq pruned (inclusive). */
  from: number;
  to: number;
  /** The hash of the record at `to`. */
  head: string;
  /** How many records were pruned. */
  count: number;
  /** Records decided before this instant (epoch ms) were pruned. */
  before: number;
}

/** A signed checkpoint: `signature` (base64url Ed25519) over `ctrlrun receipt checkpoint v1\n{seq}\n{hash}`. */
export interface ReceiptCheckpoint {
  seq: number;
  hash: string;
  /** First 16 hex digits of the signing public key. */
  key_id: string;
  signature: string;
}

export interface Receipt extends ReceiptBody {
  /** 1-based, contiguous. */
  seq: number;
  /** The previous receipt's hash; 64 zeros for the first. */
  prev_hash: string;
  /** SHA-256 hex of the canonical JSON of every other field of this receipt. */
  hash: string;
}

export interface RequestPage {
  items: ApprovalRequest[];
  total: number;
}

/** One call's receipts (`call_id`) or one effect key's (`effect_key`). */
export type ReceiptMatch = { callId: string } | { effectKey: string };

/** What the runtime asks a store to append; the store assigns seq, prev_hash and hash atomically. */
export interface DecisionBody {
  at: number;
  action: string;
  /** The SDK tool name the manifest maps to the action (null: none, e.g. an MCP door). */
  tool: string | null;
  call_id: string | null;
  /** Canonical JSON of the checked arguments; a labelled argument's value is `hmac-sha256:` + its HMAC under the store's decision key. */
  args: string;
  /** The arguments written as their hash (the action's `data:` labels), sorted. */
  hashed: string[];
  /** The receipts' `args_hash`: canonical hash of the arguments as the call had them. */
  args_hash: string;
  /** Who the run acted for, as identity() said (agent and user), or null. */
  principal: { agent: string; user: string | null } | null;
  environment: string | null;
  task: string | null;
  decision: Decision;
  rule: number | null;
  reason: string;
  effect_key: string | null;
  resource: string | null;
  policy_hash: string;
  mode: 'enforce' | 'observe';
  /** The receipt written with this entry: what its `result` was, and its seq and hash (the binding). */
  result: string;
  receipt_seq: number;
  receipt_hash: string;
  /** The decision of an approved edit (its `args` are the edited ones): the proposal's and the approved hashes, who edited. */
  edit?: ReceiptEdit;
  /** The approval grant that let the call run without a pause. */
  approval_grant?: string;
}

export interface DecisionEntry extends DecisionBody {
  /** 1-based, contiguous (the oldest kept entry may start later: retention removes from the oldest end). */
  seq: number;
  prev_hash: string;
  hash: string;
}

/** How a store lists its log: after a seq, at or after a time, of one action, at most `limit`. */
export interface DecisionQuery {
  afterSeq?: number;
  since?: number;
  action?: string;
  limit?: number;
}

/** What a tenant's pruned entry leaves in the chain: its links, its time and whose it was; never its inputs. */
export interface PrunedDecision {
  seq: number;
  at: number;
  prev_hash: string;
  hash: string;
  pruned: { tenant: string };
}

/** The decision log of a store (decision-log.ts): optional, a store without it keeps no log (`replay --store` says so). */
export interface DecisionLogStore {
  /**
   * Atomically appends an entry chained to the last one. Nothing is ever pruned here: pruning is an operator's act (PruneStore).
   * The body is a fresh object of each call (its `principal` too), the store's to keep or change.
   */
  appendDecision(body: DecisionBody): Promise<DecisionEntry>;
  /** Entries in seq order (a tenant's pruned entries are not listed: see PruneStore.listPrunedDecisions). */
  listDecisions(query?: DecisionQuery): Promise<DecisionEntry[]>;
  /**
   * The store's secret decision key (hex), made once (`newDecisionKey`) and kept in the store: the
   * labelled arguments of its entries are HMAC-SHA-256 under it. Optional: a store without it has
   * them hashed under a key of the writing process.
   */
  decisionKey?(): Promise<string>;
}

/**
 * What an operator's prune asks of a store (prune.ts decides what, records it, then calls these).
 * Optional: a store without them cannot be pruned (`receipts prune` says so).
 */
export interface PruneStore {
  /** The decision log's own record of its newest entry (kept when pruning empties the table): a cut tail shows against it. */
  decisionHead(): Promise<{ seq: number; hash: string }>;
  /** Removes every entry with seq <= `through` (the oldest end). Returns how many. */
  deleteDecisions(through: number): Promise<number>;
  /** Replaces these entries by their tombstones (seq, at, hashes, the tenant): their inputs are gone, the chain still links. Returns how many. */
  tombstoneDecisions(seqs: readonly number[], tenant: string): Promise<number>;
  /** The tombstones, in seq order (verification links the chain through them). */
  listPrunedDecisions(): Promise<PrunedDecision[]>;
  /** Removes every receipt with seq <= `through` (the oldest end). Returns how many. */
  deleteReceipts(through: number): Promise<number>;
}

/**
 * serve's sign-in sessions, kept in the store so every replica over it honours the same ones and
 * an ended session is ended everywhere. Only the hash of a session's secret is stored.
 */
export interface StoredSession {
  /** SHA-256 (hex) of the cookie's secret. */
  idHash: string;
  /** The operator (normalised name). */
  name: string;
  /** SHA-256 of the token it was made from: a rotated token ends it. */
  tokenHash: string;
  /** The web origin it was issued for (serve's public URL). */
  origin: string;
  createdAt: number;
  expiresAt: number;
}

export interface SessionStore {
  putSession(session: StoredSession): Promise<void>;
  getSession(idHash: string): Promise<StoredSession | null>;
  /** Deletes the sessions matching every given field (`{}`: none); returns how many. */
  deleteSessions(match: { idHash?: string; origin?: string; name?: string }): Promise<number>;
}

/**
 * An approval grant: an approver's "the same for this principal for the next N hours", given while
 * answering a request. Not the policy's `authority:` grants (who may propose an action at all):
 * this one waives the pause of calls the policy sends to a person, for one principal and one
 * action, under the policy it was given under, only for calls that policy decides `approve` by the
 * same rule (`rule`) and that hold every bound (`bounds`). It never reaches a call the policy
 * denies or allows, expires (`expiresAt`, epoch ms, valid up to and including it), and is revoked
 * at the next call once `revokedAt` is set.
 */
export interface ApprovalGrant {
  /** `grant_` + a random id (stored under a tenant's names through serve). */
  id: string;
  /** Who it lets act without a pause (normalised, as requests store principals). */
  principal: string;
  action: string;
  /** The policy it was given under: another policy's calls are not covered. */
  policyHash: string;
  /** The approve rule it stands for, as receipts name it (`rule[1]`, `decision`). */
  rule: string;
  /** Extra argument bounds, CTRLRun `when` entries as canonical JSON (`{"amount_lte":300000}`); `{}`: none. */
  bounds: string;
  grantedBy: string;
  grantedAt: number;
  expiresAt: number;
  /** The request whose answer made it. */
  callId: string;
  revokedAt?: number;
  revokedBy?: string;
}

/** How approval grants are read: for one principal or action, only those unrevoked and unexpired at `activeAt`. */
export interface GrantQuery {
  principal?: string;
  action?: string;
  activeAt?: number;
}

/** The approval grants of a store (grants-*.ts). Optional: a store without them grants nothing (every call the policy pauses pauses). */
export interface GrantStore {
  /** Inserts a grant; idempotent by id (the existing one is returned unchanged). */
  putGrant(grant: ApprovalGrant): Promise<ApprovalGrant>;
  /** Grants matching every field given (`activeAt`: unrevoked, `expiresAt >= activeAt`), oldest first (grantedAt, then id). */
  listGrants(query?: GrantQuery): Promise<ApprovalGrant[]>;
  getGrant(id: string): Promise<ApprovalGrant | null>;
  /** Atomically sets `revokedAt`/`revokedBy` on an unrevoked grant; a revoked one is returned unchanged; unknown: null. */
  revokeGrant(id: string, by: string, now: number): Promise<ApprovalGrant | null>;
}

/** What an operator's halt stops: every call, or the calls of one run, one principal or one action. */
export type HaltTarget = 'all' | 'run' | 'principal' | 'action';

/**
 * An operator's halt (halts.ts): calls it matches are refused (`halted`) from the next call on, in
 * every process sharing the store, until it is lifted. `hard`: the refused call also ends its run.
 */
export interface Halt {
  /** Unique; under serve, a tenant's halt is stored as `@T:id` (a plain id is a halt of the whole store). */
  id: string;
  target: HaltTarget;
  /** The run id, principal (normalised) or action id; null for `all`. */
  value: string | null;
  hard: boolean;
  /** Why, as the operator said it: the model reads it in the refusal. */
  reason: string;
  /** The operator who set it. */
  by: string;
  at: number;
}

/** The halts in force and the store's halt epoch: a number every set and every lift raises, so a process knows its copy is current. */
export interface HaltState {
  epoch: number;
  halts: Halt[];
}

/**
 * The halts of a store (optional: a store without them has none, and nobody can set one in it).
 * Each change raises the epoch in the same transaction as the change; `appendReceipt(body, {
 * haltEpoch })` appends only while the epoch is still that one (else `HaltsChanged`), which is how
 * a call learns of a halt set in another process at the write it makes anyway (no read of its own).
 */
export interface HaltStore {
  readHalts(): Promise<HaltState>;
  /** Adds the halt (an id already present: nothing changes); returns the state after. */
  putHalt(halt: Halt): Promise<HaltState>;
  /** Removes the halt; `lifted` is it, or null when no halt has this id. */
  liftHalt(id: string): Promise<{ lifted: Halt | null; state: HaltState }>;
}

/** How a receipt is appended: with `haltEpoch`, only while the store's halt epoch is that one (else `HaltsChanged`, nothing appended). */
export interface AppendOptions {
  haltEpoch?: number;
}

export interface Store extends Partial<DecisionLogStore>, Partial<PruneStore>, Partial<SessionStore>, Partial<GrantStore>, Partial<HaltStore> {
  readonly kind: string;
  /**
   * True when the store itself writes the receipt of every answer (`httpStore`: serve records it,
   * with its own clock), so a Control's approve/reject does not write a second one.
   */
  readonly recordsAnswers?: boolean;
  /** Idempotent by callId: inserts a pending request, or returns the existing one unchanged. */
  putRequest(request: NewApprovalRequest): Promise<ApprovalRequest>;
  getRequest(callId: string): Promise<ApprovalRequest | null>;
  listRequests(filter?: { state?: ApprovalState }): Promise<ApprovalRequest[]>;
  /**
   * Optional. One page of the requests in `states` (every state when omitted), newest first
   * (createdAt, then callId, both descending), and how many match in all. `serve` pages large
   * inboxes with it instead of reading every request; a store without it is listed and sliced.
   */
  pageRequests?(filter: { states?: ApprovalState[] }, page: { limit: number; offset: number }): Promise<RequestPage>;
  /**
   * Atomically records one answer. An `approve` from a new approver (not the principal) is added;
   * once `approvalsRequired` distinct approvers said yes the request becomes `approved`
   * (`decidedAt = at`). A `reject` makes it `rejected`.
   * Checked in this order: not pending -> `not_pending`; answer (approve or reject) from the
   * principal -> `approver_is_requester`; approver already answered -> `duplicate`; else `recorded`.
   */
  addAnswer(callId: string, answer: ApprovalAnswer): Promise<AddAnswerResult>;
  /**
   * Atomically moves an `approved` request to `consumed`; single use. With `expect`, a request
   * bound to another call (see `claimMatches`) is left approved and `mismatch` is returned, so a
   * call reusing the call id cannot burn the approval it does not match.
   */
  claimApproval(callId: string, now: number, expect?: ClaimBinding): Promise<ClaimResult>;

  /**
   * Atomically reserves an effect key before the body runs:
   * none -> in_flight (attempts 1) `reserved`; committed -> `duplicate`;
   * in_flight with lease not over -> `ambiguous`; in_flight with lease over -> becomes ambiguous, `ambiguous`;
   * ambiguous -> `ambiguous`; failed with attempts < maxAttempts -> in_flight (attempts+1) `reserved`;
   * failed otherwise -> `exhausted`.
   */
  reserveEffect(input: ReserveEffectInput): Promise<ReserveResult>;
  /**
   * Settles the attempt that holds the key (no-op returning false if attemptId no longer holds it).
   * The holder may settle while the key is `in_flight` or `ambiguous` (its lease ran out but the
   * truth arrived late); a key already committed/failed (or resolved by an operator) is not changed.
   */
  settleEffect(key: string, attemptId: string, state: 'committed' | 'failed' | 'ambiguous', now: number): Promise<boolean>;
  /**
   * An operator's resolution of an ambiguous (or in-flight past lease) key. Any other key is
   * returned unchanged (compare `state`/`resolvedBy`); an unknown key is null.
   */
  resolveEffect(key: string, state: 'committed' | 'failed', by: string, now: number): Promise<EffectRecord | null>;
  getEffect(key: string): Promise<EffectRecord | null>;
  /**
   * The budget ledger, oldest first. A charge is written by `reserveEffect` (with `charges`) and
   * released (`releasedAt`) exactly when its effect becomes `failed` (`settleEffect` or
   * `resolveEffect`); it is held in every other state.
   */
  consumptions(filter?: { grantId?: string; metric?: string; effectKey?: string }): Promise<Consumption[]>;
  listEffects(filter?: { state?: EffectState }): Promise<EffectRecord[]>;

  /**
   * Atomically appends a receipt, chaining it to the last one. With `options.haltEpoch` (a store
   * with halts), only while the store's halt epoch is still that one: else it throws `HaltsChanged`
   * (stores/errors.ts) carrying the current epoch, and appends nothing.
   */
  appendReceipt(body: ReceiptBody, options?: AppendOptions): Promise<Receipt>;
  /** Receipts in seq order. */
  listReceipts(options?: { afterSeq?: number; limit?: number }): Promise<Receipt[]>;
  /** The store's own record of the newest receipt (Postgres keeps a head row), for `verifyReceipts`; optional. */
  receiptHead?(): Promise<{ seq: number; hash: string }>;
  /**
   * Optional. The newest receipt of one call (`call_id`) or one effect key (`effect_key`), or null;
   * the operator's answers read it (for the mode and environment the run recorded) without listing
   * the whole chain. A store without it is listed and searched.
   */
  lastReceiptOf?(match: ReceiptMatch): Promise<Receipt | null>;

  close(): Promise<void>;
}
