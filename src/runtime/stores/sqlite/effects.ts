import type { Consumption, EffectRecord, EffectState, ReserveEffectInput, ReserveResult, Store } from '../../types.js';
import { checkCharges, reservePlan, resolveTransition, settleTransition } from '../transitions.js';
import { effectFromRow, type EffectRow } from '../rows.js';
import type { SqliteShell } from './connection.js';
import { applyReserve, approvalOf, consumptionFromRow, type ConsumptionRow } from './statements.js';

export type EffectMethods = Pick<Store, 'reserveEffect' | 'settleEffect' | 'resolveEffect' | 'consumptions' | 'getEffect' | 'listEffects'>;

/** The effect-key and budget-ledger methods of the SQLite store. */
export function sqliteEffects({ write, read }: SqliteShell): EffectMethods {
  return {
    async reserveEffect(input: ReserveEffectInput): Promise<ReserveResult> {
      const charges = checkCharges(input.charges);
      return write('reserveEffect', (s): ReserveResult => {
        const row = s.getEffect.get(input.key) as EffectRow | undefined;
        // inside BEGIN IMMEDIATE: the facts, the sum and the writes are one write-locked transaction
        const held: Consumption[] = [];
        for (const c of charges) held.push(...(s.heldCharges.all(c.grantId, c.metric, input.now - c.windowMs) as ConsumptionRow[]).map(consumptionFromRow));
        const facts = { approval: input.claim ? approvalOf(s, input.claim.callId) : undefined, current: row ? effectFromRow(row) : undefined, held };
        const { result, writes } = reservePlan(input, charges, facts);
        if (writes) applyReserve(s, writes);
        return result;
      });
    },

    async settleEffect(key, attemptId, state, now): Promise<boolean> {
      return write('settleEffect', (s) => {
        const row = s.getEffect.get(key) as EffectRow | undefined;
        const settled = settleTransition(row ? effectFromRow(row) : undefined, attemptId, state, now);
        if (!settled) return false;
        s.setEffectState.run(state, now, null, key);
        if (settled.release) s.releaseCharges.run(now, key);
        return true;
      });
    },

    async resolveEffect(key, state, by, now): Promise<EffectRecord | null> {
      return write('resolveEffect', (s) => {
        const row = s.getEffect.get(key) as EffectRow | undefined;
        if (!row) return null;
        const current = effectFromRow(row);
        const resolved = resolveTransition(current, state, by, now);
        if (!resolved) return current;
        s.setEffectState.run(state, now, by, key);
        if (resolved.release) s.releaseCharges.run(now, key);
        return resolved.next;
      });
    },

    async consumptions(filter?: { grantId?: string; metric?: string; effectKey?: string }): Promise<Consumption[]> {
      return read('consumptions', (s) =>
        (s.listCharges.all() as ConsumptionRow[])
          .map(consumptionFromRow)
          .filter(
            (r) =>
              (filter?.grantId === undefined || r.grantId === filter.grantId) &&
              (filter?.metric === undefined || r.metric === filter.metric) &&
              (filter?.effectKey === undefined || r.effectKey === filter.effectKey),
          ),
      );
    },

    async getEffect(key: string): Promise<EffectRecord | null> {
      return read('getEffect', (s) => {
        const row = s.getEffect.get(key) as EffectRow | undefined;
        return row ? effectFromRow(row) : null;
      });
    },

    async listEffects(filter?: { state?: EffectState }): Promise<EffectRecord[]> {
      return read('listEffects', (s) => {
        const rows = (filter?.state === undefined ? s.listEffects.all() : s.listEffectsByState.all(filter.state)) as EffectRow[];
        return rows.map(effectFromRow);
      });
    },
  };
}
