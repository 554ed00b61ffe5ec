import { type PostgresAccess, postgresDecisionLog } from './decision-log-postgres.js';
import { postgresSessions } from './sessions-postgres.js';
import { postgresGrants } from './grants-postgres.js';
import { postgresHalts } from './halts-postgres.js';
import type { Store } from '../types.js';
import { StoreError } from './errors.js';
import { postgresApprovals } from './postgres/approvals.js';
import { pgShell } from './postgres/connection.js';
import { postgresEffects } from './postgres/effects.js';
import { postgresReceipts } from './postgres/receipts.js';
import type { PostgresStoreOptions } from './postgres/types.js';

export type { PgClientLike, PgPoolLike, PgQueryConfig, PostgresStoreOptions } from './postgres/types.js';
export { POSTGRES_MIGRATIONS } from './postgres/schema.js';
export { describeUrl } from './postgres/errors.js';

export const DEFAULT_POSTGRES_SCHEMA = 'ctrlrun';

/**
 * The store for many processes on many hosts (SPEC §5.10), on `pg`. `pg` is imported, the pool
 * made and the schema migrated on first use. Claims are one conditional UPDATE (row count
 * checked); reservations insert-or-lock the key's row; receipts are appended under a lock on a
 * single head row, so `seq` and `prev_hash` never fork across processes. The methods live in
 * stores/postgres/ (approvals, effects, receipts; the shell, the schema and the statements).
 */
export function postgresStore(options: PostgresStoreOptions): Store {
  if (!options || (typeof options.connectionString !== 'string' && !options.pool)) {
    throw new StoreError('store_failed', 'postgresStore: give { connectionString } or { pool }', {
      hint: 'e.g. postgresStore({ connectionString: process.env.DATABASE_URL })',
    });
  }
  const schemaName = options.schema ?? DEFAULT_POSTGRES_SCHEMA;
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schemaName)) {
    throw new StoreError('store_failed', `postgresStore: schema ${JSON.stringify(schemaName)} is not a plain identifier`, {
      hint: 'use letters, digits and _ (at most 63), starting with a letter or _',
    });
  }
  const shell = pgShell(options, schemaName);
  const access: PostgresAccess = {
    S: shell.S,
    transaction: (op, fn) => shell.transaction(op, fn as never),
    query: (op, text, values) => shell.query(op, text, values) as never,
  };
  return {
    kind: 'postgres',
    ...postgresDecisionLog(access),
    ...postgresSessions(access),
    ...postgresGrants(access),
    ...postgresHalts(access),
    ...postgresApprovals(shell),
    ...postgresEffects(shell),
    ...postgresReceipts(shell),
    close: () => shell.close(),
  };
}
