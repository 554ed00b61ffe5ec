import { createHash } from 'node:crypto';
import { GENESIS_HASH, receiptHash } from '../receipts-hash.js';
import { newestReceiptOf } from '../receipts.js';
import type {
  AddAnswerResult,
  ApprovalAnswer,
  ApprovalRequest,
  ApprovalState,
  ClaimBinding,
  BudgetCharge,
  ClaimResult,
  Consumption,
  EffectRecord,
  EffectState,
  NewApprovalRequest,
  Receipt,
  ReceiptBody,
  RequestPage,
  ReserveEffectInput,
  ReserveResult,
  Store,
  ReceiptMatch,
} from '../types.js';
import { StoreError } from './errors.js';
import { postgresDecisionLog, postgresDecisionLogSql } from './decision-log-postgres.js';
import {
  answerOutcome,
  checkCharges,
  claimTransition,
  exactBinding,
  reservePlan,
  resolveTransition,
  settleTransition,
  withAnswer,
  type ReserveWrites,
} from './transitions.js';
import {
  APPROVAL_COLUMNS,
  EFFECT_COLUMNS,
  approvalFromRow,
  approvalToValues,
  effectFromRow,
  effectToValues,
  receiptFromRow,
  type ApprovalRow,
  type EffectRow,
  type ReceiptRow,
} from './rows.js';

/** A query as `pg` takes it; `name` makes it a prepared statement, parsed once per connection. */
export interface PgQueryConfig {
  name?: string;
  text: string;
  values?: unknown[];
}

/** The part of a `pg` client this store uses (structural, so `pg` stays an optional peer). */
export interface PgClientLike {
  query(text: string | PgQueryConfig, values?: unknown[]): Promise<{ rows: any[]; rowCount: number | null }>;
  release(error?: Error | boolean): void;
  /** `pg` clients are event emitters; a pool of another shape may leave these out. */
  on?(event: 'error', listener: (error: Error) => void): unknown;
  off?(event: 'error', listener: (error: Error) => void): unknown;
}

/** The part of a `pg.Pool` this store uses. */
export interface PgPoolLike {
  connect(): Promise<PgClientLike>;
  query(text: string | PgQueryConfig, values?: unknown[]): Promise<{ rows: any[]; rowCount: number | null }>;
  end(): Promise<void>;
}

export type PostgresStoreOptions = (
  | { connectionString: string; pool?: undefined; /** Pool size when the store makes the pool. Default 10. */ max?: number }
  | { pool: PgPoolLike; connectionString?: undefined }
) & {
  /** The schema holding the store's tables; created when missing. Default `ctrlrun`. */
  schema?: string;
};

export const DEFAULT_POSTGRES_SCHEMA = 'ctrlrun';
const APP = 'ctrlrun-gen';

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
];

const LATEST_VERSION = POSTGRES_MIGRATIONS[POSTGRES_MIGRATIONS.length - 1]!.version;

