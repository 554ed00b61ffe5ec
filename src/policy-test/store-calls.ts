/**
 * Recorded calls from a store's decision log (`replay --store`): each entry as a RecordedCall, the
 * recorded decision its baseline, a labelled argument still only its hash (`hashed`). Read in pages
 * of seq, filtered by the store (`--since`, `--action`); a call id seen twice is replayed once (its
 * first decision). A paused call's answer is read for the report's examples only (answers.ts).
 */
import type { DecisionEntry, DecisionQuery, Store } from '../runtime/types.js';
import type { RecordedCall } from './calls-file.js';
import type { Decider } from './decider.js';
import { replayTally, type ReplayResult } from './replay.js';

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

type CallFilter = { since?: number; action?: string };

/**
 * The store's log that passes the filters, page by page in seq order (each page's calls once the
 * call ids seen before are dropped), so a caller keeps one page at a time; null when the store keeps no log.
 */
export function storeCallPages(store: Store, filter: CallFilter = {}, pageSize = STORE_PAGE): AsyncGenerator<RecordedCall[]> | null {
  if (typeof store.listDecisions !== 'function') return null;
  return callPagesOf(logPages(store.listDecisions.bind(store), filter, pageSize));
}

async function* callPagesOf(pages: AsyncGenerator<DecisionEntry[]>): AsyncGenerator<RecordedCall[]> {
  const first = firstOfEachCall();
  for await (const page of pages) {
    const calls: RecordedCall[] = [];
    for (const e of page) if (first(e)) calls.push(callOfEntry(e));
    yield calls;
  }
}

/** The log's entries that pass the filters, a page (as the store returns it) at a time, in seq order. */
async function* logPages(list: NonNullable<Store['listDecisions']>, filter: CallFilter, pageSize: number): AsyncGenerator<DecisionEntry[]> {
  for (let afterSeq = 0; ; ) {
    const query: DecisionQuery = {
      afterSeq,
      limit: pageSize,
      ...(filter.since !== undefined ? { since: filter.since } : {}),
      ...(filter.action !== undefined ? { action: filter.action } : {}),
    };
    const page = await list(query);
    yield page;
    if (page.length < pageSize) return;
    afterSeq = page[page.length - 1]!.seq;
  }
}

/** Whether an entry is its call's first in the log (an entry with no call id always is). */
function firstOfEachCall(): (e: DecisionEntry) => boolean {
  const seen = new Set<string>();
  return (e) => {
    if (e.call_id === null) return true;
    // one lookup, not a `has` then an `add`: the set grows only for an id it did not hold
    const size = seen.size;
    return seen.add(e.call_id).size !== size;
  };
}

/** Every call of the store's log that passes the filters, in seq order; null when the store keeps no log. */
export async function readStoreCalls(store: Store, filter: CallFilter = {}, pageSize = STORE_PAGE): Promise<RecordedCall[] | null> {
  const pages = storeCallPages(store, filter, pageSize);
  if (pages === null) return null;
  const calls: RecordedCall[] = [];
  for await (const page of pages) for (const call of page) calls.push(call);
  return calls;
}

/**
 * The store's log replayed under the candidate as it is read (its recorded decisions the baseline);
 * null when the store keeps no log. Each entry goes to the tally as it is met, no page of calls
 * built: only the store's page is live, as when the rows are only read.
 */
export async function replayStoreCalls(
  store: Store,
  candidate: Decider,
  filter: CallFilter = {},
  pageSize = STORE_PAGE,
  options: { all?: boolean } = {},
): Promise<ReplayResult | null> {
  if (typeof store.listDecisions !== 'function') return null;
  const first = firstOfEachCall();
  const tally = replayTally(candidate, null, options);
  for await (const page of logPages(store.listDecisions.bind(store), filter, pageSize)) for (const e of page) if (first(e)) tally.add(callOfEntry(e));
  return tally.result();
}
