import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { canonicalHash } from '../../src/runtime/canonical.js';
import { postgresStore } from '../../src/runtime/postgres.js';
import { addOperator, readOperators, removeOperator, writeOperators } from '../../src/serve/operators.js';
import { CLI_BIN } from '../helpers/paths.js';
import { describePostgres, dropSchema, freshSchema, withClient } from '../stores/pg-helpers.js';
import { POLICY_YAML, pendingRequest, signIn, writeOperatorTokens } from './helpers.js';

/**
 * Issue 37 item 3: sessions live in the store. Two `ctrlrun-gen serve` processes over one Postgres,
 * behind one public URL (as behind a proxy: requests go to either), honour the same sessions; a
 * rotated token ends a session on both; a restart of either ends every session on both.
 */
interface Replica {
  url: string;
  child: ChildProcess;
}

describePostgres('two serve replicas over one Postgres', (pgUrl) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-replicas-'));
  const schema = freshSchema();
  const storeUrl = `${pgUrl}?schema=${schema}`;
  const publicUrl = 'http://127.0.0.1:65001';
  const operatorsFile = path.join(dir, 'operators.json');
  let tokens: Record<string, string>;
  const replicas: Replica[] = [];

  function startReplica(): Promise<Replica> {
    return new Promise((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [
          CLI_BIN,
          'serve',
          '--store',
          storeUrl,
          '--operators',
          operatorsFile,
          '--policy',
          'ctrlrun.yaml',
          '--port',
          '0',
          '--public-url',
          publicUrl,
          '--retention-days',
          '0',
        ],
        { cwd: dir, env: { ...process.env, NO_COLOR: '1' } },
      );
      let out = '';
      let err = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += String(d);
        const m = /Serving the approvals inbox on (\S+)\//.exec(out);
        if (m) resolve({ url: m[1]!, child });
      });
      child.stderr!.on('data', (d: Buffer) => (err += String(d)));
      child.on('close', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
    });
  }
  const stop = (r: Replica) =>
    new Promise<void>((resolve) => {
      r.child.removeAllListeners('close');
      r.child.on('close', () => resolve());
      r.child.kill('SIGTERM');
    });
  const status = async (base: string, cookie: string) => (await fetch(`${base}/`, { headers: { cookie }, redirect: 'manual' })).status;

  beforeAll(async () => {
    writeFileSync(path.join(dir, 'ctrlrun.yaml'), POLICY_YAML);
    tokens = writeOperatorTokens(operatorsFile, { bob: ['payments-approver'], carol: ['payments-approver'] });
    const store = postgresStore({ connectionString: pgUrl, schema });
    await store.putRequest(
      pendingRequest('call_r', { args: '{"amount":512345,"payment_id":"pay_r"}', argsHash: canonicalHash({ amount: 512345, payment_id: 'pay_r' }) }),
    );
    await store.close();
    replicas.push(await startReplica(), await startReplica());
  }, 60_000);
  afterAll(async () => {
    for (const r of replicas) await stop(r);
    await dropSchema(pgUrl, schema);
    rmSync(dir, { recursive: true, force: true });
  });

  it('a session made on one replica reads and answers on the other; a rotated token ends it on both; a restart ends every session on both', async () => {
    const [a, b] = replicas as [Replica, Replica];
    const bob = await signIn(a.url, tokens.bob!);
    // named for the public URL's port, the same on every replica
    expect(bob.cookie.split('=')[0]).toBe('crg_session_65001');
    // the store keeps the secret's hash, never the secret
    const secret = bob.cookie.split('=')[1]!;
    const rows = await withClient(pgUrl, async (c) => (await c.query(`SELECT * FROM "${schema}".sessions`)).rows);
    expect(rows).toEqual([expect.objectContaining({ id_hash: createHash('sha256').update(secret).digest('hex'), name: 'bob', origin: publicUrl })]);
    expect(JSON.stringify(rows)).not.toContain(secret);
    expect(await status(b.url, bob.cookie)).toBe(200);
    const answered = await fetch(`${b.url}/requests/call_r/answer`, {
      method: 'POST',
      headers: { cookie: bob.cookie },
      body: new URLSearchParams({ csrf: bob.csrf, decision: 'approve', token: tokens.bob! }),
    });
    expect(answered.status).toBe(200);
    expect(await answered.text()).toContain('Approved as bob');

    const carol = await signIn(b.url, tokens.carol!);
    expect(await status(a.url, carol.cookie)).toBe(200);
    // rotate bob's token (remove, add again): his session ends on both replicas
    const rotated = addOperator(removeOperator(readOperators(operatorsFile), 'bob').data, {
      name: 'bob',
      kind: 'operator',
      roles: ['payments-approver'],
      now: Date.now(),
    });
    writeOperators(operatorsFile, rotated.data);
    expect(await status(b.url, bob.cookie)).toBe(303);
    expect(await status(a.url, bob.cookie)).toBe(303);
    expect(await status(a.url, carol.cookie)).toBe(200);

    // restart replica b: carol's session (made on b, used on a) ends everywhere
    await stop(b);
    replicas[1] = await startReplica();
    expect(await status(a.url, carol.cookie)).toBe(303);
    expect(await status(replicas[1]!.url, carol.cookie)).toBe(303);
    // and a new sign-in works on both again
    const again = await signIn(replicas[1]!.url, tokens.carol!);
    expect(await status(a.url, again.cookie)).toBe(200);
  }, 60_000);
});
