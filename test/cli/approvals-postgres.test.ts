import { rmSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { postgresStore } from '../../src/runtime/postgres.js';
import { cli } from '../helpers/cli.js';
import { describePostgres, dropSchema, freshSchema } from '../stores/pg-helpers.js';
import { request, requestedReceipt, tempDir } from './operator-helpers.js';

describePostgres('the operator CLI on a Postgres store', (url) => {
  const schema = freshSchema();
  const cwd = tempDir();
  afterAll(async () => {
    rmSync(cwd, { recursive: true, force: true });
    await dropSchema(url, schema);
  });
  const storeUrl = `${url}${url.includes('?') ? '&' : '?'}schema=${schema}`;

  it('--store postgres://…?schema= and CTRLRUN_STORE reach the same store; approve, list, verify', async () => {
    const store = postgresStore({ connectionString: url, schema });
    await store.putRequest(request('call_pg'));
    await store.appendReceipt(requestedReceipt('call_pg'));
    await store.close();

    const listed = await cli(['approvals', 'list', '--pending', '--store', storeUrl], { cwd });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/call_pg\s+pending/);
    const approved = await cli(['approvals', 'approve', 'call_pg', '--as', 'bob'], { cwd, env: { NO_COLOR: '1', CTRLRUN_STORE: storeUrl } });
    expect(approved.code, approved.stderr).toBe(0);
    const verified = await cli(['receipts', 'verify', '--store', storeUrl], { cwd });
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(/2 receipts, chain intact/);

    const check = postgresStore({ connectionString: url, schema });
    expect((await check.getRequest('call_pg'))?.state).toBe('approved');
    await check.close();
  });

  it('an unreachable server is exit 2 with a clear message and no password', async () => {
    const r = await cli(['approvals', 'list', '--store', 'postgres://ops:hunter2@127.0.0.1:1/app'], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/connection was lost or refused/);
    expect(r.stderr).not.toContain('hunter2');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
