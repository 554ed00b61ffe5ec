import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openRawSqlite } from './sqlite-drivers.js';
import {
  CHECKPOINT_ACTION,
  createControl,
  generateReceiptKey,
  GENESIS_HASH,
  memoryStore,
  receiptHash,
  run,
  verifyReceiptChain,
  verifyReceipts,
  type Receipt,
  type Store,
} from '../../src/runtime/index.js';
import { bindProtectedTool } from '../../src/runtime/index.js';
import { postgresStore } from '../../src/runtime/postgres.js';
import { sqliteStore } from '../../src/runtime/sqlite.js';
import { cli } from '../helpers/cli.js';
import { agentWith, assistantMessage, makePolicy, refundCall, scripted } from '../runtime/helpers.js';
import { z } from 'zod';
import { describePostgres, dropSchema, freshSchema, withClient } from './pg-helpers.js';

const SMALL = { payment_id: 'pay_1', amount: 5_000 };

/** Three allowed refunds through the real Runner with a control that signs checkpoints. */
async function signedRuns(store: Store, receiptKey: string | null, n = 3) {
  const control = createControl({ store, identity: (rc) => (rc.context as { user?: string }).user ?? null, receiptKey });
  const protectedTool = bindProtectedTool(control, makePolicy());
  const tool = protectedTool('stripe.refund', {
    name: 'refund',
    description: 'Refund',
    parameters: z.object({ payment_id: z.string(), amount: z.number().int() }),
    execute: async () => 'ok',
  });
  for (let i = 0; i < n; i++) {
    await run(agentWith(scripted([refundCall({ ...SMALL, payment_id: `pay_${i}` }, `c${i}`)], [assistantMessage('done')]), [tool]), 'refund', {
      context: { user: 'alice' },
    });
  }
}

/** What someone with write access to the store can do: rewrite receipts and rebuild a valid SHA-256 chain. */
function rechain(receipts: Receipt[]): Receipt[] {
  const out: Receipt[] = [];
  for (const [i, r] of receipts.entries()) {
    const unsigned = { ...r, seq: i + 1, prev_hash: out[i - 1]?.hash ?? GENESIS_HASH } as Omit<Receipt, 'hash'> & { hash?: string };
    delete unsigned.hash;
    out.push({ ...unsigned, hash: receiptHash(unsigned) } as Receipt);
  }
  return out;
}

describe('signed receipt checkpoints (Ed25519; the store never holds the key)', () => {
  const key = generateReceiptKey();

  it('a control with a key appends a checkpoint after each receipt; verify with the public key passes', async () => {
    const store = memoryStore();
    await signedRuns(store, key.secret, 2);
    const receipts = await store.listReceipts();
    expect(receipts.map((r) => r.result)).toEqual(['allowed', 'checkpoint', 'executed', 'checkpoint', 'allowed', 'checkpoint', 'executed', 'checkpoint']);
    expect(receipts[1]!.checkpoint).toMatchObject({ seq: 1, hash: receipts[0]!.hash, key_id: key.keyId });
    expect(await verifyReceipts(store, { publicKey: key.publicKey })).toEqual({
      ok: true,
      count: 8,
      signed: { seq: 7, hash: receipts[6]!.hash },
      signers: [{ keyId: key.keyId, receipts: 4 }],
    });
  });

  it('a rewritten chain (valid SHA-256, edited content) passes plain verification but not the signature check', async () => {
    const store = memoryStore();
    await signedRuns(store, key.secret);
    const receipts = await store.listReceipts();
    const forged = rechain(receipts.map((r) => (r.seq === 3 ? { ...r, principal: 'mallory' } : r)));
    expect(verifyReceiptChain(forged)).toMatchObject({ ok: true });
    expect(verifyReceiptChain(forged, { publicKey: key.publicKey })).toEqual({ ok: false, seq: 4, break: 'signature_invalid' });
    // and with every checkpoint removed: nothing covers the receipts
    const stripped = rechain(forged.filter((r) => r.action !== CHECKPOINT_ACTION));
    expect(verifyReceiptChain(stripped, { publicKey: key.publicKey })).toEqual({ ok: false, seq: 1, break: 'unsigned' });
    // a checkpoint signed by another key
    expect(verifyReceiptChain(receipts, { publicKey: generateReceiptKey().publicKey })).toEqual({ ok: false, seq: 2, break: 'signature_invalid' });
  });

  it('a truncated tail is detected against the anchor of an earlier verification', async () => {
    const store = memoryStore();
    await signedRuns(store, key.secret);
    const receipts = await store.listReceipts();
    const first = verifyReceiptChain(receipts, { publicKey: key.publicKey });
    expect(first.ok).toBe(true);
    const anchor = first.ok ? first.signed! : { seq: 0, hash: '' };
    const cut = receipts.slice(0, 8); // the newest receipts and their checkpoints deleted
    expect(verifyReceiptChain(cut, { publicKey: key.publicKey })).toMatchObject({ ok: true }); // nothing inside the store shows it
    expect(verifyReceiptChain(cut, { publicKey: key.publicKey, anchor })).toEqual({ ok: false, seq: anchor.seq, break: 'truncated' });
  });

  it('receipts written without a key fail a verification that asks for signatures (unsigned)', async () => {
    const store = memoryStore();
    await signedRuns(store, null, 1);
    expect(await verifyReceipts(store, { publicKey: key.publicKey })).toEqual({ ok: false, seq: 1, break: 'unsigned' });
  });
});

