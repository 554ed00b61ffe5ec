import path from 'node:path';
import type { Store } from '../types.js';
import { StoreError } from './errors.js';
import type { SqliteDriverChoice } from './sqlite-driver.js';
import { type SqliteAccess, sqliteDecisionLog } from './decision-log-sqlite.js';
import { sqliteSessions } from './sessions-sqlite.js';
import { sqliteGrants } from './grants-sqlite.js';
import { sqliteHalts } from './halts-sqlite.js';
import { sqliteApprovals } from './sqlite/approvals.js';
import { sqliteShell } from './sqlite/connection.js';
import { sqliteEffects } from './sqlite/effects.js';
import { sqliteReceipts } from './sqlite/receipts.js';

export interface SqliteStoreOptions {
  /** The database file; created (with its directory) owner-only when missing. */
  path: string;
  /** How long a write waits for another process's lock before failing closed. Default 5000 ms. */
  busyTimeoutMs?: number;
  /**
   * Which SQLite library opens the file (both read and write the same file). Default `auto`: the
   * built-in `node:sqlite` on Node 22.13 or later, else `better-sqlite3` (an optional peer
   * dependency, a native module). `node` or `better-sqlite3` insist on one.
   */
  driver?: SqliteDriverChoice;
}

export { SQLITE_DRIVERS, type SqliteDriverChoice, type SqliteDriverName } from './sqlite-driver.js';
export { SQLITE_APPLICATION_ID, SQLITE_MIGRATIONS } from './sqlite/schema.js';

/**
 * The embedded store (SPEC §5.10), on node:sqlite or better-sqlite3 (see `driver`). The driver is
 * loaded, and the file opened and migrated, on first use: users of other stores never load it, and
 * an unusable file is reported by the first store call (so the runtime fails closed). Every change
 * is one `BEGIN IMMEDIATE` transaction (committed with fsync: WAL, synchronous=FULL) deciding with
 * the shared transitions; WAL lets readers run alongside one writer. The methods live in
 * stores/sqlite/ (approvals, effects, receipts; the schema and the statements).
 */
export function sqliteStore(options: SqliteStoreOptions): Store {
  if (!options || typeof options.path !== 'string' || options.path === '') {
    throw new StoreError('store_failed', 'sqliteStore: `path` is required, e.g. sqliteStore({ path: ".ctrlrun/state.db" })');
  }
  const choice = options.driver ?? 'auto';
  if (!['auto', 'node', 'better-sqlite3'].includes(choice)) {
    throw new StoreError('store_failed', `sqliteStore: driver ${JSON.stringify(choice)} is not one of 'auto', 'node', 'better-sqlite3'`, {
      hint: 'leave it out to use node:sqlite on Node 22.13+ and better-sqlite3 elsewhere',
    });
  }
  const shell = sqliteShell(path.resolve(options.path), options.busyTimeoutMs ?? 5000, choice);
  const access: SqliteAccess = { write: (op, fn) => shell.write(op, (s) => fn(s.db)), read: (op, fn) => shell.read(op, (s) => fn(s.db)) };
  return {
    kind: 'sqlite',
    ...sqliteDecisionLog(access),
    ...sqliteSessions(access),
    ...sqliteGrants(access),
    ...sqliteHalts(access),
    ...sqliteApprovals(shell),
    ...sqliteEffects(shell),
    ...sqliteReceipts(shell),
    async close(): Promise<void> {
      shell.close();
    },
  };
}