/**
 * The store for many processes on many hosts (SPEC §5.10), on `pg`. `pg` is imported, the pool
 * made and the schema migrated on first use. Claims are one conditional UPDATE (row count
 * checked); reservations insert-or-lock the key's row; receipts are appended under a lock on a
 * single head row, so `seq` and `prev_hash` never fork across processes.
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

  const query = async (operation: string, text: string | PgQueryConfig, values?: unknown[]) => {
    const p = await init();
    try {
      return await p.query(text, values);
    } catch (error) {
      throw fail(operation, error);
    }
  };

  /** One transaction on one connection; a broken connection is discarded, not reused. */
  const transaction = async <T>(operation: string, fn: (client: PgClientLike) => Promise<T>): Promise<T> => {
    const p = await init();
    let client: PgClientLike;
    try {
      client = await p.connect();
    } catch (error) {
      throw fail(operation, error);
    }
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
      throw error instanceof StoreError ? error : fail(operation, error);
    }
  };

  // Named statements: parsed and planned once per connection, then only bound and executed.
  const Q = statements(S);
  const run = (c: PgClientLike | PgPoolLike, statement: PgQueryConfig, values: unknown[]) => c.query({ ...statement, values });
  const lockApproval = async (c: PgClientLike, callId: string): Promise<ApprovalRequest | undefined> => {
    const r = await run(c, Q.lockApproval, [callId]);
    return r.rows[0] ? approvalFromRow(r.rows[0] as ApprovalRow) : undefined;
  };
  const lockEffect = async (c: PgClientLike, key: string): Promise<EffectRecord | undefined> => {
    const r = await run(c, Q.lockEffect, [key]);
    return r.rows[0] ? effectFromRow(r.rows[0] as EffectRow) : undefined;
  };
  /** The claim decided by the rule on the locked row (a refusal, or a principal equal only after normalisation). */
  const claimLocked = (callId: string, now: number, expect: ClaimBinding | undefined): Promise<ClaimResult> =>
    transaction('claimApproval', async (c) => {
      const { result, write } = claimTransition(await lockApproval(c, callId), expect, now);
      if (write) await consume(c, write);
      return result;
    });
  const consume = async (c: PgClientLike, next: ApprovalRequest): Promise<void> => {
    const r = await run(c, Q.claim, [next.callId, next.consumedAt]);
    if (r.rowCount !== 1) throw new Error(`the approval ${next.callId} changed under a row lock`);
  };
  /** The writes of a decided reservation; false when its insert of a new key lost to another transaction's. */
  const applyReserve = async (c: PgClientLike, writes: ReserveWrites): Promise<boolean> => {
    if (writes.effect?.insert) {
      const inserted = await run(c, Q.insertEffect, effectToValues(writes.effect.record));
      if (inserted.rowCount !== 1) return false;
    } else if (writes.effect) {
      await run(c, Q.updateEffect, effectToValues(writes.effect.record));
    }
    for (const r of writes.charges) await run(c, Q.insertCharge, [r.grantId, r.metric, r.amount, r.effectKey, r.attempt, r.consumedAt]);
    if (writes.claimed) await consume(c, writes.claimed);
    return true;
  };

  /**
   * One reservation path, charged or not. Under READ COMMITTED a sum and an insert are not
   * serialised, so each charged grant's transaction-scoped advisory lock is taken first (sorted: no
   * deadlock); the claimed approval is locked; the plan is made first on the guess that the key is
   * new (one INSERT … ON CONFLICT DO NOTHING, the common case), and again on the key's locked row
   * when the guess was wrong, the plan refused, or the insert lost to another transaction's.
   */
  const reserve = (input: ReserveEffectInput, charges: readonly BudgetCharge[]): Promise<ReserveResult> =>
    transaction('reserveEffect', async (c): Promise<ReserveResult> => {
      for (const grant of [...new Set(charges.map((ch) => ch.grantId))].sort()) await run(c, Q.grantLock, [`${S}.budget:${grant}`]);
      const approval = input.claim ? await lockApproval(c, input.claim.callId) : undefined;
      const held: Consumption[] = [];
      for (const ch of charges) held.push(...(await run(c, Q.heldCharges, [ch.grantId, ch.metric, input.now - ch.windowMs])).rows.map((row) => consumptionFromRow(row as ConsumptionRow)));
      let current: EffectRecord | undefined;
      for (let guess = true, tries = 0; ; guess = false, tries++) {
        if (!guess) current = await lockEffect(c, input.key);
        if (tries > 1 && current === undefined) throw new Error(`the effect ${input.key} lost an insert race but has no row`);
        const { result, writes } = reservePlan(input, charges, { approval, current, held });
        if (guess && !writes?.effect?.insert) continue; // a refusal is never decided on a guess
        if (!writes || (await applyReserve(c, writes))) return result;
      }
    });

  return {
    kind: 'postgres',
    ...postgresDecisionLog({ S, transaction, query: (op, text, values) => query(op, text, values) }),

    async putRequest(request: NewApprovalRequest): Promise<ApprovalRequest> {
      const created: ApprovalRequest = { ...request, state: 'pending', answers: [] };
      const inserted = await query(
        'putRequest',
        `INSERT INTO ${S}.approvals (${APPROVAL_COLUMNS}) VALUES (${params(13)}) ON CONFLICT (call_id) DO NOTHING RETURNING ${APPROVAL_COLUMNS}`,
        approvalToValues(created),
      );
      if (inserted.rows[0]) return approvalFromRow(inserted.rows[0] as ApprovalRow);
      const existing = await query('putRequest', { ...Q.approvalByCallId, values: [request.callId] });
      return approvalFromRow(existing.rows[0] as ApprovalRow);
    },

    async getRequest(callId: string): Promise<ApprovalRequest | null> {
      const r = await query('getRequest', { ...Q.approvalByCallId, values: [callId] });
      return r.rows[0] ? approvalFromRow(r.rows[0] as ApprovalRow) : null;
    },

    async listRequests(filter?: { state?: ApprovalState }): Promise<ApprovalRequest[]> {
      const r =
        filter?.state === undefined
          ? await query('listRequests', `SELECT ${APPROVAL_COLUMNS} FROM ${S}.approvals ORDER BY created_at, call_id COLLATE "C"`)
          : await query('listRequests', `SELECT ${APPROVAL_COLUMNS} FROM ${S}.approvals WHERE state = $1 ORDER BY created_at, call_id COLLATE "C"`, [filter.state]);
      return r.rows.map((row) => approvalFromRow(row as ApprovalRow));
    },

    async pageRequests(filter: { states?: ApprovalState[] }, page: { limit: number; offset: number }): Promise<RequestPage> {
      const states = filter.states ?? [];
      const where = states.length > 0 ? 'WHERE state = ANY($1::text[])' : '';
      const params: unknown[] = states.length > 0 ? [states] : [];
      const n = params.length;
      const items = await query(
        'pageRequests',
        `SELECT ${APPROVAL_COLUMNS} FROM ${S}.approvals ${where} ORDER BY created_at DESC, call_id COLLATE "C" DESC LIMIT $${n + 1} OFFSET $${n + 2}`,
        [...params, page.limit, page.offset],
      );
      const count = await query('pageRequests', `SELECT count(*)::int AS n FROM ${S}.approvals ${where}`, params);
      return { items: items.rows.map((row) => approvalFromRow(row as ApprovalRow)), total: (count.rows[0] as { n: number }).n };
    },

    async addAnswer(callId: string, answer: ApprovalAnswer): Promise<AddAnswerResult> {
      return transaction('addAnswer', async (c) => {
        const request = await lockApproval(c, callId);
        if (!request) return { outcome: 'unknown' } as const;
        const outcome = answerOutcome(request, answer);
        if (outcome !== 'recorded') return { outcome, request };
        const next = withAnswer(request, answer);
        const u = await c.query(
          `UPDATE ${S}.approvals SET state = $1, answers = $2, decided_at = $3 WHERE call_id = $4 AND state = 'pending'`,
          [next.state, JSON.stringify(next.answers), next.decidedAt ?? null, callId],
        );
        if (u.rowCount !== 1) throw new Error(`addAnswer: the request ${callId} changed under a row lock`);
        return { outcome: 'recorded', request: next } as const;
      });
    },

    async claimApproval(callId: string, now: number, expect?: ClaimBinding): Promise<ClaimResult> {
      // The rule's success case as one statement, UPDATE … RETURNING (exact binding columns); a
      // refusal, or a principal equal only after normalisation, is decided on the locked row.
      const exact = exactBinding(expect);
      if (expect === undefined || exact) {
        const r = expect === undefined
          ? await query('claimApproval', { ...Q.claimAny, values: [callId, now] })
          : await query('claimApproval', { ...Q.claimBound, values: [callId, now, exact!.action, exact!.argsHash, exact!.policyHash, exact!.principal] });
        if (r.rowCount === 1) return { outcome: 'claimed', request: approvalFromRow(r.rows[0] as ApprovalRow) };
      }
      return claimLocked(callId, now, expect);
    },

    async reserveEffect(input: ReserveEffectInput): Promise<ReserveResult> {
      return reserve(input, checkCharges(input.charges));
    },

    async settleEffect(key, attemptId, state, now): Promise<boolean> {
      return transaction('settleEffect', async (c) => {
        const settled = settleTransition(await lockEffect(c, key), attemptId, state, now);
        if (!settled) return false;
        await run(c, Q.setEffectState, [key, state, now]);
        if (settled.release) await run(c, Q.releaseCharges, [now, key]);
        return true;
      });
    },

    async resolveEffect(key, state, by, now): Promise<EffectRecord | null> {
      return transaction('resolveEffect', async (c) => {
        const current = await lockEffect(c, key);
        if (!current) return null;
        const resolved = resolveTransition(current, state, by, now);
        if (!resolved) return current;
        await run(c, Q.resolveEffect, [key, state, now, by]);
        if (resolved.release) await run(c, Q.releaseCharges, [now, key]);
        return resolved.next;
      });
    },

    async consumptions(filter?: { grantId?: string; metric?: string; effectKey?: string }): Promise<Consumption[]> {
      const r = await query(
        'consumptions',
        `SELECT ${CHARGE_COLUMNS} FROM ${S}.budget_ledger WHERE ($1::text IS NULL OR grant_id = $1) AND ($2::text IS NULL OR metric = $2) AND ($3::text IS NULL OR effect_key = $3) ORDER BY id`,
        [filter?.grantId ?? null, filter?.metric ?? null, filter?.effectKey ?? null],
      );
      return r.rows.map((row) => consumptionFromRow(row as ConsumptionRow));
    },

    async getEffect(key: string): Promise<EffectRecord | null> {
      const r = await query('getEffect', { ...Q.effectByKey, values: [key] });
      return r.rows[0] ? effectFromRow(r.rows[0] as EffectRow) : null;
    },

    async listEffects(filter?: { state?: EffectState }): Promise<EffectRecord[]> {
      const r =
        filter?.state === undefined
          ? await query('listEffects', `SELECT ${EFFECT_COLUMNS} FROM ${S}.effects ORDER BY key COLLATE "C"`)
          : await query('listEffects', `SELECT ${EFFECT_COLUMNS} FROM ${S}.effects WHERE state = $1 ORDER BY key COLLATE "C"`, [filter.state]);
      return r.rows.map((row) => effectFromRow(row as EffectRow));
    },

    async appendReceipt(body: ReceiptBody): Promise<Receipt> {
      return transaction('appendReceipt', async (c) => {
        const head = await c.query(`SELECT seq, hash FROM ${S}.receipt_head WHERE id = 1 FOR UPDATE`);
        const last = head.rows[0] as { seq: string | number; hash: string };
        const unsigned = { ...structuredClone(body), seq: Number(last.seq) + 1, prev_hash: last.hash };
        const receipt: Receipt = { ...unsigned, hash: receiptHash(unsigned) };
        await c.query(`INSERT INTO ${S}.receipts (seq, hash, receipt) VALUES ($1, $2, $3)`, [receipt.seq, receipt.hash, JSON.stringify(receipt)]);
        await c.query(`UPDATE ${S}.receipt_head SET seq = $1, hash = $2 WHERE id = 1`, [receipt.seq, receipt.hash]);
        return receipt;
      });
    },

    async listReceipts(opts?: { afterSeq?: number; limit?: number }): Promise<Receipt[]> {
      const r = await query('listReceipts', `SELECT seq, hash, receipt FROM ${S}.receipts WHERE seq > $1 ORDER BY seq LIMIT $2`, [
        opts?.afterSeq ?? 0,
        opts?.limit ?? null,
      ]);
      return r.rows.map((row) => receiptFromRow(row as ReceiptRow));
    },

    async lastReceiptOf(match: ReceiptMatch): Promise<Receipt | null> {
      // newest first, stopping at the first match
      const field = 'callId' in match ? 'call_id' : 'effect_key';
      const value = 'callId' in match ? match.callId : match.effectKey;
      try {
        const r = await query('lastReceiptOf', `SELECT seq, hash, receipt FROM ${S}.receipts WHERE (receipt::jsonb ->> '${field}') = $1 ORDER BY seq DESC LIMIT 1`, [value]);
        const row = r.rows[0] as ReceiptRow | undefined;
        return row ? receiptFromRow(row) : null;
      } catch (error) {
        // a receipt row that is not JSON (a damaged chain: verify names it) fails the cast; search it as listed instead
        if (!(error instanceof StoreError)) throw error;
        const rows = (await query('lastReceiptOf', `SELECT seq, hash, receipt FROM ${S}.receipts ORDER BY seq`, [])).rows as ReceiptRow[];
        return newestReceiptOf(rows.map(receiptFromRow), match);
      }
    },

    async receiptHead(): Promise<{ seq: number; hash: string }> {
      const r = await query('receiptHead', `SELECT seq, hash FROM ${S}.receipt_head WHERE id = 1`, []);
      const row = r.rows[0] as { seq: string | number; hash: string } | undefined;
      return row ? { seq: Number(row.seq), hash: row.hash } : { seq: 0, hash: GENESIS_HASH };
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      const pending = ready;
      ready = undefined;
      if (pending) await pending.catch(() => undefined);
      if (ownsPool && pool) await pool.end();
    },
  };
}