describe('SQLite: every stored column counts; unreadable receipts are a located break', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('an edited hash column, a receipt JSON of null: verify names the seq; list still prints', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-receipts-'));
    const file = path.join(dir, 'state.db');
    const store = sqliteStore({ path: file });
    await signedRuns(store, null, 2);
    await store.close();
    const db = await openRawSqlite(file);
    db.run(`UPDATE receipts SET hash = ? WHERE seq = 2`, '0'.repeat(64));
    db.close();
    const s2 = sqliteStore({ path: file });
    expect(await verifyReceipts(s2)).toEqual({ ok: false, seq: 2, break: 'content_altered' });
    await s2.close();

    const db2 = await openRawSqlite(file);
    db2.run(`UPDATE receipts SET receipt = 'null' WHERE seq = 3`);
    db2.run(`UPDATE receipts SET hash = (SELECT json_extract(receipt, '$.hash') FROM receipts WHERE seq = 2) WHERE seq = 2`);
    db2.close();
    const s3 = sqliteStore({ path: file });
    expect(await verifyReceipts(s3)).toEqual({ ok: false, seq: 3, break: 'content_altered' });
    await s3.close();
    const list = await cli(['receipts', 'list', '--store', `sqlite:${file}`], { cwd: dir });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('(unreadable receipt)');
    const verify = await cli(['receipts', 'verify', '--store', `sqlite:${file}`], { cwd: dir });
    expect(verify.code).toBe(1);
    expect(verify.stdout).toContain('broken at seq 3: content_altered');
  });

  it('CLI: keygen, a signing control, verify --public-key --anchor; deleting the newest rows is then detected', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-receipts-'));
    const keygen = await cli(['receipts', 'keygen', '--out', 'receipt.key'], { cwd: dir });
    expect(keygen.code).toBe(0);
    const secret = readFileSync(path.join(dir, 'receipt.key'), 'utf8');
    const file = path.join(dir, 'state.db');
    const store = sqliteStore({ path: file });
    await signedRuns(store, secret, 3);
    await store.close();
    const verify = (args: string[] = []) =>
      cli(['receipts', 'verify', '--store', `sqlite:${file}`, '--public-key', 'receipt.key.pub', '--anchor', 'anchor.json', ...args], { cwd: dir });
    const ok = await verify();
    expect(ok.stdout).toContain('12 receipts, chain intact');
    expect(ok.code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(dir, 'anchor.json'), 'utf8'))).toMatchObject({ seq: 11 });
    const db = await openRawSqlite(file);
    db.run('DELETE FROM receipts WHERE seq > 8');
    db.close();
    const cut = await verify();
    expect(cut.code).toBe(1);
    expect(cut.stdout).toContain('broken at seq 11: truncated');
    const again = await cli(['receipts', 'keygen', '--out', 'receipt.key'], { cwd: dir });
    expect(again.code).toBe(2);
  });
});

describePostgres('Postgres: the head row counts', (url) => {
  const schema = freshSchema();
  afterAll(() => dropSchema(url, schema));

  it('deleting the newest receipts is detected (head_mismatch), a verify before passes', async () => {
    const store = postgresStore({ connectionString: url, schema });
    try {
      await signedRuns(store, null, 2);
      expect(await verifyReceipts(store)).toEqual({ ok: true, count: 4 });
      await withClient(url, (c) => c.query(`DELETE FROM ${schema}.receipts WHERE seq > 2`));
      expect(await verifyReceipts(store)).toEqual({ ok: false, seq: 3, break: 'head_mismatch' });
    } finally {
      await store.close();
    }
  });
});
