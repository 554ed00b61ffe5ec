import { appendReceipt, reasonText, type ControlInternals, type ReceiptFields } from '../internals.js';
import type { CompiledPolicy, Receipt } from '../types.js';
import { decisionEntryOf, hashKeyFor, logDecision, toolOf } from './decision-entry.js';
import type { CallFacts, ReceiptFieldsOf, WriteReceipt } from './types.js';

/** Stage 9, the receipt, as a pure mapping: the call's facts and one stage's fields, as the receipt records them. */
export function receiptOf(action: string, facts: CallFacts, fields: ReceiptFieldsOf): ReceiptFields {
  const receipt: ReceiptFields = {
    action,
    call_id: facts.callId,
    args_hash: facts.argsHash,
    principal: facts.principal,
    decision: facts.decision.decision,
    reason: fields.reason ?? reasonText(facts.decision),
    approvers: fields.approvers ?? [],
    effect_key: fields.effect_key ?? null,
    result: fields.result,
  };
  // only where there is one: a receipt without an edit or a grant hashes as it always did
  if (facts.edit !== undefined) receipt.edit = facts.edit;
  if (facts.approvalGrant !== undefined) receipt.approval_grant = facts.approvalGrant.id;
  return receipt;
}

/**
 * The receipt writer of one action: appended to the control's store, hash-chained, signed when the
 * control has a key; a decision's receipt is followed by its decision log entry (decision-entry.ts).
 */
export function receiptWriter(internals: ControlInternals, policy: CompiledPolicy, action: string, environment: string): WriteReceipt {
  const tool = toolOf(policy, action);
  // the entry (its arguments redacted and copied) is built only where the control keeps a log
  const logs = internals.decisionLog === true && typeof internals.store.appendDecision === 'function';
  const labelled = (policy.actions[action]?.sensitive?.length ?? 0) > 0;
  const entryOf = (facts: CallFacts, receipt: Receipt, key: string) => decisionEntryOf(action, tool, policy, environment, facts, receipt, key);
  // chained on the store's promise, not async wrappers: the two receipts of a call wait on no extra turn
  return (facts, fields, options) => {
    // with telemetry the call's facts go along (its checked arguments, for the traces' labelled view)
    const written =
      internals.telemetry === undefined
        ? appendReceipt(internals, policy, receiptOf(action, facts, fields), undefined, options)
        : appendReceipt(internals, policy, receiptOf(action, facts, fields), facts, options);
    if (!logs) return written;
    // only a decision's receipt has an entry (logDecision writes none for null): the body's outcome waits on no log write
    if (!labelled) return written.then((receipt) => logDecision(internals, entryOf(facts, receipt, '')));
    return written.then((receipt) => hashKeyFor(internals.store, policy, action).then((key) => logDecision(internals, entryOf(facts, receipt, key))));
  };
}
