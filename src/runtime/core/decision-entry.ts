import { redactArguments, storeDecisionKey } from '../decision-log.js';
import type { ControlInternals } from '../internals.js';
import { toolOf } from '../tool-name.js';
import type { CompiledPolicy, DecisionBody, Receipt, Store } from '../types.js';
import type { CallFacts } from './types.js';

/** The receipts that end a call's decision (the decision stage's answer), as opposed to its body's outcome. */
const DECIDED = new Set(['requested', 'allowed', 'claimed', 'denied', 'refused', 'duplicate']);

/**
 * The decision log's entry for a receipt the core just wrote, or null: only a decision's receipt
 * (not the body's outcome; in observe mode a call's one receipt, after its body), only of a call whose arguments were checked (a call refused before
 * the policy had none to decide on). A paused call's entry is written with its `requested`
 * receipt; the receipts of its resume (claimed, or refused by the approval or the reservation)
 * write none, so a store with calls still pending replays them and a call has one entry. The
 * call's inputs as the decision saw them; the action's labelled arguments written as their hash.
 */
export function decisionEntryOf(
  action: string,
  tool: string | null,
  policy: CompiledPolicy,
  environment: string,
  facts: CallFacts,
  receipt: Receipt,
  key: string,
): DecisionBody | null {
  if (facts.requested === true && receipt.result !== 'requested') return null;
  if (!entryFollows(receipt.result, receipt.mode) || facts.args === undefined || facts.argsHash === null || receipt.decision === null) return null;
  const { args, hashed } = redactArguments(facts.args, policy.actions[action]?.sensitive ?? [], key, facts.argsJson);
  const d = facts.decision;
  const entry: DecisionBody = {
    at: receipt.at,
    action,
    tool,
    call_id: receipt.call_id,
    args,
    hashed,
    args_hash: facts.argsHash,
    // a copy: the subject may be the kept identity answer's (frozen, shared by calls), and the entry is the store's to keep or change
    principal: facts.subject ? { ...facts.subject } : null,
    environment,
    task: facts.task ?? null,
    decision: receipt.decision,
    rule: d.rule,
    reason: d.reason,
    effect_key: d.effectKey,
    resource: d.resource,
    policy_hash: receipt.policy_hash,
    mode: receipt.mode,
    result: receipt.result,
    receipt_seq: receipt.seq,
    receipt_hash: receipt.hash,
  };
  // only where there is one: an entry without an edit or a grant is written as it always was
  if (facts.edit !== undefined) entry.edit = facts.edit;
  if (facts.approvalGrant !== undefined) entry.approval_grant = facts.approvalGrant.id;
  return entry;
}

/** Whether a receipt of this result, in this mode, may have an entry: a decision's (in observe mode, a call's one receipt). */
export function entryFollows(result: string, mode: string): boolean {
  return DECIDED.has(result) || mode === 'observe';
}

/**
 * Writes the entry of one receipt to the store's log, when the control keeps one and the store
 * has one. A store that cannot record it fails the call as a receipt failure does.
 */
export function logDecision(internals: ControlInternals, entry: DecisionBody | null): Promise<unknown> | undefined {
  if (entry === null || internals.decisionLog !== true || typeof internals.store.appendDecision !== 'function') return undefined;
  // the store's own promise, not one more around it (the caller awaits it); never a retention: pruning is an operator's act
  return internals.store.appendDecision(entry);
}

/**
 * The entry of a decision receipt written outside an action's core (`control.request` filing a
 * pause the core could not bind, a hosted MCP call): the same entry, the same store, the same rule.
 */
export async function logReceipt(internals: ControlInternals, policy: CompiledPolicy, action: string, facts: CallFacts, receipt: Receipt): Promise<void> {
  if (internals.decisionLog !== true || typeof internals.store.appendDecision !== 'function') return;
  const environment = internals.environment ?? policy.environment ?? 'production';
  await logDecision(
    internals,
    decisionEntryOf(action, toolOf(policy, action), policy, environment, facts, receipt, await hashKeyFor(internals.store, policy, action)),
  );
}

/**
 * The key an action's labelled arguments are hashed under (`storeDecisionKey`); `''` for an action
 * with no labels: nothing is asked of the store.
 */
export function hashKeyFor(store: Store, policy: CompiledPolicy, action: string): Promise<string> {
  if ((policy.actions[action]?.sensitive?.length ?? 0) === 0) return Promise.resolve('');
  return storeDecisionKey(store);
}
