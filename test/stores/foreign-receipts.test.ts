import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  bindProtectedTool,
  createControl,
  generateReceiptKey,
  httpStore,
  memoryStore,
  run,
  verifyReceipts,
  type ReceiptBody,
  type Store,
} from '../../src/runtime/index.js';
import { RECEIPT_NAMES } from '../../src/runtime/signing.js';
import { sqliteStore } from '../../src/runtime/sqlite.js';
import { cli } from '../helpers/cli.js';
import { agentWith, assistantMessage, makePolicy, refundCall, scripted } from '../runtime/helpers.js';
import { startFixture, type ServeFixture } from '../serve/helpers.js';

/**
 * Issue 24 item 6: a signed checkpoint covers only the receipt its signer appended and checked. A
 * receipt forged through the store's API between two of the application's (seq 5) is named by no
 * checkpoint, and `receipts verify --public-key` reports it (`foreign`, at its seq, exit 1) even
 * though the application's next checkpoint signs a hash that chains over it.
 */
const key = generateReceiptKey();

function signingTool(store: Store) {
  const control = createControl({ store, identity: (rc) => (rc.context as { user?: string }).user ?? null, receiptKey: key.secret });
  const tool = bindProtectedTool(control, makePolicy())('stripe.refund', {
    name: 'refund',
    description: 'Refund',
    parameters: z.object({ payment_id: z.string(), amount: z.number().int() }),
    execute: async () => 'ok',
  });
  return (payment: string) =>
    run(agentWith(scripted([refundCall({ payment_id: payment, amount: 5_000 }, `c_${payment}`)], [assistantMessage('done')]), [tool]), 'refund', {
      context: { user: 'alice' },
    });
}

/** What a forger appends: an "executed" refund nobody ran, shaped like the application's own. */
const forged = (): ReceiptBody => ({
  at: Date.now(),
  action: 'stripe.refund',
  call_id: 'c_forged',
  args_hash: null,
  principal: 'alice',
  decision: 'allow',
  reason: 'rule[0]',
  approvers: [],
  effect_key: 'refund:pay_forged',
  result: 'executed',
  policy_hash: makePolicy().hash,
  mode: 'enforce',
  environment: null,
});

