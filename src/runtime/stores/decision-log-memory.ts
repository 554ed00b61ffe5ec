import { chainInPlace, newDecisionKey } from '../decision-log.js';
import { GENESIS_HASH } from '../receipts-hash.js';
import { copyPlain } from './memory/state.js';
import { tombstoneOf } from './decision-log-rows.js';
import type { DecisionBody, DecisionEntry, DecisionLogStore, DecisionQuery, PrunedDecision, PruneStore } from '../types.js';

/** Whether an entry passes a query's filters (the seq bound, the time, the action). */
export function matchesQuery(entry: DecisionEntry, query: DecisionQuery | undefined): boolean {
  return (
    entry.seq > (query?.afterSeq ?? 0) &&
    (query?.since === undefined || entry.at >= query.since) &&
    (query?.action === undefined || entry.action === query.action)
  );
}

const isPruned = (e: DecisionEntry | PrunedDecision): e is PrunedDecision => 'pruned' in e;

type DecisionPruning = Pick<PruneStore, 'decisionHead' | 'deleteDecisions' | 'tombstoneDecisions' | 'listPrunedDecisions'>;

/**
 * The in-memory store's decision log: an array, appended and pruned without awaiting (atomic under
 * Node's one thread); entries go out as copies. `open` throws when the store is closed.
 */
export function memoryDecisionLog(open: () => void): DecisionLogStore & DecisionPruning {
  const entries: Array<DecisionEntry | PrunedDecision> = [];
  let lastSeq = 0;
  let lastHash: string | undefined;
  let key: string | undefined;
  return {
    async decisionKey(): Promise<string> {
      open();
      key ??= newDecisionKey();
      return key;
    },
    async appendDecision(body: DecisionBody): Promise<DecisionEntry> {
      open();
      // the copy in is the entry kept, chained in place: one copy in and one out, not a third between
      const entry = chainInPlace(copyPlain(body), lastHash === undefined ? undefined : { seq: lastSeq, hash: lastHash });
      entries.push(entry);
      lastSeq = entry.seq;
      lastHash = entry.hash;
      return copyPlain(entry);
    },
    async listDecisions(query?: DecisionQuery): Promise<DecisionEntry[]> {
      open();
      const selected = entries.filter((e): e is DecisionEntry => !isPruned(e) && matchesQuery(e, query));
      return (query?.limit === undefined ? selected : selected.slice(0, query.limit)).map((e) => copyPlain(e));
    },
    async decisionHead() {
      open();
      return { seq: lastSeq, hash: lastHash ?? GENESIS_HASH };
    },
    async deleteDecisions(through: number): Promise<number> {
      open();
      let n = 0;
      while (n < entries.length && entries[n]!.seq <= through) n += 1;
      entries.splice(0, n);
      return n;
    },
    async tombstoneDecisions(seqs: readonly number[], tenant: string): Promise<number> {
      open();
      const wanted = new Set(seqs);
      let n = 0;
      entries.forEach((e, i) => {
        if (!wanted.has(e.seq) || isPruned(e)) return;
        entries[i] = tombstoneOf(e, tenant);
        n += 1;
      });
      return n;
    },
    async listPrunedDecisions(): Promise<PrunedDecision[]> {
      open();
      return entries.filter(isPruned).map((e) => copyPlain(e));
    },
  };
}
