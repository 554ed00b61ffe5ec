import { createRequire } from 'node:module';
import { describe } from 'vitest';
import { SQLITE_DRIVERS, type SqliteDriverName } from '../../src/runtime/sqlite.js';
import { loadSqliteDriver } from '../../src/runtime/stores/sqlite-driver.js';

/**
 * The SQLite drivers this Node can load: node:sqlite on Node 22.13+, better-sqlite3 where its
 * native module was built for this Node's ABI (the repo's is built for the Node that ran npm ci).
 */
export const LOADABLE: ReadonlyMap<SqliteDriverName, Error | null> = new Map(
  await Promise.all(
    SQLITE_DRIVERS.map(
      async (d) =>
        [
          d,
          await loadSqliteDriver(d).then(
            () => null,
            (e: Error) => e,
          ),
        ] as const,
    ),
  ),
);

/**
 * `describe` once per SQLite driver. A driver that cannot load on this Node is said (why, and where
 * it runs), then skipped: node:sqlite runs on Node 22/24, better-sqlite3 on the Node it was built for.
 */
export function describeEachSqliteDriver(name: string, body: (driver: SqliteDriverName) => void): void {
  for (const driver of SQLITE_DRIVERS) {
    const error = LOADABLE.get(driver);
    if (!error) {
      describe(`${name} (driver ${driver})`, () => body(driver));
      continue;
    }
    console.warn(`skipped on Node ${process.versions.node}: ${name} (driver ${driver}): ${error.message.split('\n')[0]}`);
    describe.skipIf(true)(`${name} (driver ${driver})`, () => body(driver));
  }
}

/** A bare SQLite connection for fixtures (not the store): node:sqlite where this Node has it, else better-sqlite3. */
export interface RawSqlite {
  exec(sql: string): void;
  run(sql: string, ...params: unknown[]): void;
  pragma(name: string): unknown;
  close(): void;
}

export async function openRawSqlite(file: string, options: { readonly?: boolean } = {}): Promise<RawSqlite> {
  const builtIn = (await import('node:sqlite' as string).catch(() => null)) as { DatabaseSync: new (f: string, o?: object) => any } | null;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const db: any = builtIn
    ? new builtIn.DatabaseSync(file, { readOnly: options.readonly ?? false })
    : new (createRequire(import.meta.url)('better-sqlite3'))(file, { readonly: options.readonly ?? false });
  return {
    exec: (sql) => db.exec(sql),
    run: (sql, ...params) => db.prepare(sql).run(...params),
    pragma: (name) => Object.values(db.prepare(`PRAGMA ${name}`).get() as object)[0],
    close: () => db.close(),
  };
}
