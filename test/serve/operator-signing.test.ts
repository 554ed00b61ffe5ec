import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bindProtectedTool, createControl, generateReceiptKey, httpStore, run, verifyReceipts, type ReceiptBody, type Store } from '../../src/runtime/index.js';
import { receiptSigner } from '../../src/runtime/signing.js';
import { sqliteStore } from '../../src/runtime/sqlite.js';
import { cli } from '../helpers/cli.js';
import { agentWith, assistantMessage, makePolicy, refundCall, scripted } from '../runtime/helpers.js';
import { api, POLICY_YAML, type ServeFixture, startFixture } from './helpers.js';

/**
 * Issue 24 item 6, the operator's half: serve and the CLI sign the receipts they write with their
 * own key (a checkpoint naming exactly each one), and `receipts verify` takes several public keys.
 * Between the application's signed receipts, an operator's answer then verifies with both keys,
 * is `foreign` at its own seq with only the application's, and a forged receipt stays `foreign`.
 */
const appKey = generateReceiptKey();
const opsKey = generateReceiptKey();

function app(store: Store) {
  const control = createControl({ store, identity: (rc) => (rc.context as { user?: string }).user ?? null, receiptKey: appKey.secret });
  const calls: string[] = [];
  const tool = bindProtectedTool(control, makePolicy())('stripe.refund', {
    name: 'refund',
    description: 'Refund',
    parameters: z.object({ payment_id: z.string(), amount: z.number().int() }),
    execute: async (args) => {
      calls.push(args.payment_id);
      return 'ok';
    },
  });
  const refund = (payment: string, amount: number, callId: string) => {
    const agent = agentWith(scripted([refundCall({ payment_id: payment, amount }, callId)], [assistantMessage('done')]), [tool]);
    return { agent, result: run(agent, 'refund', { context: { user: 'alice' } }) };
  };
  /** A refund above the autonomous band: paused, filed; `finish` resumes it once answered. */
  const paused = async (payment: string, callId: string) => {
    const { agent, result } = refund(payment, 512_345, callId);
    const r = await result;
    expect(r.interruptions).toHaveLength(1);
    await control.request(r.state);
    return async () => {
      await control.resolve(r.state);
      await run(agent, r.state);
    };
  };
  return { calls, small: (payment: string, callId: string) => refund(payment, 5_000, callId).result, paused };
}

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

const seqOf = async (store: Store, match: (r: ReceiptBody) => boolean) => (await store.listReceipts()).find(match)!.seq;

