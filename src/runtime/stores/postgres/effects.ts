import type { BudgetCharge, Consumption, EffectRecord, EffectState, ReserveEffectInput, ReserveResult, Store } from '../../types.js';
import { checkCharges, reservePlan, resolveTransition, settleTransition, type ReserveWrites } from '../transitions.js';
import { EFFECT_COLUMNS, effectFromRow, effectToValues, type EffectRow } from '../rows.js';
import { consume, lockApproval, lockEffect, run, type PgShell } from './connection.js';
import { CHARGE_COLUMNS, consumptionFromRow, type ConsumptionRow, type PgStatements } from './statements.js';
import type { PgClientLike } from './types.js';

export type EffectMethods = Pick<Store, 'reserveEffect' | 'settleEffect' | 'resolveEffect' | 'consumptions' | 'getEffect' | 'listEffects'>;

/** The effect-key and budget-ledger methods of the Postgres store. */
export function postgresEffects(shell: PgShell): EffectMethods {
  const { S, Q, query, transaction } = shell;
  return {
    async reserveEffect(input: ReserveEffectInput): Promise<ReserveResult> {
      const charges = checkCharges(input.charges);
      return transaction('reserveEffect', (c) => reserve(S, Q, c, input, charges));
    },

    async settleEffect(key, attemptId, state, now): Promise<boolean> {
      return transaction('settleEffect', async (c) => {
        const settled = settleTransition(await lockEffect(Q, c, key), attemptId, state, now);
        if (!settled) return false;
        await run(c, Q.setEffectState, [key, state, now]);
        if (settled.release) await run(c, Q.releaseCharges, [now, key]);
        return true;
      });
    },

    async resolveEffect(key, state, by, now): Promise<EffectRecord | null> {
      return transaction('resolveEffect', async (c) => {
        const current = await lockEffect(Q, c, key);
        if (!current) return null;
        const resolved = resolveTransition(current, state, by, now);
        if (!resolved) return current;
        await run(c, Q.resolveEffect, [key, state, now, by]);
        if (resolved.release) await run(c, Q.releaseCharges, [now, key]);
        return resolved.next;
      });
    },

    async consumptions(filter?: { grantId?: string; metric?: string; effectKey?: string }): Promise<Consumption[]> {
      const r = await query(
        'consumptions',
        `SELECT ${CHARGE_COLUMNS} FROM ${S}.budget_ledger WHERE ($1::text IS NULL OR grant_id = $1) AND ($2::text IS NULL OR metric = $2) AND ($3::text IS NULL OR effect_key = $3) ORDER BY id`,
        [filter?.grantId ?? null, filter?.metric ?? null, filter?.effectKey ?? null],
      );
      return r.rows.map((row) => consumptionFromRow(row as ConsumptionRow));
    },

    async getEffect(key: string): Promise<EffectRecord | null> {
      const r = await query('getEffect', { ...Q.effectByKey, values: [key] });
      return r.rows[0] ? effectFromRow(r.rows[0] as EffectRow) : null;
    },

    async listEffects(filter?: { state?: EffectState }): Promise<EffectRecord[]> {
      const r =
        filter?.state === undefined
          ? await query('listEffects', `SELECT ${EFFECT_COLUMNS} FROM ${S}.effects ORDER BY key COLLATE "C"`)
          : await query('listEffects', `SELECT ${EFFECT_COLUMNS} FROM ${S}.effects WHERE state = $1 ORDER BY key COLLATE "C"`, [filter.state]);
      return r.rows.map((row) => effectFromRow(row as EffectRow));
    },
  };
}

/**
 * One reservation path, charged or not. Under READ COMMITTED a sum and an insert are not
 * serialised, so each charged grant's transaction-scoped advisory lock is taken first (sorted: no
 * deadlock); the claimed approval is locked; the plan is made first on the guess that the key is
 * new (one INSERT … ON CONFLICT DO NOTHING, the common case), and again on the key's locked row
 * when the guess was wrong, the plan refused, or the insert lost to another transaction's.
 */
async function reserve(S: string, Q: PgStatements, c: PgClientLike, input: ReserveEffectInput, charges: readonly BudgetCharge[]): Promise<ReserveResult> {
  for (const grant of [...new Set(charges.map((ch) => ch.grantId))].sort()) await run(c, Q.grantLock, [`${S}.budget:${grant}`]);
  const approval = input.claim ? await lockApproval(Q, c, input.claim.callId) : undefined;
  const held: Consumption[] = [];
  for (const ch of charges)
    held.push(...(await run(c, Q.heldCharges, [ch.grantId, ch.metric, input.now - ch.windowMs])).rows.map((row) => consumptionFromRow(row as ConsumptionRow)));
  let current: EffectRecord | undefined;
  for (let guess = true, tries = 0; ; guess = false, tries++) {
    if (!guess) current = await lockEffect(Q, c, input.key);
    if (tries > 1 && current === undefined) throw new Error(`the effect ${input.key} lost an insert race but has no row`);
    const { result, writes } = reservePlan(input, charges, { approval, current, held });
    if (guess && !writes?.effect?.insert) continue; // a refusal is never decided on a guess
    if (!writes || (await applyReserve(Q, c, writes))) return result;
  }
}

/** The writes of a decided reservation; false when its insert of a new key lost to another transaction's. */
async function applyReserve(Q: PgStatements, c: PgClientLike, writes: ReserveWrites): Promise<boolean> {
  if (writes.effect?.insert) {
    const inserted = await run(c, Q.insertEffect, effectToValues(writes.effect.record));
    if (inserted.rowCount !== 1) return false;
  } else if (writes.effect) {
    await run(c, Q.updateEffect, effectToValues(writes.effect.record));
  }
  for (const r of writes.charges) await run(c, Q.insertCharge, [r.grantId, r.metric, r.amount, r.effectKey, r.attempt, r.consumedAt]);
  if (writes.claimed) await consume(Q, c, writes.claimed);
  return true;
}
