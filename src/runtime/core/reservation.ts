import { ActionDenied, AmbiguousEffect, DuplicateEffect, type CtrlrunError } from '../errors.js';
import type { BudgetCharge, ClaimBinding, ReserveEffectInput, ReserveResult, Store } from '../types.js';
import { ambiguousText, windowText } from './messages.js';
import type { ReceiptFieldsOf } from './types.js';

/** What the reservation of one call's effect key asks of the store. */
export interface ReservationRequest {
  key: string;
  action: string;
  maxAttempts: number | null | undefined;
  now: number;
  leaseMs: number;
  charges: BudgetCharge[];
  /** The approval the reservation uses up in the same transaction (an `approve` call with a call id). */
  claim?: { callId: string; binding: ClaimBinding } | undefined;
}

/** The store's input for a reservation: a fresh attempt id, no ceiling for an absent `max_attempts` (CTRLRun's reading). */
export function reservationInput(request: ReservationRequest, attemptId: string): ReserveEffectInput {
  return {
    key: request.key,
    action: request.action,
    attemptId,
    maxAttempts: request.maxAttempts ?? Number.MAX_SAFE_INTEGER,
    now: request.now,
    leaseMs: request.leaseMs,
    ...(request.charges.length > 0 ? { charges: request.charges } : {}),
    ...(request.claim ? { claim: request.claim } : {}),
  };
}

/**
 * Stage 6, the effect reservation: reserves the key (and spends the budgets, and uses up the
 * approval) in the store's one transaction. Returns the store's answer and the attempt id.
 */
export async function reserve(
  store: Pick<Store, 'reserveEffect'>,
  request: ReservationRequest,
  newId: () => string,
): Promise<{ reserved: ReserveResult; attemptId: string }> {
  const attemptId = newId();
  return { reserved: await store.reserveEffect(reservationInput(request, attemptId)), attemptId };
}

/** A reservation the store refused (`duplicate`, `ambiguous`, `exhausted`, `budget_exhausted`): the receipt, then the error. */
export interface ReservationRefusal {
  receipt: ReceiptFieldsOf;
  error: CtrlrunError;
}

/** The refusal of a reservation outcome other than `reserved` and `claim_refused` (which the approval stage words). Pure. */
export function reservationRefusal(
  action: string,
  key: string,
  reserved: Exclude<ReserveResult, { outcome: 'reserved' | 'claim_refused' }>,
  approvers: string[],
  where: { action: string; callId: string | null },
): ReservationRefusal {
  switch (reserved.outcome) {
    case 'budget_exhausted': {
      const c = reserved.charge;
      // the grant, the metric and the window, never the amount left (CTRLRun: a balance is an oracle)
      return {
        receipt: { result: 'refused', reason: 'budget_exhausted', approvers, effect_key: key },
        error: new ActionDenied(
          'budget_exhausted',
          `ctrlrun: ${action} refused (budget_exhausted): grant ${c.grantId}'s budget on ${c.metric} over ${windowText(c.windowMs)} is spent; it did not run.`,
          where,
        ),
      };
    }
    case 'duplicate':
      return {
        receipt: { result: 'duplicate', reason: 'effect_committed', approvers, effect_key: key },
        error: new DuplicateEffect(key, `ctrlrun: ${action} did not run: effect ${key} already happened (committed); it must not happen twice.`, where),
      };
    case 'ambiguous':
      return {
        receipt: { result: 'refused', reason: `effect_${reserved.effect.state}`, approvers, effect_key: key },
        error: new AmbiguousEffect(
          key,
          ambiguousText(
            action,
            key,
            reserved.effect.state === 'in_flight' ? 'another attempt holds it right now' : 'an earlier attempt ended without a known outcome',
          ),
          where,
        ),
      };
    case 'exhausted':
      return {
        receipt: { result: 'refused', reason: 'max_attempts', approvers, effect_key: key },
        error: new ActionDenied(
          'max_attempts',
          `ctrlrun: ${action} did not run: effect ${key} failed ${reserved.effect.attempts} time(s), the action's max_attempts.`,
          where,
        ),
      };
  }
}
