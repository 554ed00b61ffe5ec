import type { RunContext } from '@openai/agents';
import { checkArguments, parseArguments } from '../arguments.js';
import { chargesFor } from '../authority.js';
import { ActionDenied, ApprovalMismatch, CtrlrunError } from '../errors.js';
import { approversOf, isThenable, type Maybe } from '../internals.js';
import { claimMatches } from '../memory-store.js';
import type { BudgetCharge, ClaimResult, CompiledGrant, Halt } from '../types.js';
import { coveringGrant } from './approval-grant.js';
import { isEditRefusal, runningCall } from './edit.js';
import { callArguments, inputIsTheCalls, inputProblem } from './arguments.js';
import { approvalVerdict, bindingOf, claimBound, vetBound } from './approval.js';
import { argsOf, decideOn, decisionRefusal } from './decision.js';
import { STILL_RUNNING_TEXT, UNOBSERVED_TEXT } from './messages.js';
import type { Principal } from './principal.js';
import { reserve, reservationRefusal } from './reservation.js';
import type { CoreScope } from './scope.js';
import { INVALID_ARGUMENTS, type Authorization, type Authorized, type CallFacts, type EditedRun, type ReceiptFieldsOf } from './types.js';
import { tlsPinned } from './upstream.js';
import { decisionReceipt, haltNow, refuseHalted } from './halt.js';

type Where = { action: string; callId: string | null };

/** Writes the refusal's receipt, then throws its error: a call refused before its body has exactly one receipt, this one. */
async function refuse(scope: CoreScope, facts: CallFacts, receipt: ReceiptFieldsOf, error: CtrlrunError): Promise<never> {
  await scope.receipt(facts, receipt);
  throw error;
}

/**
 * Everything before the body: arguments, principal, decision, upstream, hold, budgets, approval
 * claim, effect reservation, and the decision's receipt. Rejects to refuse; resolves to the call's
 * authorization (observe mode: the facts only).
 */
export function authorize(
  scope: CoreScope,
  input: unknown,
  runContext: RunContext<unknown>,
  callId: string | null,
  toolCall: { arguments?: string } | undefined,
): Promise<Authorization> {
  return settledAuthorization(startAuthorize(scope, input, runContext, callId, toolCall));
}

/**
 * The common allowed call's authorization, handed over with its decision's receipt still being
 * written: the caller awaits `receipt` before the body (SPEC §5's order), and no frame of
 * authorize's stands between the store's promise and that await.
 */
export interface ReadyRun {
  authorized: Authorized;
  receipt: Promise<unknown>;
}

/** An authorization started (`startAuthorize`) as one promise: a ready run's once its receipt is written. */
export function settledAuthorization(started: Promise<Authorization> | ReadyRun): Promise<Authorization> {
  return started instanceof Promise ? started : started.receipt.then(() => started.authorized);
}

/**
 * `authorize` without a frame of its own: the authorization's promise, or for the common allowed
 * call (its facts known at once, no budget, no effect key) the authorization with its decision's
 * receipt's promise. Never throws: a failure is a rejection, as from an async function.
 */
export function startAuthorize(
  scope: CoreScope,
  input: unknown,
  runContext: RunContext<unknown>,
  callId: string | null,
  toolCall: { arguments?: string } | undefined,
): Promise<Authorization> | ReadyRun {
  try {
    // the guardrail's principal (or a synchronous identity's): the facts without a turn of their own
    const admitted = admit(scope, input, runContext, callId, toolCall);
    if (isThenable(admitted)) return authorizeOnceAdmitted(admitted, scope, runContext, callId);
    return authorizeFacts(scope, admitted, runContext, callId);
  } catch (error) {
    return Promise.reject(error);
  }
}

// The continuations of the asynchronous answers are made in functions of their own: a closure in
// the stage itself makes the values it captures a context, allocated on every call, the
// synchronous allowed ones too.

function authorizeOnceAdmitted(
  admitted: PromiseLike<CallFacts>,
  scope: CoreScope,
  runContext: RunContext<unknown>,
  callId: string | null,
): Promise<Authorization> {
  return Promise.resolve(admitted).then((facts) => settledAuthorization(authorizeFacts(scope, facts, runContext, callId)));
}

