import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { StoreError } from '../../src/runtime/index.js';
import { sqliteStore, type SqliteDriverName } from '../../src/runtime/sqlite.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { verifyChain } from './chain.js';

const CHILDREN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'children');
const dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-sqlite-drivers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs children/sqlite-driver-child.mjs on `node` (a Node binary) and returns its one JSON line. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function child(
  node: string,
  config: { file: string; driver: SqliteDriverName; step: string },
  env: NodeJS.ProcessEnv = {},
  args: string[] = [],
): Record<string, any> {
  if (!existsSync(path.join(REPO_ROOT, 'dist/runtime/sqlite.js'))) throw new Error('dist/ is missing: run `npm run build` before these tests');
  const r = spawnSync(node, [...args, path.join(CHILDREN, 'sqlite-driver-child.mjs'), JSON.stringify(config)], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  const line = r.stdout.trim().split('\n').at(-1);
  if (!line) throw new Error(`the child printed nothing (exit ${r.status}): ${r.stderr}`);
  return { ...(JSON.parse(line) as Record<string, any>), stderr: r.stderr };
}

/**
 * A Node binary that loads `driver`: this one, or one listed in CTRLRUN_TEST_NODES (binaries
 * separated by the path delimiter; CI lists its Node 20, 22 and 24), since on one Node the
 * repo's better-sqlite3 loads only where it was built.
 */
function nodeFor(driver: SqliteDriverName): string | null {
  const candidates = [process.execPath, ...(process.env.CTRLRUN_TEST_NODES ?? '').split(path.delimiter).filter(Boolean)];
  for (const node of candidates) {
    const probe = child(node, { file: path.join(dir, `probe-${driver}.db`), driver, step: 'probe' });
    if (!probe.error) return node;
  }
  return null;
}

describe('SQLite drivers', () => {
  const nodes = { node: nodeFor('node'), 'better-sqlite3': nodeFor('better-sqlite3') };
  const both = nodes.node !== null && nodes['better-sqlite3'] !== null;
  if (!both)
    console.warn(
      `skipped: a file written by one SQLite driver and read by the other needs a Node for each (node:sqlite: ${nodes.node ?? 'none'}; better-sqlite3: ${nodes['better-sqlite3'] ?? 'none'}); list more Node binaries in CTRLRUN_TEST_NODES`,
    );
  it.skipIf(!both)('a file written through one driver is read and written through the other, and back', () => {
    for (const [first, second] of [
      ['node', 'better-sqlite3'],
      ['better-sqlite3', 'node'],
    ] as const) {
      const file = path.join(dir, `shared-${first}.db`);
      const written = child(nodes[first]!, { file, driver: first, step: 'write' });
      expect(written.error).toBeUndefined();
      const claimed = child(nodes[second]!, { file, driver: second, step: 'claim' });
      expect(claimed).toMatchObject({
        driver: second,
        request: { state: 'consumed', consumedAt: 4_000, answers: [{ approver: 'bob' }] },
        effect: { state: 'committed', attempts: 1 },
      });
      expect(claimed.charges).toEqual(written.charges); // a decimal past 2^64 read back exactly
      expect(claimed.charges[0].amount).toBe('18446744073709551621');
      const back = child(nodes[first]!, { file, driver: first, step: 'read' });
      expect(back.request).toEqual(claimed.request);
      expect(back.receipts).toHaveLength(2);
      expect(verifyChain(back.receipts)).toBe(null);
    }
  });

  it("driver 'node': loads on Node 22.13+, else a StoreError naming the Node it needs and the other driver", async () => {
    const builtIn = await import('node:sqlite' as string).then(
      () => true,
      () => false,
    );
    const store = sqliteStore({ path: path.join(dir, 'node.db'), driver: 'node' });
    const outcome = await store.listRequests().then(
      () => null,
      (e: unknown) => e,
    );
    await store.close();
    if (builtIn) return expect(outcome).toBe(null);
    expect(outcome).toBeInstanceOf(StoreError);
    expect(outcome).toMatchObject({ code: 'store_unavailable' });
    expect((outcome as StoreError).message).toMatch(/node:sqlite is not available on Node \d+\.\d+\.\d+ \(it needs Node 22\.13 or later\)/);
    expect((outcome as StoreError).hint).toMatch(/driver: 'better-sqlite3'/);
  });

  it("driver 'better-sqlite3' built for another Node: a StoreError naming the ABI and the rebuild (never an internal error)", async () => {
    const built = (() => {
      try {
        const Database = createRequire(import.meta.url)('better-sqlite3');
        new Database(':memory:').close();
        return null;
      } catch (error) {
        return error as Error;
      }
    })();
    const store = sqliteStore({ path: path.join(dir, 'better.db'), driver: 'better-sqlite3' });
    const outcome = await store.listRequests().then(
      () => null,
      (e: unknown) => e,
    );
    await store.close();
    if (!built) return expect(outcome).toBe(null);
    expect(built.message).toMatch(/NODE_MODULE_VERSION/); // the repo's build is for another Node
    expect(outcome).toBeInstanceOf(StoreError);
    expect((outcome as StoreError).message).toMatch(
      new RegExp(`built for another Node\\.js version than this one \\(${process.versions.node}, ABI ${process.versions.modules}\\)`),
    );
    expect((outcome as StoreError).hint).toMatch(/npm rebuild better-sqlite3/);
    expect((outcome as StoreError).hint).toMatch(/driver: 'node'/);
  });

  it("driver 'better-sqlite3' not installed: a StoreError saying to install it", () => {
    const hide = ['--import', path.join(CHILDREN, 'hide-module.mjs')];
    const missing = child(
      process.execPath,
      { file: path.join(dir, 'missing.db'), driver: 'better-sqlite3', step: 'read' },
      { HIDE_MODULE: 'better-sqlite3' },
      hide,
    );
    expect(missing).toMatchObject({ code: 'store_unavailable' });
    expect(missing.error).toMatch(/better-sqlite3 module could not be loaded \(it is not installed\)\nhint: npm install better-sqlite3/);
    // with `auto`, a Node without node:sqlite and no better-sqlite3 names both ways out
    const auto = child(
      process.execPath,
      { file: path.join(dir, 'auto.db'), driver: 'auto' as SqliteDriverName, step: 'read' },
      { HIDE_MODULE: 'better-sqlite3' },
      hide,
    );
    if (nodeFor('node') === process.execPath) expect(auto.error).toBeUndefined();
    else
      expect(auto.error).toMatch(
        /no SQLite driver on Node .*: node:sqlite needs Node 22\.13 or later, and better-sqlite3 is not installed\nhint: run on Node 22\.13\+ \(nothing to install\), or npm install better-sqlite3/,
      );
  });

  it('an unknown driver name is refused when the store is made', () => {
    expect(() => sqliteStore({ path: path.join(dir, 'x.db'), driver: 'sqlite3' as SqliteDriverName })).toThrow(
      /driver "sqlite3" is not one of 'auto', 'node', 'better-sqlite3'/,
    );
  });
});
