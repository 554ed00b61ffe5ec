import { redactArguments } from '../decision-log.js';
import type { ControlInternals } from '../internals.js';
import type { CompiledPolicy, DecisionBody, Receipt } from '../types.js';
import type { CallFacts } from './types.js';

/** The receipts that end a call's decision (the decision stage's answer), as opposed to its body's outcome. */
const DECIDED = new Set(['allowed', 'claimed', 'denied', 'refused', 'duplicate']);

/**
 * The decision log's entry for a receipt the core just wrote, or null: only a decision's receipt
 * (not the body's outcome; in observe mode a call's one receipt, after its body), only of a call whose arguments were checked (a call refused before
 * the policy had none to decide on). The call's inputs as the decision saw them; the action's
 * labelled arguments written as their hash.
 */
export function decisionEntryOf(action: string, tool: string | null, policy: CompiledPolicy, environment: string, facts: CallFacts, receipt: Receipt): DecisionBody | null {
  if (!(DECIDED.has(receipt.result) || receipt.mode === 'observe') || facts.args === undefined || facts.argsHash === null || receipt.decision === null) return null;
  const { args, hashed } = redactArguments(facts.args, policy.actions[action]?.sensitive ?? [], facts.argsJson);
  const d = facts.decision;
  return {
    at: receipt.at,
    action,
    tool,
    call_id: receipt.call_id,
    args,
    hashed,
    args_hash: facts.argsHash,
    principal: facts.subject ?? null,
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
}

/** The SDK tool name the manifest maps to `action` (the first, in manifest order), or null. */
export function toolOf(policy: CompiledPolicy, action: string): string | null {
  for (const [tool, mapped] of Object.entries(policy.tools ?? {})) if (mapped === action) return tool;
  return null;
}

/**
 * Writes the entry of one receipt to the store's log, when the control keeps one and the store
 * has one. A store that cannot record it fails the call as a receipt failure does.
 */
export async function logDecision(internals: ControlInternals, entry: DecisionBody | null): Promise<void> {
  const retention = internals.decisionRetentionMs;
  if (entry === null || retention === null || retention === undefined || typeof internals.store.appendDecision !== 'function') return;
  await internals.store.appendDecision(entry, entry.at - retention);
}
