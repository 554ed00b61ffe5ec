import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addDependencies, controlStore, DRIVER_RANGES, hasNodeSqlite, storeDriverDependencies } from '../../src/init/store-driver.js';
import { cli } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';

/** Issue 22.4: init puts the driver the control's store needs in the app's dependencies, and says so. */
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

describe('the driver a store needs', () => {
  it('node:sqlite from 22.13 (and 23.4) on: the SQLite store needs nothing there, better-sqlite3 before', () => {
    expect(['20.19.0', '22.12.0', '23.3.0', 'v22.0.0'].map(hasNodeSqlite)).toEqual([false, false, false, false]);
    expect(['22.13.0', 'v22.23.5', '23.4.0', '24.0.0', '26.1.0'].map(hasNodeSqlite)).toEqual([true, true, true, true, true]);
    expect(storeDriverDependencies('sqlite', '24.22.3')).toEqual({});
    expect(storeDriverDependencies('sqlite', '20.20.2')).toEqual({ 'better-sqlite3': '^12.0.0' });
    expect(storeDriverDependencies('sqlite-better', '24.22.3')).toEqual({ 'better-sqlite3': '^12.0.0' });
    expect(storeDriverDependencies('postgres', '24.22.3')).toEqual({ pg: '^8.11.0' });
    expect(storeDriverDependencies('other', '20.20.2')).toEqual({});
  });

  it("the ranges are ctrlrun-gen's own peer ranges", () => {
    const peers = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { peerDependencies: Record<string, string> }).peerDependencies;
    expect(peers.pg).toBe(DRIVER_RANGES.pg);
    // >=12.0.0 <13 is ^12.0.0
    expect(peers['better-sqlite3']).toBe('>=12.0.0 <13');
    expect(DRIVER_RANGES['better-sqlite3']).toBe('^12.0.0');
  });

  it("which store a control builds, from its code (init's own control mentions postgresStore in a comment)", () => {
    const own = readFileSync(path.join(REPO_ROOT, 'fixtures/refund-desk/src/ctrlrun.control.ts'), 'utf8');
    expect(controlStore(own)).toBe('sqlite');
    expect(controlStore("store: sqliteStore({ path: 'a.db', driver: 'better-sqlite3' })")).toBe('sqlite-better');
    expect(controlStore("// store: postgresStore({})\nstore: sqliteStore({ path: 'a.db' })")).toBe('sqlite');
    expect(controlStore('store: postgresStore({ connectionString: process.env.DATABASE_URL! })')).toBe('postgres');
    expect(controlStore('store: httpStore({ url })')).toBe('other');
  });

  it("adds to dependencies what the app declares nowhere it is installed in production; keeps the file's indentation", () => {
    const text = '{\n    "name": "app",\n    "dependencies": { "zod": "4.0.0" },\n    "devDependencies": { "pg": "8.0.0" }\n}\n';
    const r = addDependencies(text, { pg: '^8.11.0' });
    expect(r.added).toEqual(['pg']);
    expect(JSON.parse(r.text).dependencies).toEqual({ pg: '^8.11.0', zod: '4.0.0' });
    expect(r.text).toMatch(/^ {4}"name"/m);
    expect(r.text.endsWith('}\n')).toBe(true);
    const again = addDependencies(r.text, { pg: '^8.11.0' });
    expect(again).toEqual({ text: r.text, added: [] });
    expect(addDependencies('{"peerDependencies":{"pg":"8"}}', { pg: '^8.11.0' }).added).toEqual([]);
  });
});

describe('ctrlrun-gen init and the driver', () => {
  const fresh = () => {
    const dir = copyFixture('refund-desk', 'init-driver-');
    dirs.push(dir);
    for (const f of ['ctrlrun.yaml', 'ctrlrun.tools.yaml']) rmSync(path.join(dir, f));
    return dir;
  };
  const deps = (dir: string) =>
    (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> }).dependencies ?? {};

  it('a package.json whose top level is no object: not rewritten, and init says what to add (session 32)', async () => {
    // before, `dependencies` was set on the array, which JSON drops: the array written back without it, and "added pg" said
    expect(() => addDependencies('[]', { pg: '^8.11.0' })).toThrow();
    const dir = fresh();
    writeFileSync(
      path.join(dir, 'src/ctrlrun.control.ts'),
      "import { createControl } from 'ctrlrun-gen/runtime';\nimport { postgresStore } from 'ctrlrun-gen/runtime/postgres';\nexport default createControl({ store: postgresStore({ connectionString: process.env.DATABASE_URL! }), identity: () => null });\n",
    );
    writeFileSync(path.join(dir, 'package.json'), '[{ "name": "refund-desk" }]\n');
    const r = await cli(['init'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(path.join(dir, 'package.json'), 'utf8')).toBe('[{ "name": "refund-desk" }]\n');
    expect(r.stdout).not.toContain('added pg');
    expect(r.stdout).toContain("note: the control's store needs pg");
  });

  it('a kept control on Postgres: pg is added to dependencies and init says so', async () => {
    const dir = fresh();
    writeFileSync(
      path.join(dir, 'src/ctrlrun.control.ts'),
      "import { createControl } from 'ctrlrun-gen/runtime';\nimport { postgresStore } from 'ctrlrun-gen/runtime/postgres';\nexport default createControl({ store: postgresStore({ connectionString: process.env.DATABASE_URL! }), identity: () => null });\n",
    );
    const r = await cli(['init'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(deps(dir).pg).toBe('^8.11.0');
    expect(r.stdout).toContain("added pg@^8.11.0 to package.json's dependencies (the Postgres store's driver); run npm install");
    // a second run finds it declared: nothing added, nothing said
    const again = await cli(['init', '--force'], { cwd: dir });
    expect(again.stdout).not.toContain('added pg');
  });

  it('a control that chooses better-sqlite3 gets it; the default SQLite control on this Node: what it needs, said', async () => {
    const chosen = fresh();
    writeFileSync(
      path.join(chosen, 'src/ctrlrun.control.ts'),
      "import { createControl } from 'ctrlrun-gen/runtime';\nimport { sqliteStore } from 'ctrlrun-gen/runtime/sqlite';\nexport default createControl({ store: sqliteStore({ path: 'a.db', driver: 'better-sqlite3' }), identity: () => null });\n",
    );
    const r = await cli(['init'], { cwd: chosen });
    expect(r.code, r.stderr).toBe(0);
    expect(deps(chosen)['better-sqlite3']).toBe('^12.0.0');
    expect(r.stdout).toContain("driver: 'better-sqlite3'");

    const plain = fresh();
    rmSync(path.join(plain, 'src/ctrlrun.control.ts'));
    const before = readFileSync(path.join(plain, 'package.json'), 'utf8');
    const p = await cli(['init'], { cwd: plain });
    expect(p.code, p.stderr).toBe(0);
    if (hasNodeSqlite(process.versions.node)) {
      expect(readFileSync(path.join(plain, 'package.json'), 'utf8')).toBe(before);
      expect(p.stdout).toContain('the SQLite store uses node:sqlite, built into Node 22.13+: no driver to install');
    } else {
      expect(deps(plain)['better-sqlite3']).toBe('^12.0.0');
      expect(p.stdout).toContain('which has no node:sqlite');
    }
  });
});
