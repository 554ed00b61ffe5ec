import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
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

  it('an unreadable source file is reported by check and codemod (never skipped silently); a folder init cannot write is exit 2 naming the file', () => {
    const root = process.getuid?.() === 0;
    const dir = copyFixture('refund-desk', 'eacces-src-');
    dirs.push(dir);
    writeFileSync(path.join(dir, 'src/secret.ts'), "import { tool } from '@openai/agents';\n");
    chmodSync(path.join(dir, 'src/secret.ts'), root ? 0o600 : 0o000);
    chmodSync(dir, root ? 0o755 : 0o555); // as nobody (or with 555) the folder is not writable
    try {
      const check = asOtherUser(dir, ['check']);
      expect(check.code, check.out).toBe(1);
      expect(check.out).toMatch(/src\/secret\.ts\s+1:1\s+error\s+the file could not be read \(EACCES\)/);
      const codemod = asOtherUser(dir, ['codemod']);
      expect(codemod.code, codemod.out).toBe(1);
      expect(codemod.out).toMatch(/src\/secret\.ts:1:1: the file could not be read \(EACCES\); not rewritten/);
      const init = asOtherUser(dir, ['init', '--force']);
      expect(init.code, init.out).toBe(2);
      expect(init.out).toMatch(/: permission denied \(EACCES\) during open\.\n\s+hint: /);
      for (const r of [check, codemod, init]) {
        expect(r.out).not.toMatch(STACK);
        expect(r.out).not.toMatch(/internal error/);
      }
    } finally {
      chmodSync(dir, 0o755);
    }
  });
});