/** `authorize` once the call's facts are known: the refusals, the halts, then the approval or the decision's receipt (may throw: its caller's rejection). */
function authorizeFacts(scope: CoreScope, facts: CallFacts, runContext: RunContext<unknown>, callId: string | null): Promise<Authorization> | ReadyRun {
  if (!scope.enforce) return Promise.resolve({ kind: 'observe', facts });
  const refused = decisionRefusal(scope.action, facts);
  if (refused) return refuse(scope, facts, refused.receipt, new ActionDenied(refused.code, refused.message, whereOf(scope, callId)));
  if (scope.upstream === undefined && tlsPinned(scope.compiled)) {
    // CTRLRun in-process (SPEC-v0.10 §4.4): nothing observed the upstream's certificate
    const text = `ctrlrun: ${scope.action} refused (upstream_unverified): ${UNOBSERVED_TEXT}; it did not run.`;
    return refuse(scope, facts, { result: 'refused', reason: 'upstream_unverified' }, new ActionDenied('upstream_unverified', text, whereOf(scope, callId)));
  }
  if (scope.holds.holds(facts.argsHash ?? '')) {
    return refuse(
      scope,
      facts,
      { result: 'refused', reason: 'still_running' },
      new ActionDenied('still_running', `ctrlrun: ${scope.action} refused: ${STILL_RUNNING_TEXT}.`, whereOf(scope, callId)),
    );
  }
  // an operator's halt: from what this process knows (no read while it knows of none); a call about
  // to use up an approval reads the halts first (a halt found after the claim could not give it back)
  const halted = haltNow(scope, facts.principal, runContext, facts.decision.decision === 'approve');
  if (isThenable(halted)) return authorizeOnceRead(halted, scope, facts, runContext, callId);
  return authorizeUnhalted(scope, facts, runContext, callId, halted);
}

function authorizeOnceRead(
  halted: PromiseLike<Halt | undefined>,
  scope: CoreScope,
  facts: CallFacts,
  runContext: RunContext<unknown>,
  callId: string | null,
): Promise<Authorization> {
  return Promise.resolve(halted).then((halt) => settledAuthorization(authorizeUnhalted(scope, facts, runContext, callId, halt)));
}

/** `authorize` past the refusals: a halt's refusal, the approval, or the decision's receipt. */
function authorizeUnhalted(
  scope: CoreScope,
  facts: CallFacts,
  runContext: RunContext<unknown>,
  callId: string | null,
  halt: Halt | undefined,
): Promise<Authorization> | ReadyRun {
  if (halt) return refuseHalted(scope, facts, halt);
  // a call the policy sends to a person: its approval (or an approval grant) first
  if (facts.decision.decision === 'approve') return authorizeApproved(scope, facts, whereOf(scope, callId), runContext);
  // allowed, with no budget to spend and no effect to reserve (most calls): authorizeRun's end here, no frame of its own
  if (!facts.grant?.budgets && facts.decision.effectKey === null) {
    // unreservedRun of nobody's approval, made in place: its list of approvers (new each call, the
    // door may change it) and the authorization, without the approval's and the pair's objects
    const approvers: string[] = [];
    const authorized: Authorized = { kind: 'enforce', facts, approvers, key: null, attemptId: null };
    return { authorized, receipt: decisionReceipt(scope, facts, { result: 'allowed', approvers, effect_key: null }, runContext) };
  }
  return authorizeRun(scope, facts, whereOf(scope, callId), notApproved(), runContext);
}

/** Where a refusal happened, for its error (made only when a call is refused). */
function whereOf(scope: CoreScope, callId: string | null): Where {
  return { action: scope.action, callId };
}

/**
 * An `approve` call: the store's answer for it (claimed now when it has no effect key; read, for
 * the reservation to use up, when it has one). No request of its own: an approval grant may cover
 * it (core/approval-grant.ts), else nothing authorizes it. Then the approval checked
 * (`approvedBy`), the call as approved (an edit decided again: core/edit.ts), the budgets it
 * spends, and the decision's receipt or the reservation.
 */
