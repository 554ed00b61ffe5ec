import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../src/diagnostics.js';
import { describeStore, parseStoreUrl, selectStore } from '../../src/cli/store-url.js';
import { tempDir, tempRepo } from './operator-helpers.js';

describe('store selection', () => {
  const repo = tempRepo();
  const bare = tempDir();
  afterAll(() => {
    rmSync(repo.root, { recursive: true, force: true });
    rmSync(bare, { recursive: true, force: true });
  });

  it('defaults to .ctrlrun/state.db in the directory of the nearest manifest, else in cwd', () => {
    expect(selectStore({ env: {}, cwd: repo.nested })).toEqual({ kind: 'sqlite', path: repo.dbPath, source: 'default' });
    expect(selectStore({ env: {}, cwd: bare })).toEqual({ kind: 'sqlite', path: path.join(bare, '.ctrlrun', 'state.db'), source: 'default' });
  });

  it('--store wins over CTRLRUN_STORE, which wins over the default; sqlite paths are relative to cwd', () => {
    const env = { CTRLRUN_STORE: 'sqlite:from-env.db' };
    expect(selectStore({ env, cwd: bare })).toMatchObject({ path: path.join(bare, 'from-env.db'), source: 'CTRLRUN_STORE' });
    expect(selectStore({ flag: 'sqlite:../x.db', env, cwd: repo.nested })).toMatchObject({ path: path.join(repo.root, 'src', 'x.db'), source: '--store' });
    expect(selectStore({ env: { CTRLRUN_STORE: '' }, cwd: bare }).source).toBe('default');
  });

  it('postgres URLs keep their parameters; ?schema= becomes the schema option', () => {
    expect(parseStoreUrl('postgresql://u:pw@h:5433/db?sslmode=require&schema=ops', '--store', bare)).toEqual({
      kind: 'postgres',
      connectionString: 'postgresql://u:pw@h:5433/db?sslmode=require',
      schema: 'ops',
      source: '--store',
    });
    const selection = parseStoreUrl('postgres://u:pw@h/db', 'CTRLRUN_STORE', bare);
    expect(describeStore(selection, bare)).toBe('postgres://u:***@h/db');
  });

  it('anything else is a UserError with the accepted forms (and no password)', () => {
    for (const bad of ['mysql://x', 'sqlite:', 'state.db', 'postgres://u:secret@[bad']) {
      let error: unknown;
      try {
        parseStoreUrl(bad, '--store', bare);
      } catch (e) {
        error = e;
      }
      expect(error, bad).toBeInstanceOf(UserError);
      expect((error as Error).message).toMatch(/sqlite:PATH/);
      expect((error as Error).message).not.toContain('secret');
    }
  });
});
