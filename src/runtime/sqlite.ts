/**
 * `ctrlrun-gen/runtime/sqlite`: the embedded SQLite store, on Node's built-in `node:sqlite`
 * (Node 22.13+) or `better-sqlite3` (an optional peer dependency). Its own entry so that
 * `ctrlrun-gen/runtime` stays free of Node built-ins and native modules: only an app that imports
 * this loads `node:fs`/`node:path`, and a SQLite driver only when the store is first used.
 */
export { sqliteStore, SQLITE_DRIVERS, type SqliteStoreOptions, type SqliteDriverChoice, type SqliteDriverName } from './stores/sqlite.js';
