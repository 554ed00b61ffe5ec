import type { DecisionLogStore } from '../types.js';

/** httpStore's decision log: each method one POST to serve, which runs it on its store (serve's decision-log-api.ts). */
export function httpDecisionLog(call: (method: 'appendDecision' | 'listDecisions', args: unknown[]) => Promise<never>): DecisionLogStore {
  return {
    appendDecision: (body, retainAfter) => call('appendDecision', retainAfter === undefined ? [body] : [body, retainAfter]),
    listDecisions: (query) => call('listDecisions', query === undefined ? [] : [query]),
  };
}
