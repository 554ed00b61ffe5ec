import { StoreError } from '../errors.js';
import { loadSqliteDriver, type SqliteDriver, type SqliteDriverChoice } from '../sqlite-driver.js';
import { guard } from './errors.js';
import { openDatabase } from './schema.js';
import { prepare, type Statements } from './statements.js';

/** The thin I/O shell of the SQLite store: the lazily opened database and its two ways in. */
export interface SqliteShell {
  readonly file: string;
  /** Runs `fn` in one BEGIN IMMEDIATE transaction, translating SQLite's failures into StoreErrors. */
  write<T>(operation: string, fn: (s: Statements) => T): Promise<T>;
  /** Runs `fn` outside a write transaction (WAL: alongside one writer). */
  read<T>(operation: string, fn: (s: Statements) => T): Promise<T>;
  /**
   * Runs `fn` outside a transaction, for a change that is one statement: SQLite runs a statement
   * in autocommit as its own transaction (the write lock taken at its start, as BEGIN IMMEDIATE
   * does; committed, under WAL and synchronous=FULL durably, when it runs to its end). A statement
   * that returns rows must be run to its end (`all`, not `get`): only then is a failed commit reported.
   */
  autocommit<T>(operation: string, fn: (s: Statements) => T): Promise<T>;
  close(): void;
}

/**
 * The driver is loaded, and the file opened and migrated, on first use: users of other stores
 * never load it, and an unusable file is reported by the first store call (fail closed).
 */
export function sqliteShell(file: string, busyTimeoutMs: number, choice: SqliteDriverChoice): SqliteShell {
  let statements: Statements | undefined;
  let closed = false;
  let driver: SqliteDriver | undefined;

  /** The driver, imported on first use (a dynamic import works from both the ESM and CJS builds). */
  const ready = async (): Promise<void> => {
    if (closed) throw new StoreError('store_closed', `SQLite store ${file}: the store is closed`);
    driver ??= await loadSqliteDriver(choice);
  };
  const open = (): Statements => {
    if (closed) throw new StoreError('store_closed', `SQLite store ${file}: the store is closed`);
    statements ??= prepare(openDatabase(file, busyTimeoutMs, driver!));
    return statements;
  };

  /** `fn` over the open database, translated; a promise either way (a refusal is a rejection, never a throw). */
  const run = <T>(operation: string, fn: (s: Statements) => T): Promise<T> => {
    try {
      return Promise.resolve(guard(file, operation, busyTimeoutMs, () => fn(open())));
    } catch (error) {
      return Promise.reject(error);
    }
  };
  // once the driver is loaded (every call but the first), no extra await before the statement
  const when = <T>(operation: string, fn: (s: Statements) => T): Promise<T> =>
    driver && !closed ? run(operation, fn) : ready().then(() => run(operation, fn));

  return {
    file,
    write: <T>(operation: string, fn: (s: Statements) => T): Promise<T> => when(operation, (s) => s.db.immediate(() => fn(s))),
    read: <T>(operation: string, fn: (s: Statements) => T): Promise<T> => when(operation, fn),
    autocommit: <T>(operation: string, fn: (s: Statements) => T): Promise<T> => when(operation, fn),
    close(): void {
      closed = true;
      statements?.db.close();
      statements = undefined;
    },
  };
}
