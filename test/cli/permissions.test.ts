import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_BIN } from '../helpers/paths.js';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';

// Issue 14.7: files this user may not read (EACCES) are a clear exit-2 message naming the file,
// never an internal error or a stack trace. Mode 000 (and a 555 folder) is enough for a user that
// is not root. Root reads everything through two capabilities, so as root the CLI runs without them
// (setpriv drops CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH): still the owner of the clone, it reaches
// the built CLI and node_modules from a private (0700) folder, as another user could not (issue 22.6).

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));
const STACK = /^\s+at .*[(\s]\S+:\d+:\d+\)?$/m;

function withoutOverride(dir: string, args: string[]) {
  const root = process.getuid?.() === 0;
  const [cmd, argv] = root
    ? ['setpriv', ['--bounding-set', '-dac_override,-dac_read_search', '--inh-caps', '-all', process.execPath, CLI_BIN, ...args]]
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
    chmodSync(path.join(dir, 'private.yaml'), 0o000);
    for (const args of [
      ['validate', '--policy', 'private.yaml'],
      ['check', '--policy', 'private.yaml'],
    ]) {
      const r = withoutOverride(dir, args);
      expect(r.code, r.out).toBe(2);
      expect(r.out).toMatch(/private\.yaml.*cannot read the policy: permission denied/s);
      expect(r.out).not.toMatch(STACK);
      expect(r.out).not.toMatch(/internal error/);
    }
    mkdirSync(path.join(dir, '.ctrlrun'));
    new DatabaseSync(path.join(dir, '.ctrlrun', 'state.db')).close();
    chmodSync(path.join(dir, '.ctrlrun', 'state.db'), 0o000);
    for (const args of [
      ['approvals', 'list'],
      ['receipts', 'verify'],
    ]) {
      const r = withoutOverride(dir, args);
      expect(r.code, r.out).toBe(2);
      expect(r.out).toMatch(/state\.db: cannot open the database/);
      expect(r.out).not.toMatch(STACK);
    }
  });

  it('an unreadable source file is reported by check and codemod (never skipped silently); a folder init cannot write is exit 2 naming the file', () => {
    const dir = copyFixture('refund-desk', 'eacces-src-');
    dirs.push(dir);
    writeFileSync(path.join(dir, 'src/secret.ts'), "import { tool } from '@openai/agents';\n");
    chmodSync(path.join(dir, 'src/secret.ts'), 0o000);
    chmodSync(dir, 0o555); // not writable: init cannot write its files
    try {
      const check = withoutOverride(dir, ['check']);
      expect(check.code, check.out).toBe(1);
      expect(check.out).toMatch(/src\/secret\.ts\s+1:1\s+error\s+the file could not be read \(EACCES\)/);
      const codemod = withoutOverride(dir, ['codemod']);
      expect(codemod.code, codemod.out).toBe(1);
      expect(codemod.out).toMatch(/src\/secret\.ts:1:1: the file could not be read \(EACCES\); not rewritten/);
      const init = withoutOverride(dir, ['init', '--force']);
      expect(init.code, init.out).toBe(2);
      expect(init.out).toMatch(
        /init: cannot write ctrlrun\.test\.yaml: permission denied \(EACCES\); nothing was written \(\d+ files planned, none left behind\)\. Make the folder writable and run init again/,
      );
      for (const r of [check, codemod, init]) {
        expect(r.out).not.toMatch(STACK);
        expect(r.out).not.toMatch(/internal error/);
      }
    } finally {
      chmodSync(dir, 0o755);
    }
  });
});