let fx: ServeFixture | undefined;
let dir: string | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("serve signs its answers with its own key (the app's receipts with the app's)", () => {
  it("answer API between signed receipts: both keys pass; only the app key: foreign at serve's receipt", async () => {
    fx = await startFixture({ bob: ['payments-approver'], dave: [], agent: 'runtime' }, { signer: receiptSigner(opsKey.secret) });
    const a = app(httpStore({ url: fx.serve.url, token: fx.tokens.agent! }));
    await a.small('pay_1', 'c1');
    const finish = await a.paused('pay_2', 'c2');
    const role = await api(fx.serve.url, fx.tokens.dave, 'POST', '/api/requests/c2/answer', { decision: 'approve' });
    expect(role.status).toBe(403); // a refusal receipt, signed by serve too
    const yes = await api(fx.serve.url, fx.tokens.bob, 'POST', '/api/requests/c2/answer', { decision: 'approve' });
    expect(yes.status).toBe(200);
    await finish();
    expect(a.calls).toEqual(['pay_1', 'pay_2']);

    const receipts = await fx.store.listReceipts();
    const refused = receipts.find((r) => r.result === 'refused' && r.reason === 'role_missing')!;
    const approved = receipts.find((r) => r.result === 'approved' && r.approvers.includes('bob'))!;
    // each of serve's receipts is followed by serve's checkpoint naming exactly it
    for (const r of [refused, approved]) expect(receipts[r.seq]!.checkpoint).toMatchObject({ seq: r.seq, hash: r.hash, key_id: opsKey.keyId });
    expect(receipts.at(-1)!.checkpoint?.key_id).toBe(appKey.keyId); // the app signed after serve

    const both = await verifyReceipts(fx.store, { publicKey: [appKey.publicKey, opsKey.publicKey] });
    expect(both).toMatchObject({ ok: true, count: receipts.length });
    expect(both.ok && both.signers).toEqual([
      { keyId: appKey.keyId, receipts: receipts.filter((r) => r.action !== 'ctrlrun.checkpoint').length - 2 },
      { keyId: opsKey.keyId, receipts: 2 },
    ]);
    expect(await verifyReceipts(fx.store, { publicKey: appKey.publicKey })).toEqual({ ok: false, seq: refused.seq, break: 'foreign' });
    // only serve's key: the app's first receipt is the first nobody given signed
    expect(await verifyReceipts(fx.store, { publicKey: opsKey.publicKey })).toEqual({ ok: false, seq: 1, break: 'foreign' });
  });

  it('the raw store API (httpStore of an operator) and resolutions are signed; what a token appends raw is not', async () => {
    fx = await startFixture({ bob: ['payments-approver'], agent: 'runtime', forger: 'runtime' }, { signer: receiptSigner(opsKey.secret) });
    const a = app(httpStore({ url: fx.serve.url, token: fx.tokens.agent! }));
    await a.small('pay_1', 'c1');
    const finish = await a.paused('pay_2', 'c2');
    const bob = httpStore({ url: fx.serve.url, token: fx.tokens.bob! });
    expect((await bob.addAnswer('c2', { approver: 'bob', decision: 'approve', at: 0 })).outcome).toBe('recorded');
    await finish();
    // an ambiguous key, resolved through the raw API
    const now = Date.now();
    await fx.store.reserveEffect({ key: 'refund:pay_amb', action: 'stripe.refund', attemptId: 'att-amb', maxAttempts: 3, now, leaseMs: 1_000 });
    await fx.store.settleEffect('refund:pay_amb', 'att-amb', 'ambiguous', now);
    expect(await bob.resolveEffect('refund:pay_amb', 'failed', 'bob', now)).toMatchObject({ state: 'failed', resolvedBy: 'bob' });
    await a.small('pay_3', 'c3');
    const keys = { publicKey: [appKey.publicKey, opsKey.publicKey] };
    expect(await verifyReceipts(fx.store, keys)).toMatchObject({ ok: true });
    expect((await fx.store.listReceipts()).filter((r) => r.checkpoint?.key_id === opsKey.keyId)).toHaveLength(2);

    // an operator token's raw appendReceipt, and a runtime token's forged one: serve signs neither
    const byOperator = await bob.appendReceipt(forged());
    await a.small('pay_4', 'c4');
    expect(await verifyReceipts(fx.store, keys)).toEqual({ ok: false, seq: byOperator.seq, break: 'foreign' });
  });

  it('a forged receipt between signed ones stays foreign with both keys; a forged checkpoint does not cover it', async () => {
    fx = await startFixture({ bob: ['payments-approver'], agent: 'runtime', forger: 'runtime' }, { signer: receiptSigner(opsKey.secret) });
    const a = app(httpStore({ url: fx.serve.url, token: fx.tokens.agent! }));
    const forger = httpStore({ url: fx.serve.url, token: fx.tokens.forger! });
    const finish = await a.paused('pay_1', 'c1');
    await api(fx.serve.url, fx.tokens.bob, 'POST', '/api/requests/c1/answer', { decision: 'approve' });
    await finish();
    const f = await forger.appendReceipt(forged());
    // a checkpoint naming it under a key nobody gave: vouches for nothing, and is itself foreign
    const other = receiptSigner(generateReceiptKey().secret);
    await forger.appendReceipt({
      ...forged(),
      call_id: null,
      effect_key: null,
      principal: null,
      decision: null,
      action: 'ctrlrun.checkpoint',
      result: 'checkpoint',
      reason: `signed ${f.seq}`,
      checkpoint: other.checkpoint(f.seq, f.hash),
    });
    await a.small('pay_2', 'c2');
    const keys = { publicKey: [appKey.publicKey, opsKey.publicKey] };
    expect(await verifyReceipts(fx.store, keys)).toEqual({ ok: false, seq: f.seq, break: 'foreign' });
    // the same under serve's key id with a signature that is not serve's: signature_invalid
    const forgedCp = { ...other.checkpoint(f.seq, f.hash), key_id: opsKey.keyId };
    const receipts = (await fx.store.listReceipts()).map((r) => (r.seq === f.seq + 1 ? { ...r, checkpoint: forgedCp } : r));
    const { verifyReceiptChain } = await import('../../src/runtime/receipts.js');
    const { receiptHash } = await import('../../src/runtime/receipts-hash.js');
    const rehashed = receipts.map((r) => ({ ...r }));
    for (let i = f.seq; i < rehashed.length; i++) {
      const { hash: _drop, ...body } = { ...rehashed[i]!, prev_hash: rehashed[i - 1]!.hash };
      rehashed[i] = { ...body, hash: receiptHash(body as never) } as never;
    }
    expect(verifyReceiptChain(rehashed, keys)).toEqual({ ok: false, seq: f.seq + 1, break: 'signature_invalid' });
  });
});