const CHARGE_COLUMNS = 'grant_id, metric, amount::text AS amount, effect_key, attempt, consumed_at, released_at';
interface ConsumptionRow {
  grant_id: string;
  metric: string;
  amount: string;
  effect_key: string;
  attempt: number;
  consumed_at: string | number;
  released_at: string | number | null;
}
function consumptionFromRow(r: ConsumptionRow): Consumption {
  return {
    grantId: r.grant_id,
    metric: r.metric,
    amount: r.amount,
    effectKey: r.effect_key,
    attempt: Number(r.attempt),
    consumedAt: Number(r.consumed_at),
    releasedAt: r.released_at === null ? null : Number(r.released_at),
  };
}

/** The statements of the per-call path, named by a hash of their text (a shared pool never mixes two schemas' statements). */
function statements(S: string) {
  const named = (text: string): PgQueryConfig => ({ name: `ctrlrun_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`, text });
  const claim = `UPDATE ${S}.approvals SET state = 'consumed', consumed_at = $2 WHERE call_id = $1 AND state = 'approved'`;
  return {
    lockApproval: named(`SELECT ${APPROVAL_COLUMNS} FROM ${S}.approvals WHERE call_id = $1 FOR UPDATE`),
    claim: named(claim),
    claimAny: named(`${claim} RETURNING ${APPROVAL_COLUMNS}`),
    claimBound: named(`${claim} AND action = $3 AND args_hash = $4 AND policy_hash = $5 AND principal = $6 RETURNING ${APPROVAL_COLUMNS}`),
    lockEffect: named(`SELECT ${EFFECT_COLUMNS} FROM ${S}.effects WHERE key = $1 FOR UPDATE`),
    insertEffect: named(`INSERT INTO ${S}.effects (${EFFECT_COLUMNS}) VALUES (${params(8)}) ON CONFLICT (key) DO NOTHING`),
    updateEffect: named(`UPDATE ${S}.effects SET action = $2, state = $3, attempts = $4, attempt_id = $5, lease_until = $6, updated_at = $7, resolved_by = $8 WHERE key = $1`),
    setEffectState: named(`UPDATE ${S}.effects SET state = $2, updated_at = $3 WHERE key = $1`),
    resolveEffect: named(`UPDATE ${S}.effects SET state = $2, updated_at = $3, resolved_by = $4 WHERE key = $1`),
    grantLock: named('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))'),
    heldCharges: named(`SELECT ${CHARGE_COLUMNS} FROM ${S}.budget_ledger WHERE grant_id = $1 AND metric = $2 AND consumed_at >= $3 AND released_at IS NULL`),
    insertCharge: named(`INSERT INTO ${S}.budget_ledger (grant_id, metric, amount, effect_key, attempt, consumed_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`),
    releaseCharges: named(`UPDATE ${S}.budget_ledger SET released_at = $1 WHERE effect_key = $2 AND released_at IS NULL`),
    approvalByCallId: named(`SELECT ${APPROVAL_COLUMNS} FROM ${S}.approvals WHERE call_id = $1`),
    effectByKey: named(`SELECT ${EFFECT_COLUMNS} FROM ${S}.effects WHERE key = $1`),
  };
}

