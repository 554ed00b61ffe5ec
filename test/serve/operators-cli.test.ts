import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findByToken, hashToken, readOperators } from '../../src/serve/operators.js';
import { cli } from '../helpers/cli.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';

describe('ctrlrun-gen operators', () => {
  let dir: string;
  const run = (args: string[]) => cli(args, { cwd: path.join(dir, 'src'), env: { NO_COLOR: '1' } });
  const file = () => path.join(dir, '.ctrlrun', 'operators.json');
  const tokenOf = (stdout: string) => /\n {2}(crg_(?:op|rt)_[A-Za-z0-9_-]+)\n/.exec(stdout)?.[1] ?? '';

  beforeEach(() => {
    dir = makeTempDir('operators-');
    writeFiles(dir, { 'ctrlrun.tools.yaml': 'schema: ctrlrun.tools/v1\ntools: []\n', 'src/.keep': '' });
  });
  afterEach(() => removeDir(dir));

  it('add shows the token once and keeps only its hash, beside the default store at the repo root, owner-only', async () => {
    const r = await run(['operators', 'add', '  Bob@Example.COM ', '--role', 'payments-approver', '--role', 'ops']);
    expect(r.code, r.stderr).toBe(0);
    const token = tokenOf(r.stdout);
    expect(token).toMatch(/^crg_op_[A-Za-z0-9_-]{43}$/);
    const raw = readFileSync(file(), 'utf8');
    expect(raw).not.toContain(token);
    expect(raw).toContain(hashToken(token));
    expect(statSync(file()).mode & 0o777).toBe(0o600);
    const data = readOperators(file());
    expect(data.operators).toHaveLength(1);
    expect(findByToken(data, token)).toMatchObject({ name: 'bob@example.com', kind: 'operator', roles: ['ops', 'payments-approver'] });
    expect(findByToken(data, `${token}x`)).toBeUndefined();
    // list never prints the token, only its id
    const l = await run(['operators', 'list']);
    expect(l.stdout).toMatch(/bob@example\.com\s+operator\s+ops,payments-approver\s+-\s+crg_op_\S{6}…/);
    expect(l.stdout).not.toContain(token);
    const j = JSON.parse((await run(['operators', 'list', '--json'])).stdout) as Array<Record<string, unknown>>;
    expect(j[0]).not.toHaveProperty('tokenHash');
    // a runtime token of one tenant (issue 24 item 2)
    const t = await run(['operators', 'add', 'acme-agent', '--runtime', '--tenant', 'acme']);
    expect(t.stdout).toContain('(tenant: acme)');
    expect(findByToken(readOperators(file()), tokenOf(t.stdout))).toMatchObject({ kind: 'runtime', tenant: 'acme' });
    expect((await run(['operators', 'list'])).stdout).toMatch(/acme-agent\s+runtime\s+-\s+acme\s+crg_rt_/);
    // an operator of one tenant (issue 37 item 1)
    const op = await run(['operators', 'add', 'ann', '--tenant', 'acme']);
    expect(op.code).toBe(0);
    expect((await run(['operators', 'list'])).stdout).toMatch(/ann\s+operator\s+-\s+acme\s+crg_op_/);
    const bad = await run(['operators', 'add', 'x', '--tenant', 'Acme:x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('is not a tenant name');
  });

  it('the same name twice is refused (exit 2); a runtime token is a different kind and takes no role', async () => {
    expect((await run(['operators', 'add', 'bob'])).code).toBe(0);
    const again = await run(['operators', 'add', 'BOB']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('bob already has an operator token');
    const rt = await run(['operators', 'add', 'web-agent', '--runtime']);
    expect(rt.code).toBe(0);
    expect(tokenOf(rt.stdout)).toMatch(/^crg_rt_/);
    expect((await run(['operators', 'add', 'x', '--runtime', '--role', 'a'])).code).toBe(2);
  });

  it('refuses blank names, control characters and bad roles', async () => {
    for (const args of [
      ['operators', 'add', '  '],
      ['operators', 'add', 'bob\nsecurity-team'],
      ['operators', 'add', 'bob', '--role', 'a b'],
    ]) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('remove drops every token of the name; an unknown name is exit 2', async () => {
    const token = tokenOf((await run(['operators', 'add', 'bob'])).stdout);
    await run(['operators', 'add', 'carol']);
    const r = await run(['operators', 'remove', 'Bob']);
    expect(r.code).toBe(0);
    const data = readOperators(file());
    expect(findByToken(data, token)).toBeUndefined();
    expect(data.operators.map((o) => o.name)).toEqual(['carol']);
    expect((await run(['operators', 'remove', 'bob'])).code).toBe(2);
  });

  it('a file that is not an operators file is an error naming it', async () => {
    writeFiles(dir, { '.ctrlrun/operators.json': '{"hello": 1}' });
    const r = await run(['operators', 'list']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('not a ctrlrun-gen operators file');
  });
});