async function authorizeApproved(scope: CoreScope, facts: CallFacts, where: Where, runContext: RunContext<unknown>): Promise<Authorized> {
  const keyed = facts.decision.effectKey !== null;
  const found = keyed ? await vetBound(scope, facts) : await claimBound(scope, facts);
  if (found.outcome === 'unknown') {
    const grant = await coveringGrant(scope, facts);
    if (grant !== undefined) return await runUnderGrant(scope, { ...facts, approvalGrant: grant }, where, runContext);
  }
  const approvers = await approvedBy(scope, facts, found);
  // approvedBy refuses every outcome but `claimed` (usable): the request is this call's
  const running = runningCall(scope, facts, (found as Extract<ClaimResult, { outcome: 'claimed' }>).request);
  if (isEditRefusal(running)) return refuse(scope, facts, { ...running.receipt, approvers }, running.error);
  return await authorizeRun(scope, running.facts, where, { proposal: facts, approvers, edited: running.edited }, runContext);
}

/** A call an approval grant lets run without a pause: the grant's approver is its approver, the grant named on its receipts. */
function runUnderGrant(scope: CoreScope, facts: CallFacts, where: Where, runContext: RunContext<unknown>): Promise<Authorized> {
  return authorizeRun(scope, facts, where, { approvers: [facts.approvalGrant!.grantedBy] }, runContext);
}

/**
 * The last stages of every authorized call, allowed or approved: the budgets it spends, then the
 * decision's receipt (no effect key: a store that cannot record it stops the call, and so does a
 * halt set since, halt.ts) or the reservation that uses up its approval (reserveWithClaim).
 */
async function authorizeRun(scope: CoreScope, facts: CallFacts, where: Where, approval: Approval, runContext: RunContext<unknown>): Promise<Authorized> {
  const charges = facts.grant?.budgets ? await budgetCharges(scope, facts, facts.grant, where) : [];
  const key = facts.decision.effectKey;
  if (key !== null) return await reserveWithClaim(scope, facts, key, charges, where, approval, runContext);
  const run = unreservedRun(facts, approval);
  await decisionReceipt(scope, facts, run.fields, runContext);
  return run.authorized;
}

/**
 * A call that reserves no effect key: the fields of its decision's receipt (before anything runs:
 * a store that cannot record it stops the call, and so does a halt set since, halt.ts) and the
 * authorization it is then handed. Approved when someone approved it, as reserveWithClaim reads it
 * (an approval has at least one approver).
 */
function unreservedRun(facts: CallFacts, approval: Approval): { fields: ReceiptFieldsOf; authorized: Authorized } {
  const { approvers, edited } = approval;
  const authorized: Authorized = { kind: 'enforce', facts, approvers, key: null, attemptId: null };
  if (edited) authorized.edited = edited;
  return { fields: { result: approvers.length > 0 ? 'claimed' : 'allowed', approvers, effect_key: null }, authorized };
}

/**
 * The arguments, the principal and the decision: the call's facts, with the input about to run
 * checked to be the call's own (schema-valid, and what its raw arguments give).
 */
function admit(
  scope: CoreScope,
  input: unknown,
  runContext: RunContext<unknown>,
  callId: string | null,
  toolCall: { arguments?: string } | undefined,
): Maybe<CallFacts> {
  const found = scope.principals.forBody(runContext, toolCall);
  // the guardrail's principal (or a synchronous identity's) is taken without a turn
  return isThenable(found) ? admitOnceFound(found, scope, input, callId, toolCall) : admitWith(scope, input, found, callId, toolCall);
}

function admitOnceFound(
  found: Promise<Principal>,
  scope: CoreScope,
  input: unknown,
  callId: string | null,
  toolCall: { arguments?: string } | undefined,
): Promise<CallFacts> {
  return found.then((principal) => admitWith(scope, input, principal, callId, toolCall));
}

