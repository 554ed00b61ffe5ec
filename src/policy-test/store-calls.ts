/**
 * Recorded calls from a store's decision log (`replay --store`): each entry as a RecordedCall, the
 * recorded decision its baseline, a labelled argument still only its hash (`hashed`). Read in pages
 * of seq, filtered by the store (`--since`, `--action`); a call id seen twice is replayed once (its
 * first decision). A paused call's answer is read for the report's examples only (answers.ts).
 */
import type { DecisionEntry, DecisionQuery, Store } from '../runtime/types.js';
import type { RecordedCall } from './calls-file.js';

export const STORE_PAGE = 10_000;

/** One entry of the log as a call to replay; `line` is its seq in the log. */
export function callOfEntry(e: DecisionEntry): RecordedCall {
  return {
    line: e.seq,
    action: e.action,
    argsText: e.args,
    hashed: e.hashed,
    principal: e.principal,
    environment: e.environment,
    task: e.task,
    at: e.at,
    recorded: { decision: e.decision, reason: e.reason },
    callId: e.call_id,
    argsHash: e.args_hash,
  };
}

/** Every call of the store's log that passes the filters, in seq order; null when the store keeps no log. */
export async function readStoreCalls(store: Store, filter: { since?: number; action?: string } = {}, pageSize = STORE_PAGE): Promise<RecordedCall[] | null> {
  if (typeof store.listDecisions !== 'function') return null;
  const calls: RecordedCall[] = [];
  const seen = new Set<string>();
  for (let afterSeq = 0; ; ) {
    const query: DecisionQuery = {
      afterSeq,
      limit: pageSize,
      ...(filter.since !== undefined ? { since: filter.since } : {}),
      ...(filter.action !== undefined ? { action: filter.action } : {}),
    };
    const page = await store.listDecisions(query);
    for (const e of page) {
      if (e.call_id !== null) {
        if (seen.has(e.call_id)) continue;
        seen.add(e.call_id);
      }
      calls.push(callOfEntry(e));
    }
    if (page.length < pageSize) return calls;
    afterSeq = page[page.length - 1]!.seq;
  }
}
