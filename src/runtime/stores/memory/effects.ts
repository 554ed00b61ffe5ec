import { checkCharges, reservePlan, resolveTransition, settleTransition } from '../transitions.js';
import type { Consumption, EffectRecord, EffectState, ReserveEffectInput, ReserveResult, Store } from '../../types.js';
import { byCodeUnit, copy, copyReserve, open, release, type MemoryState } from './state.js';

export type EffectMethods = Pick<Store, 'reserveEffect' | 'consumptions' | 'settleEffect' | 'resolveEffect' | 'getEffect' | 'listEffects'>;

/** The effect-key and budget-ledger half of the memory store. */
export function memoryEffects(state: MemoryState): EffectMethods {
  const { requests, effects, ledger } = state;
  return {
    async reserveEffect(input: ReserveEffectInput): Promise<ReserveResult> {
      open(state);
      const charges = checkCharges(input.charges);
      const approval = input.claim ? requests.get(input.claim.callId) : undefined;
      const { result, writes } = reservePlan(input, charges, { approval, current: effects.get(input.key), held: ledger });
      if (writes?.effect) effects.set(input.key, writes.effect.record);
      if (writes) ledger.push(...writes.charges);
      if (writes?.claimed) requests.set(writes.claimed.callId, writes.claimed);
      return copyReserve(result);
    },

    async consumptions(filter?: { grantId?: string; metric?: string; effectKey?: string }): Promise<Consumption[]> {
      open(state);
      return ledger
        .filter(
          (r) =>
            (filter?.grantId === undefined || r.grantId === filter.grantId) &&
            (filter?.metric === undefined || r.metric === filter.metric) &&
            (filter?.effectKey === undefined || r.effectKey === filter.effectKey),
        )
        .map(copy);
    },

    async settleEffect(key, attemptId, settledState, now): Promise<boolean> {
      open(state);
      const settled = settleTransition(effects.get(key), attemptId, settledState, now);
      if (!settled) return false;
      effects.set(key, settled.next);
      if (settled.release) release(state, key, now);
      return true;
    },

    async resolveEffect(key, resolvedState, by, now): Promise<EffectRecord | null> {
      open(state);
      const current = effects.get(key);
      if (!current) return null;
      const resolved = resolveTransition(current, resolvedState, by, now);
      if (!resolved) return copy(current);
      effects.set(key, resolved.next);
      if (resolved.release) release(state, key, now);
      return copy(resolved.next);
    },

    async getEffect(key: string): Promise<EffectRecord | null> {
      open(state);
      const found = effects.get(key);
      return found ? copy(found) : null;
    },

    async listEffects(filter?: { state?: EffectState }): Promise<EffectRecord[]> {
      open(state);
      return [...effects.values()]
        .filter((e) => filter?.state === undefined || e.state === filter.state)
        .sort((a, b) => byCodeUnit(a.key, b.key))
        .map(copy);
    },
  };
}
