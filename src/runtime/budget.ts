/**
 * The budget predicate of CTRLRun (SPEC-v0.9 §3.3.1) in one place, so the three stores cannot drift
 * on the arithmetic: a charge passes when the un-released amount its grant and metric hold over
 * `[now - windowMs, now]`, plus its own amount, is at most its limit (inclusive). Pure.
 */
import type { BudgetCharge, Consumption } from './types.js';

/** The first charge that would take its budget past the limit, or null when all fit. */
export function refusedCharge(charges: readonly BudgetCharge[], rows: readonly Consumption[], now: number): BudgetCharge | null {
  for (const charge of charges) {
    const since = now - charge.windowMs;
    let held = 0n;
    for (const row of rows) {
      if (row.grantId === charge.grantId && row.metric === charge.metric && row.releasedAt === null && row.consumedAt >= since) held += BigInt(row.amount);
    }
    if (held + BigInt(charge.amount) > BigInt(charge.limit)) return charge;
  }
  return null;
}

/** The ledger rows a reservation writes: one per grant and metric (two budgets on one metric share it). */
export function ledgerRows(charges: readonly BudgetCharge[], effectKey: string, attempt: number, now: number): Consumption[] {
  const rows = new Map<string, Consumption>();
  for (const c of charges) {
    const id = JSON.stringify([c.grantId, c.metric]);
    if (!rows.has(id)) rows.set(id, { grantId: c.grantId, metric: c.metric, amount: c.amount, effectKey, attempt, consumedAt: now, releasedAt: null });
  }
  return [...rows.values()];
}

/** A charge the stores accept: decimal digits for amount and limit, a positive window. */
export function checkCharges(charges: readonly BudgetCharge[] | undefined): readonly BudgetCharge[] {
  if (charges === undefined) return [];
  for (const c of charges) {
    if (
      !/^[0-9]+$/.test(c.amount) ||
      !/^[0-9]+$/.test(c.limit) ||
      !(Number.isSafeInteger(c.windowMs) && c.windowMs > 0) ||
      typeof c.grantId !== 'string' ||
      typeof c.metric !== 'string'
    ) {
      throw new TypeError(`a budget charge needs a non-negative integer amount and limit and a positive window: ${JSON.stringify(c)}`);
    }
  }
  return charges;
}