/** `admit` with the call's principal: its facts, or its refusal (a promise that rejects once the receipt is written). */
function admitWith(
  scope: CoreScope,
  input: unknown,
  principal: Principal,
  callId: string | null,
  toolCall: { arguments?: string } | undefined,
): Maybe<CallFacts> {
  const raw = toolCall?.arguments;
  // the guardrail's arguments for this same text, or read here as it reads them: as the body gets them
  let fromRaw = principal.fromRaw;
  let checked = principal.checked;
  if (checked === undefined && typeof raw === 'string') {
    const lossless = parseArguments(raw);
    fromRaw = scope.args.policyArgs(raw, lossless);
    checked = callArguments(lossless, fromRaw);
  }
  checked ??= checkArguments(input);
  // the guardrail's decision on this same parse, where it handed one on (no grants: deciding again gives it)
  const decided = principal.decided ?? decideOn(scope.decision, scope.internals.clock, raw, input, principal.who, principal.task, checked);
  const { argsHash, argsJson } = argsOf(decided);
  const facts: CallFacts = {
    callId,
    argsHash,
    argsJson,
    principal: principal.who?.principal ?? null,
    decision: decided.decision,
    grant: decided.grant,
    args: decided.args,
    subject: principal.who?.subject ?? null,
    task: principal.task,
  };
  // `checked` is the parse of `raw` when it is a string (the guardrail's, kept for this same text, or the one above)
  const problem = inputProblem(scope.args, raw, input, typeof raw === 'string' ? checked : undefined);
  if (problem !== null) {
    const error = new ActionDenied(
      'invalid_arguments',
      `ctrlrun: ${scope.action} refused: its arguments do not match the tool's schema (${problem}); it did not run.`,
      whereOf(scope, callId),
    );
    return refuse(scope, { ...facts, decision: INVALID_ARGUMENTS }, { result: 'refused', reason: `invalid_arguments:${problem}` }, error);
  }
  if (typeof raw === 'string' && fromRaw !== undefined && !inputIsTheCalls(fromRaw, input)) {
    const error = new ActionDenied(
      'arguments_mismatch',
      `ctrlrun: ${scope.action} refused: the input to run differs from the call's arguments (details.toolCall.arguments); it did not run.`,
      whereOf(scope, callId),
    );
    return refuse(scope, facts, { result: 'refused', reason: 'arguments_mismatch' }, error);
  }
  return facts;
}

/** CTRLRun v7: a call under a budgeted grant spends it on the reservation, so it needs an effect key. */
async function budgetCharges(scope: CoreScope, facts: CallFacts, grant: CompiledGrant, where: Where): Promise<BudgetCharge[]> {
  const key = facts.decision.effectKey;
  const made = chargesFor(grant, facts.args);
  if (typeof made === 'string') {
    return refuse(
      scope,
      facts,
      { result: 'refused', reason: 'invalid_argument', effect_key: key },
      new ActionDenied('invalid_argument', `ctrlrun: ${scope.action} refused (invalid_argument): ${made}; it did not run.`, where),
    );
  }
  if (key === null) {
    const error = new ActionDenied(
      'budget_requires_effect',
      `ctrlrun: ${scope.action} refused (budget_requires_effect): grant ${grant.id} has a budget, and a budget is spent on the effect's reservation, but the action resolves no effect key (add \`effect:\` to it in ctrlrun.yaml); it did not run.`,
      where,
    );
    return refuse(scope, facts, { result: 'refused', reason: 'budget_requires_effect' }, error);
  }
  return made;
}

/** The approvers of an approval the store's answer shows usable, or the refusal (its receipt, then `ApprovalMismatch`). */
export async function approvedBy(scope: CoreScope, facts: CallFacts, claimed: ClaimResult): Promise<string[]> {
  const rules = { now: scope.internals.clock(), ttlMs: scope.internals.approvalTtlMs, approvalsRequired: scope.compiled?.approvalsRequired ?? 1 };
  const binding = bindingOf(scope.action, scope.policy.hash, facts);
  // the request filed at the pause is this call's: its log entry was written then (one entry a call)
  if (claimed.outcome !== 'unknown' && claimed.request.callId === facts.callId && claimMatches(claimed.request, binding)) facts.requested = true;
  const verdict = approvalVerdict(facts, claimed, binding, rules);
  if (verdict.ok) return verdict.approvers;
  const error = new ApprovalMismatch(verdict.reason, `ctrlrun: ${scope.action} did not run: ${verdict.text}`, { action: scope.action, callId: facts.callId });
  return refuse(scope, facts, { result: 'refused', reason: `approval_${verdict.reason}`, approvers: verdict.approvers }, error);
}

