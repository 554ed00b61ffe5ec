import type { Halt, HaltState, HaltStore } from '../../types.js';
import { open, type MemoryState } from './state.js';

/** The halts of the memory store: each change raises the epoch in the same turn. */
export function memoryHalts(state: MemoryState): HaltStore {
  const snapshot = (): HaltState => ({ epoch: state.haltEpoch, halts: [...state.halts.values()].map((h) => ({ ...h })) });
  return {
    async readHalts() {
      open(state);
      return snapshot();
    },
    async putHalt(halt: Halt) {
      open(state);
      if (!state.halts.has(halt.id)) {
        state.halts.set(halt.id, { ...halt });
        state.haltEpoch += 1;
      }
      return snapshot();
    },
    async liftHalt(id: string) {
      open(state);
      const lifted = state.halts.get(id) ?? null;
      if (lifted) {
        state.halts.delete(id);
        state.haltEpoch += 1;
      }
      return { lifted: lifted && { ...lifted }, state: snapshot() };
    },
  };
}