function params(n: number): string {
  return Array.from({ length: n }, (_, i) => `$${i + 1}`).join(', ');
}

/** `pg`, imported only when a Postgres store is used. */
async function makePool(options: { connectionString: string; max?: number }): Promise<PgPoolLike> {
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

/** Creates the schema and applies pending migrations, once, under an advisory lock. */
async function migrate(pool: PgPoolLike, S: string, schemaName: string): Promise<void> {
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
      throw new StoreError('store_newer_schema', `Postgres store: schema "${schemaName}" is at version ${version}, newer than this ctrlrun-gen knows (${LATEST_VERSION})`, {
        hint: 'upgrade ctrlrun-gen in every process that shares this database',
      });
    }
    if (version < LATEST_VERSION) {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${S}`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${S}.ctrlrun_schema (id integer PRIMARY KEY CHECK (id = 1), app text NOT NULL, version integer NOT NULL)`);
      for (const migration of POSTGRES_MIGRATIONS) {
        if (migration.version > version) await client.query(migration.sql(S));
      }
      await client.query(
        `INSERT INTO ${S}.ctrlrun_schema (id, app, version) VALUES (1, $1, $2) ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version`,
        [APP, LATEST_VERSION],
      );
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

/** The connection string without its password, for messages. */
export function describeUrl(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return 'the configured database';
  }
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'EPIPE', '57P01', '57P02', '57P03', '08000', '08003', '08006', '08001', '08004']);

function translate(error: unknown, where: string, schemaName: string, operation: string): StoreError {
  if (error instanceof StoreError) return error;
  const code = String((error as { code?: unknown }).code ?? '');
  const detail = (error as Error)?.message ?? String(error);
  const lost = CONNECTION_CODES.has(code) || /Connection terminated|connection timeout|timeout exceeded when trying to connect/i.test(detail);
  if (lost) {
    return new StoreError(
      'store_unavailable',
      `Postgres store (${where}): ${operation} failed: the database connection was lost or refused (${detail}); nothing ran`,
      { hint: 'check that the server is up and reachable; the call can be resumed once it is', cause: error },
    );
  }
  return new StoreError('store_failed', `Postgres store (${where}, schema "${schemaName}"): ${operation} failed: ${detail}`, { cause: error });
}
