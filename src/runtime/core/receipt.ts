import { reasonText, sendReceipt, type ControlInternals } from '../internals.js';
import type { CompiledPolicy, Receipt, ReceiptBody } from '../types.js';
import { decisionEntryOf, entryFollows, hashKeyFor, logDecision } from './decision-entry.js';
import type { CallFacts, ReceiptFieldsOf, WriteFailed, WriteReceipt } from './types.js';

/**
 * Stage 9, the receipt, as a pure mapping: the call's facts and one stage's fields, stamped with
 * the time, the policy and the environment, as the receipt records them. One object, its members
 * in the order `appendReceipt`'s base-then-fields merge gives them (the SQL stores keep a receipt's
 * JSON text as it is written: the order is part of the stored bytes).
 */
export function receiptOf(
  action: string,
  facts: CallFacts,
  fields: ReceiptFieldsOf,
  at: number,
  policy: Pick<CompiledPolicy, 'hash' | 'mode'>,
  environment: string | null,
): ReceiptBody {
  const receipt: ReceiptBody = {
    at,
    call_id: facts.callId,
    args_hash: facts.argsHash,
    principal: facts.principal,
    decision: facts.decision.decision,
    approvers: fields.approvers ?? [],
    effect_key: fields.effect_key ?? null,
    policy_hash: policy.hash,
    mode: policy.mode,
    environment,
    action,
    reason: fields.reason ?? reasonText(facts.decision),
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
export function receiptWriter(internals: ControlInternals, policy: CompiledPolicy, action: string, environment: string, tool: string | null): WriteReceipt {
  // the entry (its arguments redacted and copied) is built only where the control keeps a log
  const logs = internals.decisionLog === true && typeof internals.store.appendDecision === 'function';
  const labelled = (policy.actions[action]?.sensitive?.length ?? 0) > 0;
  const entryOf = (facts: CallFacts, receipt: Receipt, key: string) => decisionEntryOf(action, tool, policy, environment, facts, receipt, key);
  // chained on the store's promise, not async wrappers: the two receipts of a call wait on no extra turn
  return (facts, fields, options, failed, context) => {
    let written: Promise<Receipt>;
    try {
      const at = internals.clock();
      const sent = receiptOf(action, facts, fields, at, policy, internals.environment ?? policy.environment ?? null);
      // with telemetry the call's facts go along (its checked arguments, for the traces' labelled view)
      written = sendReceipt(internals, policy, sent, undefined, internals.telemetry === undefined ? undefined : facts, options);
    } catch (error) {
      written = Promise.reject(error); // (a throw is a rejection, as from an async writer)
    }
    // only a decision's receipt has an entry: the body's outcome waits on nothing more than its write
    if (!logs || !entryFollows(fields.result, policy.mode)) return failed === undefined ? written : handled(written, facts, fields, failed, context);
    // the decision's receipt, then its entry; a failed write answered by `failed` (the closures in
    // functions of their own: here they gave every receipt, the outcome's too, a context)
    return labelled ? labelledThenEntry(written, facts, fields, failed, context) : receiptThenEntry(written, facts, fields, failed, context);
  };

  /** A labelled action's decision receipt, then its entry under the store's key (the closures here: no other path pays their context). */
  function labelledThenEntry(
    written: Promise<Receipt>,
    facts: CallFacts,
    fields: ReceiptFieldsOf,
    failed: WriteFailed | undefined,
    context: unknown,
  ): Promise<unknown> {
    return written.then(
      (receipt) => hashKeyFor(internals.store, policy, action).then((key) => logDecision(internals, entryOf(facts, receipt, key))),
      failed === undefined ? undefined : (error: unknown) => failed(error, facts, fields, context),
    );
  }

  /**
   * An unlabelled decision's receipt, then its entry, each awaited here: a `then` whose callback
   * returns the log's promise resolves through one more job and turn than the records floor's two
   * awaits. The write's failure handler (the halts' retry) answers a failed write, as `then`'s did.
   */
  async function receiptThenEntry(
    written: Promise<Receipt>,
    facts: CallFacts,
    fields: ReceiptFieldsOf,
    failed: WriteFailed | undefined,
    context: unknown,
  ): Promise<unknown> {
    let receipt: Receipt;
    try {
      receipt = await written;
    } catch (error) {
      if (failed === undefined) throw error;
      return failed(error, facts, fields, context);
    }
    return await logDecision(internals, entryOf(facts, receipt, ''));
  }
}

/** A receipt with no entry after it, its write's failure answered by `failed` (a function of its own: the closure's context only here). */
function handled(written: Promise<Receipt>, facts: CallFacts, fields: ReceiptFieldsOf, failed: WriteFailed, context: unknown): Promise<unknown> {
  return written.catch((error: unknown) => failed(error, facts, fields, context));
}
