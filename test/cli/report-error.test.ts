import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliContext } from '../../src/cli/context.js';
import { reportError } from '../../src/cli/report-error.js';
import { StoreError } from '../../src/runtime/stores/errors.js';

// Issue 40, item 1: what the machine or the tree refuses is the user's to fix, said with the path
// or the store and a hint (exit 2), never "internal error".

function report(error: unknown): { code: number; err: string } {
  let err = '';
  const ctx: CliContext = {
    cwd: '/repo',
    env: {},
    color: false,
    debug: false,
    isTTY: false,
    stdout: () => {},
    stderr: (t: string) => {
      err += t;
    },
  };
  return { code: reportError(error, ctx, ''), err };
}

const fsError = (code: string, file: string, syscall: string) => Object.assign(new Error(`${code}: ${file}`), { code, path: file, syscall });

describe('reportError', () => {
  it('a path of the tree no command can read as a file: named relative to the working directory, with a hint', () => {
    const fifo = report(fsError('ENOTREG', path.join('/repo', 'ctrlrun.yaml'), 'read'));
    expect(fifo.code).toBe(2);
    expect(fifo.err).toBe(
      'ctrlrun-gen: ctrlrun.yaml: not a regular file (a named pipe, socket or device) (ENOTREG) during read.\n  hint: make it a regular file, or point the command at another path\n',
    );
    for (const code of ['EISDIR', 'ENOTDIR', 'ELOOP', 'ENXIO', 'ENAMETOOLONG']) {
      const r = report(fsError(code, '/repo/src/x.ts', 'open'));
      expect(r.err).toMatch(new RegExp(`^ctrlrun-gen: src/x\\.ts: .+ \\(${code}\\) during open\\.\\n {2}hint: `));
    }
  });

  it('a store the machine cannot open: its message and hint, also from another copy of the runtime (the demo sample)', () => {
    const own = report(
      new StoreError('store_unavailable', 'SQLite store: the better-sqlite3 module could not be loaded', { hint: 'npm install better-sqlite3' }),
    );
    expect(own).toEqual({ code: 2, err: 'ctrlrun-gen: SQLite store: the better-sqlite3 module could not be loaded\nhint: npm install better-sqlite3\n' });
    const copy = Object.assign(new Error('SQLite store: built for another Node'), { name: 'StoreError', code: 'store_unavailable' });
    expect(report(copy).err).toBe('ctrlrun-gen: SQLite store: built for another Node\n');
  });

  it('anything else is still an internal error (a bug to report)', () => {
    expect(report(new TypeError('x is undefined')).err).toMatch(/^ctrlrun-gen: internal error: x is undefined\n/);
    expect(report(fsError('ENOENT', '/repo/a.ts', 'open')).err).toMatch(/internal error/);
  });
});