/**
 * Who authorized a call that reserves its key: nobody (allowed), an approval this reservation uses
 * up (`proposal`: the call as the model proposed it, which the approval is bound to; the reserving
 * facts are the edited call's when the approval carries an edit), or an approval grant (approvers only).
 */
interface Approval {
  proposal?: CallFacts;
  approvers: string[];
  edited?: EditedRun | undefined;
}

/** An allowed call's approval: nobody's, a new list each call (the authorization hands it to the door, which could change it). */
function notApproved(): Approval {
  return { approvers: [] };
}

/**
 * CTRLRun §4.2 A4: the approval was checked without being used (authorizeApproved), and is used
 * up by the reservation itself, in the store's one transaction: a refused reservation (spent budget,
 * duplicate, ambiguous, attempts exhausted) leaves it approved, and the call has one decision
 * receipt, its outcome (never `allowed`/`claimed` followed by a refusal).
 */
async function reserveWithClaim(
  scope: CoreScope,
  facts: CallFacts,
  key: string,
  charges: BudgetCharge[],
  where: Where,
  approval: Approval,
  runContext: RunContext<unknown>,
): Promise<Authorized> {
  const { internals } = scope;
  const { proposal, approvers } = approval;
  const approved = approvers.length > 0;
  // the approval is bound to the call as proposed (an edit changes what runs, not which call it is)
  const binding = proposal ? bindingOf(scope.action, scope.policy.hash, proposal) : undefined;
  const request = {
    key,
    action: scope.action,
    maxAttempts: scope.compiled?.maxAttempts,
    now: internals.clock(),
    leaseMs: internals.effectLeaseMs,
    charges,
    claim: binding && facts.callId !== null ? { callId: facts.callId, binding } : undefined,
  };
  const { reserved, attemptId } = await reserve(internals.store, request, () => globalThis.crypto.randomUUID());
  const release = () => internals.store.settleEffect(key, attemptId, 'failed', internals.clock()).catch(() => false);
  switch (reserved.outcome) {
    case 'claim_refused':
      // the approval changed between the check and the reservation (another call used it): as a claim would say
      await approvedBy(scope, proposal ?? facts, reserved.claim);
      // (approvedBy() refuses every outcome but `claimed`)
      throw new ApprovalMismatch('unknown', `ctrlrun: ${scope.action} did not run: its approval could not be used.`, where);
    case 'budget_exhausted':
    case 'duplicate':
    case 'ambiguous':
    case 'exhausted': {
      const refused = reservationRefusal(scope.action, key, reserved, approvers, where);
      return refuse(scope, facts, refused.receipt, refused.error);
    }
    case 'reserved':
      break;
    default:
      // a store that answers something else (a malformed row, another contract): nothing runs
      await release();
      throw new CtrlrunError(`ctrlrun: ${scope.action} did not run: the store answered the reservation of ${key} with an unknown outcome.`, where);
  }
  let by = approvers;
  try {
    // the approval the reservation used up must be this call's own (a store may answer another's)
    if (reserved.claimed) by = await approvedBy(scope, proposal ?? facts, { outcome: 'claimed', request: reserved.claimed });
    else if (request.claim) by = await approvedBy(scope, proposal ?? facts, { outcome: 'unknown' });
    // the decision's receipt, before anything runs: a store that cannot record it stops the call, and so does a halt set since
    await decisionReceipt(scope, facts, { result: approved ? 'claimed' : 'allowed', approvers: by, effect_key: key }, runContext);
  } catch (error) {
    // nothing ran: the reservation (and any budget it charged) is released
    await release();
    throw error;
  }
  const authorized: Authorized = { kind: 'enforce', facts, approvers: by, key, attemptId };
  if (approval.edited) authorized.edited = approval.edited;
  return authorized;
}

export { approversOf };
