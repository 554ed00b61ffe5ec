import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync } from 'node:fs';
import Database from 'better-sqlite3';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_BIN } from '../helpers/paths.js';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';

// Issue 14.7: files this user may not read (EACCES) are a clear exit-2 message naming the file,
// never an internal error or a stack trace. Root reads everything, so as root the CLI runs as
// `nobody` (setpriv); as another user, mode 000 is enough.

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));
const STACK = /^\s+at .*[(\s]\S+:\d+:\d+\)?$/m;

function asOtherUser(dir: string, args: string[]) {
  const root = process.getuid?.() === 0;
  const [cmd, argv] = root
    ? ['setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, CLI_BIN, ...args]]
    : [process.execPath, [CLI_BIN, ...args]];
  const r = spawnSync(cmd, argv as string[], { cwd: dir, env: { ...process.env, NO_COLOR: '1', HOME: dir }, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('unreadable files (EACCES)', () => {
  it('an unreadable policy and an unreadable store: exit 2, the file named, no stack trace', () => {
    const dir = copyFixture('refund-desk', 'eacces-');
    dirs.push(dir);
    chmodSync(dir, 0o755);
    copyFileSync(path.join(dir, 'ctrlrun.yaml'), path.join(dir, 'private.yaml'));
    chmodSync(path.join(dir, 'private.yaml'), process.getuid?.() === 0 ? 0o600 : 0o000);
    for (const args of [['validate', '--policy', 'private.yaml'], ['check', '--policy', 'private.yaml']]) {
      const r = asOtherUser(dir, args);
      expect(r.code, r.out).toBe(2);
      expect(r.out).toMatch(/private\.yaml.*cannot read the policy: permission denied/s);
      expect(r.out).not.toMatch(STACK);
      expect(r.out).not.toMatch(/internal error/);
    }
    mkdirSync(path.join(dir, '.ctrlrun'));
    new Database(path.join(dir, '.ctrlrun', 'state.db')).close();
    chmodSync(path.join(dir, '.ctrlrun', 'state.db'), process.getuid?.() === 0 ? 0o600 : 0o000);
    for (const args of [['approvals', 'list'], ['receipts', 'verify']]) {
      const r = asOtherUser(dir, args);
      expect(r.code, r.out).toBe(2);
      expect(r.out).toMatch(/state\.db: cannot open the database/);
      expect(r.out).not.toMatch(STACK);
    }
  });
});
