import { StoreError } from '../errors.js';
import { APP } from './schema.js';
import type { PgPoolLike } from './types.js';

/** `pg`, imported only when a Postgres store is used. */
export async function makePool(options: { connectionString: string; max?: number }): Promise<PgPoolLike> {
  let pg: any;
  try {
    const mod: any = await import('pg');
    pg = mod.default ?? mod;
  } catch (error) {
    throw new StoreError('store_unavailable', 'Postgres store: the pg module could not be loaded', {
      hint: 'install it in your project: npm install pg',
      cause: error,
    });
  }
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    connectionTimeoutMillis: 10_000,
    application_name: APP,
  });
  // A connection that dies while idle (server restart, pg_terminate_backend) is dropped by the
  // pool; without a listener the 'error' event would crash the process.
  pool.on('error', () => undefined);
  return pool as PgPoolLike;
}
