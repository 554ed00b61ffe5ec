import { chainedEntry, newDecisionKey } from '../decision-log.js';
import { copyPlain } from './memory/state.js';
import type { DecisionBody, DecisionEntry, DecisionLogStore, DecisionQuery } from '../types.js';

/** Whether an entry passes a query's filters (the seq bound, the time, the action). */
export function matchesQuery(entry: DecisionEntry, query: DecisionQuery | undefined): boolean {
  return (
    entry.seq > (query?.afterSeq ?? 0) &&
    (query?.since === undefined || entry.at >= query.since) &&
    (query?.action === undefined || entry.action === query.action)
  );
}

/**
 * The in-memory store's decision log: an array, appended and pruned without awaiting (atomic under
 * Node's one thread); entries go out as copies. `open` throws when the store is closed.
 */
export function memoryDecisionLog(open: () => void): DecisionLogStore {
  const entries: DecisionEntry[] = [];
  let lastSeq = 0;
  let lastHash: string | undefined;
  let key: string | undefined;
  return {
    async decisionKey(): Promise<string> {
      open();
      key ??= newDecisionKey();
      return key;
    },
    async appendDecision(body: DecisionBody, retainAfter?: number): Promise<DecisionEntry> {
      open();
      const entry = chainedEntry(copyPlain(body), lastHash === undefined ? undefined : { seq: lastSeq, hash: lastHash });
      if (retainAfter !== undefined) {
        let n = 0;
        while (n < entries.length && entries[n]!.at < retainAfter) n += 1;
        entries.splice(0, n);
      }
      entries.push(entry);
      lastSeq = entry.seq;
      lastHash = entry.hash;
      return copyPlain(entry);
    },
    async listDecisions(query?: DecisionQuery): Promise<DecisionEntry[]> {
      open();
      const selected = entries.filter((e) => matchesQuery(e, query));
      return (query?.limit === undefined ? selected : selected.slice(0, query.limit)).map((e) => copyPlain(e));
    },
  };
}
