import type { DecisionLogStore } from '../types.js';

/** httpStore's decision log: each method one POST to serve, which runs it on its store (serve's runtime-api.ts). */
export function httpDecisionLog(call: (method: 'appendDecision' | 'listDecisions' | 'decisionKey', args: unknown[]) => Promise<never>): DecisionLogStore {
  let key: Promise<string> | undefined;
  return {
    // the runtime token's tenant's key (serve derives it from its store's); asked once a store object
    decisionKey: () =>
      (key ??= call('decisionKey', []).catch((error: unknown) => {
        key = undefined;
        throw error;
      })),
    appendDecision: (body) => call('appendDecision', [body]),
    listDecisions: (query) => call('listDecisions', query === undefined ? [] : [query]),
  };
}
