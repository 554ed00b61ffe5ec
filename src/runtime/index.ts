/** `ctrlrun-gen/runtime`: what generated modules and user code import at run time. */
export type * from './types.js';
export { canonicalJson, canonicalHash } from './canonical.js';
export { GENESIS_HASH, receiptHash } from './receipts-hash.js';

// --- stores --------------------------------------------------------------------------------
export { memoryStore } from './memory-store.js';
export { sqliteStore, type SqliteStoreOptions } from './stores/sqlite.js';
export { postgresStore, type PostgresStoreOptions, type PgPoolLike, type PgClientLike } from './stores/postgres.js';
export { StoreError, type StoreErrorCode } from './stores/errors.js';
