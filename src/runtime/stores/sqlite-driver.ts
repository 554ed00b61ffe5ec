import { StoreError } from './errors.js';

/**
 * The thin layer the SQLite store is written against, so its code is written once for both
 * drivers: Node's built-in `node:sqlite` (`DatabaseSync`, Node >= 22.13, nothing to install or
 * compile) and `better-sqlite3` (a native module: Node 20, or chosen). Both are synchronous and
 * read and write the same file format; the store sets the same pragmas on either.
 */
export type SqliteDriverName = 'node' | 'better-sqlite3';
/** `auto`: node:sqlite when this Node has it, else better-sqlite3. */
export type SqliteDriverChoice = SqliteDriverName | 'auto';
export const SQLITE_DRIVERS: readonly SqliteDriverName[] = ['node', 'better-sqlite3'];

export interface SqliteStatement {
  run(...params: unknown[]): { changes: number | bigint };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

export interface SqliteConnection {
  readonly driver: SqliteDriverName;
  prepare(sql: string): SqliteStatement;
  /**
   * A statement whose rows are arrays of the column values in order: no object with a key per
   * column is built for each row, and a row is read by index (a hot statement's cost).
   */
  prepareArrays(sql: string): SqliteStatement;
  exec(sql: string): void;
  /** The value of `PRAGMA name` (a number or a string). */
  pragma(name: string): unknown;
  /** Runs `fn` in one BEGIN IMMEDIATE transaction: committed when it returns, rolled back when it throws. */
  immediate<T>(fn: () => T): T;
  close(): void;
}

export interface SqliteDriver {
  readonly name: SqliteDriverName;
  /** Opens an existing file with the busy timeout set. */
  open(file: string, busyTimeoutMs: number): SqliteConnection;
}

/**
 * The SQLite result code of a driver's error ('SQLITE_BUSY', 'SQLITE_CORRUPT', …): better-sqlite3
 * names it in `code`; node:sqlite gives the number in `errcode` (extended codes keep the primary
 * code in their low byte).
 */
export function sqliteCode(error: unknown): string {
  const e = error as { code?: unknown; errcode?: unknown };
  if (typeof e?.code === 'string' && e.code.startsWith('SQLITE_')) return e.code;
  if (typeof e?.errcode === 'number') return PRIMARY_CODES[e.errcode & 0xff] ?? `SQLITE_${e.errcode}`;
  return '';
}
const PRIMARY_CODES: Record<number, string> = {
  3: 'SQLITE_PERM',
  5: 'SQLITE_BUSY',
  6: 'SQLITE_LOCKED',
  8: 'SQLITE_READONLY',
  11: 'SQLITE_CORRUPT',
  14: 'SQLITE_CANTOPEN',
  26: 'SQLITE_NOTADB',
};

/** The driver for `choice`, loaded on first use; a driver that cannot load is a StoreError saying what to do. */
export async function loadSqliteDriver(choice: SqliteDriverChoice): Promise<SqliteDriver> {
  if (choice === 'node') return nodeDriver(await importNodeSqlite());
  if (choice === 'better-sqlite3') return betterDriver(await importBetterSqlite3());
  const builtIn = await importNodeSqlite().catch(() => null);
  if (builtIn) return nodeDriver(builtIn);
  try {
    return betterDriver(await importBetterSqlite3());
  } catch (error) {
    if ((error as StoreError).code !== 'store_unavailable' || NATIVE_ABI.test(String((error as StoreError).cause))) throw error;
    throw new StoreError(
      'store_unavailable',
      `SQLite store: no SQLite driver on Node ${process.versions.node}: node:sqlite needs Node 22.13 or later, and better-sqlite3 is not installed`,
      {
        hint: 'run on Node 22.13+ (nothing to install), or npm install better-sqlite3',
        cause: error,
      },
    );
  }
}

// ---------------------------------------------------------------------------------------------
// node:sqlite
// ---------------------------------------------------------------------------------------------

interface NodeStatement {
  run(...params: unknown[]): { changes: number | bigint };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  /** Node >= 22.16 and 24 */
  setReturnArrays?(enabled: boolean): void;
}
interface NodeDatabase {
  prepare(sql: string): NodeStatement;
  exec(sql: string): void;
  close(): void;
  readonly isOpen?: boolean;
}
type NodeSqlite = { DatabaseSync: new (file: string, options?: { open?: boolean }) => NodeDatabase };

async function importNodeSqlite(): Promise<NodeSqlite> {
  try {
    // `as string`: @types/node 20 has no node:sqlite types (and on Node 20 the import fails, below)
    return (await withoutSqliteWarning(() => import('node:sqlite' as string))) as NodeSqlite;
  } catch (error) {
    throw new StoreError(
      'store_unavailable',
      `SQLite store: the built-in node:sqlite is not available on Node ${process.versions.node} (it needs Node 22.13 or later)`,
      {
        hint: "run on Node 22.13+, or use sqliteStore({ path, driver: 'better-sqlite3' }) with npm install better-sqlite3",
        cause: error,
      },
    );
  }
}

/**
 * Node 22 and 24 print "ExperimentalWarning: SQLite is an experimental feature" when node:sqlite
 * is first loaded; a store the app chose should not print on its stderr. Only that warning is
 * dropped, and only while the module loads.
 */
async function withoutSqliteWarning<T>(load: () => Promise<T>): Promise<T> {
  const emit = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === 'string' ? warning : warning.message;
    const type = typeof rest[0] === 'string' ? rest[0] : ((rest[0] as { type?: string } | undefined)?.type ?? (warning as Error).name);
    if (type === 'ExperimentalWarning' && /SQLite/i.test(text)) return;
    return (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return await load();
  } finally {
    process.emitWarning = emit;
  }
}

function nodeDriver(mod: NodeSqlite): SqliteDriver {
  return {
    name: 'node',
    open(file, busyTimeoutMs) {
      const db = new mod.DatabaseSync(file);
      try {
        db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
      } catch (error) {
        db.close();
        throw error;
      }
      // prepared once, not parsed again by every write (db.exec prepares its text each time)
      let begin: NodeStatement | undefined;
      let commit: NodeStatement | undefined;
      return {
        driver: 'node',
        prepare: (sql) => db.prepare(sql),
        prepareArrays: (sql) => returningArrays(db.prepare(sql)),
        exec: (sql) => db.exec(sql),
        pragma: (name) => Object.values((db.prepare(`PRAGMA ${name}`).get() as Record<string, unknown> | undefined) ?? {})[0],
        immediate<T>(fn: () => T): T {
          begin ??= db.prepare('BEGIN IMMEDIATE');
          begin.run();
          let result: T;
          try {
            result = fn();
          } catch (error) {
            rollback(db);
            throw error;
          }
          try {
            commit ??= db.prepare('COMMIT');
            commit.run();
          } catch (error) {
            rollback(db); // a failed COMMIT (SQLITE_BUSY, disk full) may leave the transaction open
            throw error;
          }
          return result;
        },
        close: () => {
          if (db.isOpen !== false) db.close();
        },
      };
    },
  };
}

/** Rows as arrays: node:sqlite's own where it has them (Node >= 22.16), else each row object's values (in column order). */
export function returningArrays(statement: NodeStatement): SqliteStatement {
  if (typeof statement.setReturnArrays === 'function') {
    statement.setReturnArrays(true);
    return statement;
  }
  return {
    run: (...params) => statement.run(...params),
    get: (...params) => {
      const row = statement.get(...params) as object | undefined;
      return row === undefined ? undefined : Object.values(row);
    },
    all: (...params) => statement.all(...params).map((row) => Object.values(row as object)),
  };
}

function rollback(db: NodeDatabase): void {
  try {
    db.exec('ROLLBACK');
  } catch {
    // no transaction left to roll back (SQLite already ended it)
  }
}

// ---------------------------------------------------------------------------------------------
// better-sqlite3
// ---------------------------------------------------------------------------------------------

interface BetterStatement extends SqliteStatement {
  raw(enabled: boolean): BetterStatement;
}
interface BetterDatabase {
  prepare(sql: string): BetterStatement;
  exec(sql: string): void;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  transaction<F extends (...args: never[]) => unknown>(fn: F): F & { immediate: F };
  close(): void;
  readonly open: boolean;
}
type BetterSqlite3 = new (file: string, options?: { timeout?: number; fileMustExist?: boolean }) => BetterDatabase;

/** A native module built for another Node: `NODE_MODULE_VERSION 115 … requires 137`, or a wrong ELF. */
const NATIVE_ABI = /NODE_MODULE_VERSION|was compiled against a different Node\.js version|Module did not self-register|invalid ELF header|wrong ELF class/;

async function importBetterSqlite3(): Promise<BetterSqlite3> {
  let Database: BetterSqlite3;
  try {
    const mod = (await import('better-sqlite3')) as unknown as { default?: BetterSqlite3 } & BetterSqlite3;
    Database = mod.default ?? mod;
  } catch (error) {
    throw new StoreError('store_unavailable', 'SQLite store: the better-sqlite3 module could not be loaded (it is not installed)', {
      hint: "npm install better-sqlite3, or on Node 22.13+ use the built-in driver: sqliteStore({ path, driver: 'node' })",
      cause: error,
    });
  }
  // The native part loads with the first database: try it here so a wrong build is named now.
  try {
    new Database(':memory:').close();
  } catch (error) {
    const text = (error as Error)?.message ?? String(error);
    if (NATIVE_ABI.test(text)) {
      throw new StoreError(
        'store_unavailable',
        `SQLite store: better-sqlite3 is installed but was built for another Node.js version than this one (${process.versions.node}, ABI ${process.versions.modules}): ${text.split('\n')[0]}`,
        {
          hint: "rebuild it for this Node (npm rebuild better-sqlite3), or on Node 22.13+ use the built-in driver: sqliteStore({ path, driver: 'node' })",
          cause: error,
        },
      );
    }
    throw new StoreError('store_unavailable', `SQLite store: better-sqlite3 could not open a database: ${text}`, {
      hint: 'reinstall it (npm install better-sqlite3)',
      cause: error,
    });
  }
  return Database;
}

function betterDriver(Database: BetterSqlite3): SqliteDriver {
  return {
    name: 'better-sqlite3',
    open(file, busyTimeoutMs) {
      const db = new Database(file, { timeout: busyTimeoutMs, fileMustExist: true });
      const transaction = db.transaction((fn: () => unknown) => fn()); // made once, not per write
      return {
        driver: 'better-sqlite3',
        prepare: (sql) => db.prepare(sql),
        prepareArrays: (sql) => db.prepare(sql).raw(true),
        exec: (sql) => db.exec(sql),
        pragma: (name) => db.pragma(name, { simple: true }),
        immediate: <T>(fn: () => T): T => transaction.immediate(fn) as T,
        close: () => {
          if (db.open) db.close();
        },
      };
    },
  };
}
