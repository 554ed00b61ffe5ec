/**
 * Recorded calls from a store's decision log (`replay --store`): each entry as a RecordedCall, the
 * recorded decision its baseline, a labelled argument still only its hash (`hashed`). Read in pages
 * of seq, filtered by the store (`--since`, `--action`); a call id seen twice is replayed once (its
 * first decision). A paused call carries its answer from the store's request (`answer`).
 */
import type { DecisionEntry, DecisionQuery, Store } from '../runtime/types.js';
import { answersOf, answerText } from './answers.js';
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
  };
}

/** Every call of the store's log that passes the filters, in seq order; null when the store keeps no log. */
export async function readStoreCalls(store: Store, filter: { since?: number; action?: string } = {}, pageSize = STORE_PAGE): Promise<RecordedCall[] | null> {
  if (typeof store.listDecisions !== 'function') return null;
  const calls: RecordedCall[] = [];
  const seen = new Set<string>();
  for (let afterSeq = 0; ; ) {
    const query: DecisionQuery = { afterSeq, limit: pageSize, ...(filter.since !== undefined ? { since: filter.since } : {}), ...(filter.action !== undefined ? { action: filter.action } : {}) };
    const page = await store.listDecisions(query);
    const answers = await answersOf(store, page);
    for (const e of page) {
      if (e.call_id !== null) {
        if (seen.has(e.call_id)) continue;
        seen.add(e.call_id);
      }
      const call = callOfEntry(e);
      const answer = answers.get(e.seq);
      calls.push(answer === undefined ? call : { ...call, answer: answerText(answer) });
    }
    if (page.length < pageSize) return calls;
    afterSeq = page[page.length - 1]!.seq;
  }
}
