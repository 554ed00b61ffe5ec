import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createControl, type Control, type Store } from '../../src/runtime/index.js';
import { sqliteStore } from '../../src/runtime/sqlite.js';

/**
 * For a door's test file: one temp folder for the file, a fresh workspace per test (its SQLite
 * state, the log the door's real body writes, a work root), and "processes" on that state (a store
 * handle and a control of their own, as another OS process would have), closed after each test.
 */
export function doorWorkspaces(prefix: string, names: { root: string; log: string }) {
  let dir = '';
  let counter = 0;
  const stores: Store[] = [];
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  });
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return {
    /** The file's temp folder. */
    dir: () => dir,
    /** A new workspace: its state database, the body's log and its work root, numbered `n`. */
    fresh() {
      counter++;
      const root = mkdtempSync(path.join(dir, `${names.root}-${counter}-`));
      return { n: counter, db: path.join(dir, `state-${counter}.db`), log: path.join(dir, `${names.log}-${counter}.log`), root };
    },
    /** A process on the state `db`: its own store handle and control (the principal is the context's `user`), and the doors `bind` makes. */
    processOn<D>(db: string, bind: (control: Control) => D) {
      const store = sqliteStore({ path: db });
      stores.push(store);
      const control = createControl({ store, identity: (rc) => (rc.context as { user?: string } | undefined)?.user ?? null });
      return { store, control, doors: bind(control) };
    },
  };
}
