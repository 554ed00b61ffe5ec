import { memoryApprovals } from './stores/memory/approvals.js';
import { memoryEffects } from './stores/memory/effects.js';
import { memoryHalts } from './stores/memory/halts.js';
import { memoryReceipts } from './stores/memory/receipts.js';
import { newMemoryState, open } from './stores/memory/state.js';
import { memoryDecisionLog } from './stores/decision-log-memory.js';
import { memorySessions } from './stores/sessions-memory.js';
import { memoryGrants } from './stores/grants-memory.js';
import type { Store } from './types.js';

/**
 * The in-memory store: one process, gone when the process ends. Every method runs to completion
 * without awaiting in the middle, so each is atomic under Node's single thread. Values go in and
 * out as copies: a caller mutating what it got back never changes the store. The methods live in
 * stores/memory/ (approvals, effects, receipts), each a translation of stores/transitions.ts.
 */
export function memoryStore(): Store {
  const state = newMemoryState();
  return {
    kind: 'memory',
    ...memoryDecisionLog(() => open(state)),
    ...memorySessions(() => open(state)),
    ...memoryGrants(() => open(state)),
    ...memoryApprovals(state),
    ...memoryEffects(state),
    ...memoryReceipts(state),
    ...memoryHalts(state),
    async close(): Promise<void> {
      state.closed = true;
    },
  };
}

// The transition rules moved to stores/transitions.ts; these names stay importable from here for
// the modules that still do.
export { answerOutcome, canResolve, canSettle, claimMatches, claimOutcome, reserveTransition, withAnswer } from './stores/transitions.js';
