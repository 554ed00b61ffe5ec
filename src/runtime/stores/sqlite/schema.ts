import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { StoreError } from '../errors.js';
import type { SqliteConnection as Db, SqliteDriver } from '../sqlite-driver.js';
import { translate } from './errors.js';
import { SQLITE_DECISION_KEY_SQL, SQLITE_DECISION_LOG_SQL } from '../decision-log-sqlite.js';
import { SQLITE_SESSIONS_SQL } from '../sessions-sqlite.js';
import { SQLITE_GRANTS_SQL } from '../grants-sqlite.js';
import { SQLITE_HALTS_SQL } from '../halts-sqlite.js';

/** `PRAGMA application_id` of a ctrlrun-gen database: 'CRLR'. A file with another id is not ours. */
export const SQLITE_APPLICATION_ID = 0x43524c52;

/** Versioned schema: migration N brings `user_version` from N-1 to N. Append only; never edit one. */
export const SQLITE_MIGRATIONS: ReadonlyArray<{ version: number; sql: string }> = [
  {
    version: 1,
    sql: `
      CREATE TABLE approvals (
        call_id TEXT PRIMARY KEY,
        action TEXT NOT NULL,
        tool_name TEXT NOT NULL,
        args_hash TEXT NOT NULL,
        args TEXT NOT NULL,
        policy_hash TEXT NOT NULL,
        principal TEXT NOT NULL,
        approvals_required INTEGER NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending', 'approved', 'rejected', 'consumed')),
        answers TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        decided_at INTEGER,
        consumed_at INTEGER
      ) STRICT;
      CREATE INDEX approvals_by_state ON approvals (state, created_at);
      CREATE TABLE effects (
        key TEXT PRIMARY KEY,
        action TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('in_flight', 'committed', 'failed', 'ambiguous')),
        attempts INTEGER NOT NULL,
        attempt_id TEXT NOT NULL,
        lease_until INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        resolved_by TEXT
      ) STRICT;
      CREATE TABLE receipts (
        seq INTEGER PRIMARY KEY,
        hash TEXT NOT NULL,
        receipt TEXT NOT NULL
      ) STRICT;
    `,
  },
  {
    // CTRLRun's budget ledger (v7 budgets): one row per charge, released when its effect fails.
    version: 2,
    sql: `
      CREATE TABLE budget_ledger (
        id INTEGER PRIMARY KEY,
        grant_id TEXT NOT NULL,
        metric TEXT NOT NULL,
        amount TEXT NOT NULL,
        effect_key TEXT NOT NULL,
        attempt INTEGER NOT NULL,
        consumed_at INTEGER NOT NULL,
        released_at INTEGER,
        UNIQUE (effect_key, attempt, grant_id, metric)
      ) STRICT;
      CREATE INDEX budget_ledger_by_grant ON budget_ledger (grant_id, metric, consumed_at);
    `,
  },
  // the decision log (issue 25): the inputs of each decided call, for `replay --store`
  { version: 3, sql: SQLITE_DECISION_LOG_SQL },
  // the decision log's secret key: labelled arguments are kept as HMACs under it
  { version: 4, sql: SQLITE_DECISION_KEY_SQL },
  // serve's sign-in sessions (issue 37): every serve over the store honours the same ones
  { version: 5, sql: SQLITE_SESSIONS_SQL },
  // approval grants, and the door a request's call paused at (issue 38)
  { version: 6, sql: SQLITE_GRANTS_SQL },
  // operators' halts and their epoch (issue 38): a halt is in force at the next call of every process
  { version: 7, sql: SQLITE_HALTS_SQL },
];

export const LATEST_VERSION = SQLITE_MIGRATIONS[SQLITE_MIGRATIONS.length - 1]!.version;

/** Opens (creating owner-only when missing), checks that the file is ours, and migrates. */
export function openDatabase(file: string, busyTimeoutMs: number, driver: SqliteDriver): Db {
  createOwnerOnly(file);
  let db: Db;
  try {
    db = driver.open(file, busyTimeoutMs);
  } catch (error) {
    throw translate(error, file, 'open', busyTimeoutMs);
  }
  try {
    checkOurs(db, file);
    if (String(db.pragma('journal_mode')).toLowerCase() !== 'wal') db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = FULL');
    migrate(db, file);
    return db;
  } catch (error) {
    db.close();
    throw error instanceof StoreError ? error : translate(error, file, 'open', busyTimeoutMs);
  }
}

/** A missing file (and directory) is created readable by its owner only: 0700 / 0600. */
function createOwnerOnly(file: string): void {
  if (existsSync(file)) return;
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    closeSync(openSync(file, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw new StoreError('store_unavailable', `SQLite store ${file}: cannot create the database file: ${(error as Error).message}`, {
      hint: 'check that the directory is writable, or choose another path',
      cause: error,
    });
  }
}

function checkOurs(db: Db, file: string): void {
  const applicationId = Number(db.pragma('application_id'));
  const version = Number(db.pragma('user_version'));
  if (applicationId === 0 && version === 0) {
    const objects = (db.prepare(`SELECT count(*) AS n FROM sqlite_master`).get() as { n: number }).n;
    if (objects === 0) return; // a fresh, empty database: ours to initialize
  }
  if (applicationId !== SQLITE_APPLICATION_ID) {
    throw new StoreError('store_foreign', `SQLite store ${file}: this is not a ctrlrun-gen database (it holds other data); nothing was changed`, {
      hint: 'point the store at its own file, e.g. .ctrlrun/state.db',
    });
  }
  if (version > LATEST_VERSION) {
    throw new StoreError('store_newer_schema', `SQLite store ${file}: schema version ${version} is newer than this ctrlrun-gen knows (${LATEST_VERSION})`, {
      hint: 'upgrade ctrlrun-gen in this project to the version that wrote the database',
    });
  }
}

function migrate(db: Db, file: string): void {
  if (Number(db.pragma('user_version')) === LATEST_VERSION) return; // no write lock needed
  db.immediate(() => {
    // Re-read under the write lock: another process may have migrated meanwhile.
    checkOurs(db, file);
    const version = Number(db.pragma('user_version'));
    for (const migration of SQLITE_MIGRATIONS) {
      if (migration.version <= version) continue;
      db.exec(migration.sql);
      db.exec(`PRAGMA user_version = ${migration.version}`);
    }
    if (version === 0) db.exec(`PRAGMA application_id = ${SQLITE_APPLICATION_ID}`);
  });
}