describe('the CLI signs its answers and resolutions (--signing-key, CTRLRUN_RECEIPT_KEY)', () => {
  const setupRepo = () => {
    dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-opsign-'));
    writeFileSync(path.join(dir, 'ops.key'), `${opsKey.secret}\n`, { mode: 0o600 });
    writeFileSync(path.join(dir, 'app.pub'), `${appKey.publicKey}\n`);
    writeFileSync(path.join(dir, 'ops.pub'), `${opsKey.publicKey}\n`);
    return { cwd: dir, file: path.join(dir, 'state.db') };
  };

  it('approvals approve --signing-key between signed receipts: verify with both keys exits 0; with the app key, foreign at its seq', async () => {
    const { cwd, file } = setupRepo();
    const store = sqliteStore({ path: file });
    const a = app(store);
    await a.small('pay_1', 'c1');
    const finish = await a.paused('pay_2', 'c2');
    const yes = await cli(['approvals', 'approve', 'c2', '--as', 'bob', '--store', `sqlite:${file}`, '--signing-key', 'ops.key'], { cwd });
    expect(yes.code).toBe(0);
    await finish();
    await store.close();
    const store2 = sqliteStore({ path: file });
    const answered = await seqOf(store2, (r) => r.result === 'approved');
    await store2.close();

    const both = await cli(['receipts', 'verify', '--store', `sqlite:${file}`, '--public-key', 'app.pub', '--public-key', 'ops.pub', '--json'], { cwd });
    expect(both.code).toBe(0);
    expect(JSON.parse(both.stdout)).toMatchObject({ ok: true, signers: [{ key_id: appKey.keyId }, { key_id: opsKey.keyId, receipts: 1 }] });
    const text = await cli(['receipts', 'verify', '--store', `sqlite:${file}`, '--public-key', 'app.pub', '--public-key', 'ops.pub'], { cwd });
    expect(text.stdout).toContain(`${opsKey.keyId}: 1`);
    const appOnly = await cli(['receipts', 'verify', '--store', `sqlite:${file}`, '--public-key', 'app.pub'], { cwd });
    expect(appOnly.code).toBe(1);
    expect(appOnly.stdout).toContain(`broken at seq ${answered}: foreign`);
  });

  it('approvals deny and effects resolve sign with $CTRLRUN_RECEIPT_KEY; without any key the answer is foreign', async () => {
    const { cwd, file } = setupRepo();
    const store = sqliteStore({ path: file });
    const a = app(store);
    await a.small('pay_1', 'c1');
    await a.paused('pay_2', 'c2');
    await a.paused('pay_3', 'c3');
    const now = Date.now();
    await store.reserveEffect({ key: 'refund:pay_amb', action: 'stripe.refund', attemptId: 'att-amb', maxAttempts: 3, now, leaseMs: 1_000 });
    await store.settleEffect('refund:pay_amb', 'att-amb', 'ambiguous', now);
    const env = { NO_COLOR: '1', CTRLRUN_RECEIPT_KEY: opsKey.secret };
    expect((await cli(['approvals', 'deny', 'c2', '--as', 'bob', '--reason', 'no', '--store', `sqlite:${file}`], { cwd, env })).code).toBe(0);
    expect((await cli(['effects', 'resolve', 'refund:pay_amb', '--failed', '--as', 'bob', '--store', `sqlite:${file}`], { cwd, env })).code).toBe(0);
    await a.small('pay_4', 'c4');
    const verify = (keys: string[]) => cli(['receipts', 'verify', '--store', `sqlite:${file}`, ...keys.flatMap((k) => ['--public-key', k]), '--json'], { cwd });
    expect(JSON.parse((await verify(['app.pub', 'ops.pub'])).stdout)).toMatchObject({
      ok: true,
      signers: [{ key_id: appKey.keyId }, { key_id: opsKey.keyId, receipts: 2 }],
    });

    // no --signing-key, no variable: the answer is written unsigned and reported foreign
    expect((await cli(['approvals', 'approve', 'c3', '--as', 'bob', '--store', `sqlite:${file}`], { cwd })).code).toBe(0);
    await a.small('pay_5', 'c5');
    const unsigned = await seqOf(store, (r) => r.call_id === 'c3' && r.result === 'approved');
    expect(JSON.parse((await verify(['app.pub', 'ops.pub'])).stdout)).toEqual({ ok: false, seq: unsigned, break: 'foreign' });
    await store.close();
  });

  it('refuses a key on the command line, an unreadable or public key file, and --signing-key with --server: exit 2, nothing changed', async () => {
    const { cwd, file } = setupRepo();
    const store = sqliteStore({ path: file });
    const a = app(store);
    await a.paused('pay_1', 'c1');
    const before = (await store.listReceipts()).length;
    const approve = (extra: string[], env: Record<string, string> = { NO_COLOR: '1' }) =>
      cli(['approvals', 'approve', 'c1', '--as', 'bob', '--store', `sqlite:${file}`, ...extra], { cwd, env });
    const inline = await approve(['--signing-key', opsKey.secret]);
    expect(inline.code).toBe(2);
    expect(inline.stderr).toContain("give the key's file, not the key");
    expect(inline.stderr + inline.stdout).not.toContain(opsKey.secret.slice(24));
    const missing = await approve(['--signing-key', 'nope.key']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read nope.key (ENOENT)');
    const pub = await approve(['--signing-key', 'ops.pub']);
    expect(pub.code).toBe(2);
    expect(pub.stderr).toContain('--signing-key: the key is not a ctrlrun-ed25519-secret:');
    const badEnv = await approve([], { NO_COLOR: '1', CTRLRUN_RECEIPT_KEY: 'ctrlrun-ed25519-secret:short' });
    expect(badEnv.code).toBe(2);
    expect(badEnv.stderr).toContain('$CTRLRUN_RECEIPT_KEY: the key is malformed');
    const server = await cli(['approvals', 'approve', 'c1', '--server', 'http://127.0.0.1:1', '--token', 't', '--signing-key', 'ops.key'], { cwd });
    expect(server.code).toBe(2);
    expect(server.stderr).toContain('--signing-key: with --server, serve writes the receipt');
    const resolveServer = await cli(['effects', 'resolve', 'k', '--failed', '--server', 'http://127.0.0.1:1', '--token', 't', '--signing-key', 'ops.key'], {
      cwd,
    });
    expect(resolveServer.code).toBe(2);
    expect(resolveServer.stderr).toContain('--signing-key: with --server, serve writes the receipt');
    writeFileSync(path.join(cwd, 'ctrlrun.yaml'), POLICY_YAML);
    const serve = await cli(['serve', '--policy', 'ctrlrun.yaml', '--store', `sqlite:${file}`, '--port', '0', '--signing-key', 'nope.key'], { cwd });
    expect(serve.code).toBe(2);
    expect(serve.stderr).toContain('--signing-key: cannot read nope.key');
    const resolveMissing = await cli(['effects', 'resolve', 'k', '--failed', '--as', 'bob', '--store', `sqlite:${file}`, '--signing-key', 'nope.key'], { cwd });
    expect(resolveMissing.code).toBe(2);
    expect((await store.getRequest('c1'))?.state).toBe('pending');
    expect(await store.listReceipts()).toHaveLength(before);
    expect(readFileSync(path.join(cwd, 'ops.key'), 'utf8')).toContain(opsKey.secret);
    await store.close();
  });
});
