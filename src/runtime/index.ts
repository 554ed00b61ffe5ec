/** `ctrlrun-gen/runtime`: what generated modules and user code import at run time. */
export type * from './types.js';
export { canonicalJson, canonicalHash } from './canonical.js';
export { GENESIS_HASH, receiptHash } from './receipts-hash.js';

// --- stores --------------------------------------------------------------------------------
export { memoryStore } from './memory-store.js';
// sqliteStore / postgresStore: exported here from ./stores/ by the store implementation.
