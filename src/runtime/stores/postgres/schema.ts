import { GENESIS_HASH } from '../../receipts-hash.js';
import { StoreError } from '../errors.js';
import type { PgPoolLike } from './types.js';
import { postgresDecisionKeySql, postgresDecisionLogSql } from '../decision-log-postgres.js';
import { postgresSessionsSql } from '../sessions-postgres.js';
import { postgresGrantsSql } from '../grants-postgres.js';
import { postgresHaltsSql } from '../halts-postgres.js';

export const APP = 'ctrlrun-gen';

/** Versioned schema: migration N brings the schema from N-1 to N. `S` is the quoted schema. Append only. */
export const POSTGRES_MIGRATIONS: ReadonlyArray<{ version: number; sql: (S: string) => string }> = [
  {
    version: 1,
    sql: (S) => `
      CREATE TABLE ${S}.approvals (
        call_id text PRIMARY KEY,
        action text NOT NULL,
        tool_name text NOT NULL,
        args_hash text NOT NULL,
        args text NOT NULL,
        policy_hash text NOT NULL,
        principal text NOT NULL,
        approvals_required integer NOT NULL,
        state text NOT NULL CHECK (state IN ('pending', 'approved', 'rejected', 'consumed')),
        answers text NOT NULL,
        created_at bigint NOT NULL,
        decided_at bigint,
        consumed_at bigint
      );
      CREATE INDEX approvals_by_state ON ${S}.approvals (state, created_at);
      CREATE TABLE ${S}.effects (
        key text PRIMARY KEY,
        action text NOT NULL,
        state text NOT NULL CHECK (state IN ('in_flight', 'committed', 'failed', 'ambiguous')),
        attempts integer NOT NULL,
        attempt_id text NOT NULL,
        lease_until bigint NOT NULL,
        updated_at bigint NOT NULL,
        resolved_by text
      );
      CREATE TABLE ${S}.receipts (
        seq bigint PRIMARY KEY,
        hash text NOT NULL,
        receipt text NOT NULL
      );
      CREATE TABLE ${S}.receipt_head (
        id integer PRIMARY KEY CHECK (id = 1),
        seq bigint NOT NULL,
        hash text NOT NULL
      );
      INSERT INTO ${S}.receipt_head (id, seq, hash) VALUES (1, 0, '${GENESIS_HASH}');
    `,
  },
  {
    // CTRLRun's budget ledger (v7 budgets): one row per charge, released when its effect fails.
    version: 2,
    sql: (S) => `
      CREATE TABLE ${S}.budget_ledger (
        id bigserial PRIMARY KEY,
        grant_id text NOT NULL,
        metric text NOT NULL,
        amount numeric NOT NULL CHECK (amount >= 0),
        effect_key text NOT NULL,
        attempt integer NOT NULL,
        consumed_at bigint NOT NULL,
        released_at bigint,
        UNIQUE (effect_key, attempt, grant_id, metric)
      );
      CREATE INDEX budget_ledger_by_grant ON ${S}.budget_ledger (grant_id, metric, consumed_at);
    `,
  },
  // the decision log (issue 25): the inputs of each decided call, for `replay --store`
  { version: 3, sql: postgresDecisionLogSql },
  // the decision log's secret key: labelled arguments are kept as HMACs under it
  { version: 4, sql: postgresDecisionKeySql },
  // serve's sign-in sessions (issue 37): every serve replica over the store honours the same ones
  { version: 5, sql: postgresSessionsSql },
  // approval grants, and the door a request's call paused at (issue 38)
  { version: 6, sql: postgresGrantsSql },
  // operators' halts (issue 38); their epoch is a column of the receipt head row
  { version: 7, sql: postgresHaltsSql },
];

export const LATEST_VERSION = POSTGRES_MIGRATIONS[POSTGRES_MIGRATIONS.length - 1]!.version;

/** Creates the schema and applies pending migrations, once, under an advisory lock. */
export async function migrate(pool: PgPoolLike, S: string, schemaName: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${APP}:migrate:${schemaName}`]);
    const existing = await client.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1`, [schemaName]);
    const tables = new Set(existing.rows.map((r: { table_name: string }) => r.table_name));
    let version = 0;
    if (tables.has('ctrlrun_schema')) {
      const row = (await client.query(`SELECT app, version FROM ${S}.ctrlrun_schema WHERE id = 1`)).rows[0] as { app: string; version: number } | undefined;
      if (!row || row.app !== APP) throw foreign(schemaName);
      version = Number(row.version);
    } else if (tables.size > 0) {
      throw foreign(schemaName);
    }
    if (version > LATEST_VERSION) {
      throw new StoreError(
        'store_newer_schema',
        `Postgres store: schema "${schemaName}" is at version ${version}, newer than this ctrlrun-gen knows (${LATEST_VERSION})`,
        {
          hint: 'upgrade ctrlrun-gen in every process that shares this database',
        },
      );
    }
    if (version < LATEST_VERSION) {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${S}`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${S}.ctrlrun_schema (id integer PRIMARY KEY CHECK (id = 1), app text NOT NULL, version integer NOT NULL)`);
      for (const migration of POSTGRES_MIGRATIONS) {
        if (migration.version > version) await client.query(migration.sql(S));
      }
      await client.query(`INSERT INTO ${S}.ctrlrun_schema (id, app, version) VALUES (1, $1, $2) ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version`, [
        APP,
        LATEST_VERSION,
      ]);
    }
    await client.query('COMMIT');
    client.release();
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    client.release(error instanceof Error ? error : true);
    throw error;
  }
}

function foreign(schemaName: string): StoreError {
  return new StoreError('store_foreign', `Postgres store: schema "${schemaName}" holds tables that are not a ctrlrun-gen store; nothing was changed`, {
    hint: 'give the store its own schema: postgresStore({ connectionString, schema: "ctrlrun" })',
  });
}
