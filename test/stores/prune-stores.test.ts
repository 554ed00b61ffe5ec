import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryStore, verifyReceipts } from '../../src/runtime/index.js';
import { postgresStore } from '../../src/runtime/postgres.js';
import { sqliteStore } from '../../src/runtime/sqlite.js';
import type { ReceiptBody, Store } from '../../src/runtime/types.js';
import { tempDir } from '../cli/operator-helpers.js';
import { describePostgres, dropSchema, freshSchema } from './pg-helpers.js';

/**
 * The stores' part of pruning receipts (issue 37): the oldest go, the newest never (the next
 * receipt links to it), and a removal no prune record names is `missing` to verification.
 */
const body = (n: number): ReceiptBody => ({
  at: n,
  action: 'stripe.refund',
  call_id: `c${n}`,
  args_hash: null,
  principal: null,
  decision: 'allow',
  reason: 'rule[0]',
  approvers: [],
  effect_key: null,
  result: 'allowed',
  policy_hash: 'p'.repeat(64),
  mode: 'enforce',
  environment: null,
});

function suite(make: () => Promise<Store>) {
  let store: Store | undefined;
  afterEach(async () => store?.close());
  it('deleteReceipts removes the oldest up to a seq, never the newest; the chain goes on from it', async () => {
    store = await make();
    for (const n of [1, 2, 3]) await store.appendReceipt(body(n));
    expect(await store.deleteReceipts!(3)).toBe(2);
    const [kept] = await store.listReceipts();
    expect(kept!.seq).toBe(3);
    const next = await store.appendReceipt(body(4));
    expect([next.seq, next.prev_hash]).toEqual([4, kept!.hash]);
    expect(await verifyReceipts(store)).toEqual({ ok: false, seq: 1, break: 'missing' });
  });
}

describe('pruning receipts: memory', () => suite(async () => memoryStore()));
describe('pruning receipts: SQLite', () =>
  suite(async () => {
    // each store's folder goes with it: a CI machine runs this suite many times
    const dir = tempDir('ctrlrun-prune-');
    const s = sqliteStore({ path: `${dir}/state.db` });
    const close = s.close.bind(s);
    return Object.assign(s, {
      close: async () => {
        await close();
        rmSync(dir, { recursive: true, force: true });
      },
    });
  }));
describePostgres('pruning receipts: Postgres', (url) => {
  const schema = freshSchema();
  suite(async () => {
    const s = postgresStore({ connectionString: url, schema });
    const close = s.close.bind(s);
    return Object.assign(s, {
      close: async () => {
        await close();
        await dropSchema(url, schema);
      },
    });
  });
});
