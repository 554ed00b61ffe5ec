/**
 * `ctrlrun-gen/runtime/sqlite`: the embedded SQLite store (better-sqlite3, an optional peer
 * dependency). Its own entry so that `ctrlrun-gen/runtime` stays free of Node built-ins and native
 * modules: only an app that imports this loads `node:fs`/`node:path`, and `better-sqlite3` only
 * when the store is first used.
 */
export { sqliteStore, type SqliteStoreOptions } from './stores/sqlite.js';
