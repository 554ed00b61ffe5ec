import type { ApprovalRequest, EffectRecord } from '../../types.js';
import { StoreError } from '../errors.js';
import { approvalFromRow, effectFromRow, type ApprovalRow, type EffectRow } from '../rows.js';
import { describeUrl, translate } from './errors.js';
import { makePool } from './pool.js';
import { migrate } from './schema.js';
import { statements, type PgStatements } from './statements.js';
import type { PgClientLike, PgPoolLike, PgQueryConfig, PostgresStoreOptions } from './types.js';

type PgResult = { rows: any[]; rowCount: number | null };

/** The thin I/O shell of the Postgres store: the lazily made pool, one query, one transaction. */
export interface PgShell {
  /** The quoted schema, for statement text. */
  readonly S: string;
  /** The named statements of the per-call path. */
  readonly Q: PgStatements;
  query(operation: string, text: string | PgQueryConfig, values?: unknown[]): Promise<PgResult>;
  /** One transaction on one connection; a broken connection is discarded, not reused. */
  transaction<T>(operation: string, fn: (client: PgClientLike) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Runs a named statement with its values. */
export function run(c: PgClientLike | PgPoolLike, statement: PgQueryConfig, values: unknown[]): Promise<PgResult> {
  return c.query({ ...statement, values });
}

/** `pg` is imported, the pool made and the schema migrated on first use; a failed start is retried by the next call. */
export function pgShell(options: PostgresStoreOptions, schemaName: string): PgShell {
  const S = `"${schemaName}"`;
  const where = options.connectionString ? describeUrl(options.connectionString) : 'the given pool';
  const ownsPool = !options.pool;
  let pool: PgPoolLike | undefined = options.pool;
  let ready: Promise<PgPoolLike> | undefined;
  let closed = false;

  const fail = (operation: string, error: unknown): StoreError => translate(error, where, schemaName, operation);

  const init = (): Promise<PgPoolLike> => {
    if (closed) return Promise.reject(new StoreError('store_closed', `Postgres store (${where}): the store is closed`));
    ready ??= (async () => {
      pool ??= await makePool(options as { connectionString: string; max?: number });
      await migrate(pool, S, schemaName);
      return pool;
    })().catch((error: unknown) => {
      ready = undefined; // the next call tries again (the server may be back)
      throw error instanceof StoreError ? error : fail('connect', error);
    });
    return ready;
  };

  return {
    S,
    Q: statements(S),
    async query(operation, text, values) {
      const p = await init();
      try {
        return await p.query(text, values);
      } catch (error) {
        throw fail(operation, error);
      }
    },
    async transaction<T>(operation: string, fn: (client: PgClientLike) => Promise<T>): Promise<T> {
      const p = await init();
      let client: PgClientLike;
      try {
        client = await p.connect();
      } catch (error) {
        throw fail(operation, error);
      }
      return inTransaction(client, fn, (error) => (error instanceof StoreError ? error : fail(operation, error)));
    },
    async close() {
      if (closed) return;
      closed = true;
      const pending = ready;
      ready = undefined;
      if (pending) await pending.catch(() => undefined);
      if (ownsPool && pool) await pool.end();
    },
  };
}

/** BEGIN, `fn`, COMMIT on a checked-out client, released afterwards (discarded when it failed). */
async function inTransaction<T>(client: PgClientLike, fn: (client: PgClientLike) => Promise<T>, fail: (error: unknown) => Error): Promise<T> {
  // A connection killed while checked out (pg_terminate_backend, a server restart) emits
  // 'error' between queries; the pool only listens on idle clients, so without this the
  // process would crash instead of failing this operation closed.
  const ignore = () => undefined;
  client.on?.('error', ignore);
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    client.off?.('error', ignore);
    client.release();
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    client.off?.('error', ignore);
    client.release(error instanceof Error ? error : true);
    throw fail(error);
  }
}

/** The approval row of `callId`, locked FOR UPDATE until the transaction ends. */
export async function lockApproval(Q: PgStatements, c: PgClientLike, callId: string): Promise<ApprovalRequest | undefined> {
  const r = await run(c, Q.lockApproval, [callId]);
  return r.rows[0] ? approvalFromRow(r.rows[0] as ApprovalRow) : undefined;
}

/** The effect row of `key`, locked FOR UPDATE until the transaction ends. */
export async function lockEffect(Q: PgStatements, c: PgClientLike, key: string): Promise<EffectRecord | undefined> {
  const r = await run(c, Q.lockEffect, [key]);
  return r.rows[0] ? effectFromRow(r.rows[0] as EffectRow) : undefined;
}

/** Writes a decided claim: the row must still be approved (it is, under the row lock). */
export async function consume(Q: PgStatements, c: PgClientLike, next: ApprovalRequest): Promise<void> {
  const r = await run(c, Q.claim, [next.callId, next.consumedAt]);
  if (r.rowCount !== 1) throw new Error(`the approval ${next.callId} changed under a row lock`);
}
