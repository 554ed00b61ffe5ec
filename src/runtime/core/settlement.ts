import { AmbiguousEffect, CtrlrunError, NotExecuted } from '../errors.js';
import { describeError } from '../internals.js';
import { markBodyFailure } from './body-failures.js';
import { ambiguousText } from './messages.js';
import { establishNotExecuted } from './not-executed.js';
import { ReportedOutcome, type ReceiptFieldsOf } from './types.js';

/** How a body ended: its output (possibly a `ReportedOutcome`), or what it threw. */
export type BodyOutcome = { ok: true; output: unknown } | { ok: false; error: unknown };

/**
 * Stage 8, the settlement, as a pure plan: the state the effect key settles to (when the call
 * holds one), the outcome's receipt, and what the caller gets: the output, or the error to throw.
 */
export interface Settlement {
  effect: 'committed' | 'failed' | 'ambiguous';
  receipt: ReceiptFieldsOf;
  answer: { return: unknown } | { throw: unknown };
}

export interface SettlementScope {
  action: string;
  callId: string | null;
  key: string | null;
  approvers: string[];
  /** The user's own errorFunction: their body's error goes to it rather than becoming `AmbiguousEffect`. */
  hasUserErrorFunction: boolean;
}

/** The receipt of a body that answered (the run-call's common end writes it without a plan too). */
export function executedReceipt(approvers: string[], key: string | null) {
  return { result: 'executed' as const, approvers, effect_key: key };
}

export function settlementOf(scope: SettlementScope, outcome: BodyOutcome): Settlement {
  const { action, key, approvers } = scope;
  if (outcome.ok && outcome.output instanceof ReportedOutcome) {
    // a body that answered but says it did not succeed (an MCP result marked isError): recorded as it says
    const reported = outcome.output;
    const notExecuted = reported.outcome === 'not_executed';
    return {
      effect: notExecuted ? 'failed' : 'ambiguous',
      receipt: { result: notExecuted ? 'not_executed' : key ? 'ambiguous' : 'failed', reason: reported.reason, approvers, effect_key: key },
      answer: { return: reported.output },
    };
  }
  if (outcome.ok) return { effect: 'committed', receipt: executedReceipt(approvers, key), answer: { return: outcome.output } };
  const error = outcome.error;
  if (error instanceof NotExecuted) {
    return {
      effect: 'failed',
      receipt: { result: 'not_executed', reason: error.message, approvers, effect_key: key },
      answer: { throw: establishNotExecuted(error) },
    };
  }
  const receipt = { result: key ? 'ambiguous' : 'failed', reason: describeError(error), approvers, effect_key: key };
  if (error instanceof CtrlrunError) return { effect: 'ambiguous', receipt, answer: { throw: error } };
  if (key && !scope.hasUserErrorFunction) {
    const ambiguous = new AmbiguousEffect(key, ambiguousText(action, key, `the tool body threw: ${describeError(error)}`), {
      action,
      callId: scope.callId,
      cause: error,
    });
    return { effect: 'ambiguous', receipt, answer: { throw: ambiguous } };
  }
  return { effect: 'ambiguous', receipt, answer: { throw: markBodyFailure(error) } };
}

/** Observe mode's plan: nothing is settled; the receipt says what enforce would have done (`reason`). */
export function observedSettlement(reason: string, key: string | null, outcome: BodyOutcome): Omit<Settlement, 'effect'> {
  if (!outcome.ok) {
    const error = outcome.error;
    return {
      receipt: { result: error instanceof NotExecuted ? 'not_executed' : 'failed', reason, effect_key: key },
      answer: { throw: error instanceof CtrlrunError ? error : markBodyFailure(error) },
    };
  }
  if (outcome.output instanceof ReportedOutcome) {
    return {
      receipt: { result: outcome.output.outcome === 'not_executed' ? 'not_executed' : 'failed', reason, effect_key: key },
      answer: { return: outcome.output.output },
    };
  }
  return { receipt: { result: 'executed', reason, effect_key: key }, answer: { return: outcome.output } };
}

/** A store failure after the body ran: the caller must know the outcome was not recorded. */
export function notRecorded(action: string, callId: string | null, error: unknown): CtrlrunError {
  return new CtrlrunError(`ctrlrun: ${action} ran, but recording its outcome failed (${describeError(error)}); check the store before retrying anything.`, {
    action,
    callId,
    cause: error,
  });
}