let fx: ServeFixture | undefined;
let dir: string | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('a foreign receipt between signed ones', () => {
  it('forged through the store at seq 5: the next checkpoint does not cover it; verify reports foreign at 5', async () => {
    const store = memoryStore();
    const refund = signingTool(store);
    await refund('pay_1'); // seq 1-4: allowed, checkpoint, executed, checkpoint
    expect((await verifyReceipts(store, { publicKey: key.publicKey })).ok).toBe(true);
    const f = await store.appendReceipt(forged());
    expect(f.seq).toBe(5);
    await refund('pay_2'); // seq 6-9: the checkpoint at 7 signs seq 6, whose prev_hash chains over 5
    const receipts = await store.listReceipts();
    expect(receipts[6]!.checkpoint).toMatchObject({ seq: 6, hash: receipts[5]!.hash });
    expect(receipts[5]!.prev_hash).toBe(f.hash);
    expect(await verifyReceipts(store)).toMatchObject({ ok: true }); // the SHA-256 chain alone is intact
    expect(await verifyReceipts(store, { publicKey: key.publicKey })).toEqual({ ok: false, seq: 5, break: 'foreign' });
  });

  it('forged through httpStore on serve (a runtime token): verify reports foreign at its seq', async () => {
    fx = await startFixture({ forger: 'runtime', app: 'runtime' });
    const app = httpStore({ url: fx.serve.url, token: fx.tokens.app! });
    const forger = httpStore({ url: fx.serve.url, token: fx.tokens.forger! });
    const refund = signingTool(app);
    await refund('pay_1');
    const f = await forger.appendReceipt(forged());
    await refund('pay_2');
    expect(await verifyReceipts(fx.store, { publicKey: key.publicKey })).toEqual({ ok: false, seq: f.seq, break: 'foreign' });
  });

  it('CLI: receipts verify --public-key exits 1 and names the seq of the forged receipt (SQLite)', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-foreign-'));
    const file = path.join(dir, 'state.db');
    const store = sqliteStore({ path: file });
    const refund = signingTool(store);
    await refund('pay_1');
    await store.appendReceipt(forged());
    await refund('pay_2');
    await store.close();
    writeFileSync(path.join(dir, 'receipt.pub'), `${key.publicKey}\n`);
    const verify = await cli(['receipts', 'verify', '--store', `sqlite:${file}`, '--public-key', 'receipt.pub'], { cwd: dir });
    expect(verify.code).toBe(1);
    expect(verify.stdout).toContain('broken at seq 5: foreign');
    const json = await cli(['receipts', 'verify', '--store', `sqlite:${file}`, '--public-key', 'receipt.pub', '--json'], { cwd: dir });
    expect(JSON.parse(json.stdout)).toEqual({ ok: false, seq: 5, break: 'foreign' });
  });

  it('a store that appends something other than what the control sent gets no checkpoint (the run fails closed)', async () => {
    const inner = memoryStore();
    const lying: Store = Object.assign(Object.create(inner) as Store, {
      appendReceipt: async (body: ReceiptBody) =>
        inner.appendReceipt(body.action === 'ctrlrun.checkpoint' ? body : { ...body, result: 'executed', reason: 'rule[0]' }),
    });
    const refund = signingTool(lying);
    await expect(refund('pay_1')).rejects.toThrow(/did not append the receipt this control sent/);
    expect((await inner.listReceipts()).some((r) => r.action === 'ctrlrun.checkpoint')).toBe(false);
  });

  it('a receipt handed back in the sent names is signed only when its hash is that of the names the store says it stored (RECEIPT_NAMES)', async () => {
    // a store (serve's tenant view) stores `@acme:` + each name, hands the receipt back in the names
    // sent and says which prefix; one whose hash covers other names, or that renames, gets no checkpoint
    const scoped = (names: string, stored: (id: string) => string, shown: (id: string) => string = (id) => id) => {
      const inner = memoryStore();
      const store: Store = Object.assign(Object.create(inner) as Store, {
        appendReceipt: async (body: ReceiptBody) => {
          if (body.action === 'ctrlrun.checkpoint') return inner.appendReceipt(body);
          const rename = (f: (id: string) => string) => (id: string | null) => (id === null ? null : f(id));
          const appended = await inner.appendReceipt({ ...body, call_id: rename(stored)(body.call_id), effect_key: rename(stored)(body.effect_key) });
          const back = { ...appended, call_id: rename(shown)(body.call_id), effect_key: rename(shown)(body.effect_key) };
          return Object.defineProperty(back, RECEIPT_NAMES, { value: names });
        },
      });
      return { inner, refund: signingTool(store) };
    };
    const ok = scoped('@acme:', (id) => `@acme:${id}`);
    await ok.refund('pay_1');
    expect((await ok.inner.listReceipts()).filter((r) => r.action === 'ctrlrun.checkpoint')).toHaveLength(2);
    expect(await verifyReceipts(ok.inner, { publicKey: key.publicKey })).toMatchObject({ ok: true });
    for (const [names, stored, shown, why] of [
      ['@acme:', (id: string) => `@globex:${id}`, undefined, /its hash does not match/],
      ['@acme:', (id: string) => `@acme:@acme:${id}`, undefined, /its hash does not match/],
      ['acme/', (id: string) => `acme/${id}`, undefined, /its hash does not match/],
      ['@acme:', (id: string) => `@acme:${id}`, (id: string) => `${id}x`, /field (call_id|effect_key) differs/],
    ] as const) {
      const bad = scoped(names, stored, shown);
      await expect(bad.refund('pay_1')).rejects.toThrow(why);
      expect((await bad.inner.listReceipts()).some((r) => r.action === 'ctrlrun.checkpoint')).toBe(false);
    }
  });

  it('a store that answers an append with a receipt whose hash is not its own gets no checkpoint', async () => {
    const inner = memoryStore();
    const lying: Store = Object.assign(Object.create(inner) as Store, {
      appendReceipt: async (body: ReceiptBody) => ({ ...(await inner.appendReceipt(body)), hash: 'f'.repeat(64) }),
    });
    const refund = signingTool(lying);
    await expect(refund('pay_1')).rejects.toThrow(/its hash does not match/);
    expect((await inner.listReceipts()).some((r) => r.action === 'ctrlrun.checkpoint')).toBe(false);
  });
});
