import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { GENESIS_HASH, receiptHash } from '../receipts-hash.js';
import type {
  AddAnswerResult,
  ApprovalAnswer,
  ApprovalRequest,
  ApprovalState,
  ClaimBinding,
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
import { SQLITE_DECISION_LOG_SQL, sqliteDecisionLog } from './decision-log-sqlite.js';
import { loadSqliteDriver, sqliteCode, type SqliteConnection, type SqliteDriver, type SqliteDriverChoice, type SqliteStatement } from './sqlite-driver.js';
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

export interface SqliteStoreOptions {
  /** The database file; created (with its directory) owner-only when missing. */
  path: string;
  /** How long a write waits for another process's lock before failing closed. Default 5000 ms. */
  busyTimeoutMs?: number;
  /**
   * Which SQLite library opens the file (both read and write the same file). Default `auto`: the
   * built-in `node:sqlite` on Node 22.13 or later, else `better-sqlite3` (an optional peer
   * dependency, a native module). `node` or `better-sqlite3` insist on one.
   */
  driver?: SqliteDriverChoice;
}

export { SQLITE_DRIVERS, type SqliteDriverChoice, type SqliteDriverName } from './sqlite-driver.js';

/** `PRAGMA application_id` of a ctrlrun-gen database: 'CRLR'. A file with another id is not ours. */
export const SQLITE_APPLICATION_ID = 0x43524c52;

/** Versioned schema: migration N brings `user_version` from N-1 to N. Append only; never edit one. */
export const SQLITE_MIGRATIONS: ReadonlyArray<{ version: number; sql: string }> = [
  {
    version: 1,
    sql: `
      CREATE TABLE approvals (
        call_id TEXT PRIMARY KEY,
        action TEXT NOT NULL,
        tool_name TEXT NOT NULL,
        args_hash TEXT NOT NULL,
        args TEXT NOT NULL,
        policy_hash TEXT NOT NULL,
        principal TEXT NOT NULL,
        approvals_required INTEGER NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending', 'approved', 'rejected', 'consumed')),
        answers TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        decided_at INTEGER,
        consumed_at INTEGER
      ) STRICT;
      CREATE INDEX approvals_by_state ON approvals (state, created_at);
      CREATE TABLE effects (
        key TEXT PRIMARY KEY,
        action TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('in_flight', 'committed', 'failed', 'ambiguous')),
        attempts INTEGER NOT NULL,
        attempt_id TEXT NOT NULL,
        lease_until INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        resolved_by TEXT
      ) STRICT;
      CREATE TABLE receipts (
        seq INTEGER PRIMARY KEY,
        hash TEXT NOT NULL,
        receipt TEXT NOT NULL
      ) STRICT;
    `,
  },
  {
    // CTRLRun's budget ledger (v7 budgets): one row per charge, released when its effect fails.
    version: 2,
    sql: `
      CREATE TABLE budget_ledger (
        id INTEGER PRIMARY KEY,
        grant_id TEXT NOT NULL,
        metric TEXT NOT NULL,
        amount TEXT NOT NULL,
        effect_key TEXT NOT NULL,
        attempt INTEGER NOT NULL,
        consumed_at INTEGER NOT NULL,
        released_at INTEGER,
        UNIQUE (effect_key, attempt, grant_id, metric)
      ) STRICT;
      CREATE INDEX budget_ledger_by_grant ON budget_ledger (grant_id, metric, consumed_at);
    `,
  },
  // the decision log (issue 25): the inputs of each decided call, for `replay --store`
  { version: 3, sql: SQLITE_DECISION_LOG_SQL },
];

const LATEST_VERSION = SQLITE_MIGRATIONS[SQLITE_MIGRATIONS.length - 1]!.version;

type Db = SqliteConnection;

/**
 * The embedded store (SPEC §5.10), on node:sqlite or better-sqlite3 (see `driver`). The driver is
 * loaded, and the file opened and migrated, on first use: users of other stores never load it, and
 * an unusable file is reported by the first store call (so the runtime fails closed). Every change
 * is one `BEGIN IMMEDIATE` transaction (committed with fsync: WAL, synchronous=FULL) deciding with
 * the shared transitions; WAL lets readers run alongside one writer.
 */
export function sqliteStore(options: SqliteStoreOptions): Store {
  if (!options || typeof options.path !== 'string' || options.path === '') {
    throw new StoreError('store_failed', 'sqliteStore: `path` is required, e.g. sqliteStore({ path: ".ctrlrun/state.db" })');
  }
  const choice = options.driver ?? 'auto';
  if (!['auto', 'node', 'better-sqlite3'].includes(choice)) {
    throw new StoreError('store_failed', `sqliteStore: driver ${JSON.stringify(choice)} is not one of 'auto', 'node', 'better-sqlite3'`, { hint: "leave it out to use node:sqlite on Node 22.13+ and better-sqlite3 elsewhere" });
  }
  const file = path.resolve(options.path);
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  let db: Db | undefined;
  let statements: Statements | undefined;
  let closed = false;
  let driver: SqliteDriver | undefined;

  /** The driver, imported on first use (a dynamic import works from both the ESM and CJS builds). */
  const ready = async (): Promise<void> => {
    if (closed) throw new StoreError('store_closed', `SQLite store ${file}: the store is closed`);
    driver ??= await loadSqliteDriver(choice);
  };
  const open = (): Statements => {
    if (closed) throw new StoreError('store_closed', `SQLite store ${file}: the store is closed`);
    if (!statements) {
      db = openDatabase(file, busyTimeoutMs, driver!);
      statements = prepare(db);
    }
    return statements;
  };

  /** Runs `fn` in one BEGIN IMMEDIATE transaction, translating SQLite's failures into StoreErrors. */
  const write = async <T>(operation: string, fn: (s: Statements) => T): Promise<T> => {
    await ready();
    return guard(file, operation, busyTimeoutMs, () => {
      const s = open();
      return s.db.immediate(() => fn(s));
    });
  };
  const read = async <T>(operation: string, fn: (s: Statements) => T): Promise<T> => {
    await ready();
    return guard(file, operation, busyTimeoutMs, () => fn(open()));
  };
  const approval = (s: Statements, callId: string): ApprovalRequest | undefined => {
    const row = s.getApproval.get(callId) as ApprovalRow | undefined;
    return row ? approvalFromRow(row) : undefined;
  };

  return {
    kind: 'sqlite',
    ...sqliteDecisionLog({ write: (op, fn) => write(op, (s) => fn(s.db)), read: (op, fn) => read(op, (s) => fn(s.db)) }),

    async putRequest(request: NewApprovalRequest): Promise<ApprovalRequest> {
      return write('putRequest', (s) => {
        const created: ApprovalRequest = { ...request, state: 'pending', answers: [] };
        s.insertApproval.run(...approvalToValues(created));
        return approval(s, request.callId)!;
      });
    },

    async getRequest(callId: string): Promise<ApprovalRequest | null> {
      return read('getRequest', (s) => approval(s, callId) ?? null);
    },

    async listRequests(filter?: { state?: ApprovalState }): Promise<ApprovalRequest[]> {
      return read('listRequests', (s) => {
        const rows = (filter?.state === undefined ? s.listApprovals.all() : s.listApprovalsByState.all(filter.state)) as ApprovalRow[];
        return rows.map(approvalFromRow);
      });
    },

    async pageRequests(filter: { states?: ApprovalState[] }, page: { limit: number; offset: number }): Promise<RequestPage> {
      return read('pageRequests', () => {
        const states = filter.states ?? [];
        const where = states.length > 0 ? `WHERE state IN (${marks(states.length)})` : '';
        const items = (
          db!.prepare(`SELECT ${APPROVAL_COLUMNS} FROM approvals ${where} ORDER BY created_at DESC, call_id DESC LIMIT ? OFFSET ?`).all(...states, page.limit, page.offset) as ApprovalRow[]
        ).map(approvalFromRow);
        const total = (db!.prepare(`SELECT count(*) AS n FROM approvals ${where}`).get(...states) as { n: number }).n;
        return { items, total };
      });
    },

    async addAnswer(callId: string, answer: ApprovalAnswer): Promise<AddAnswerResult> {
      return write('addAnswer', (s) => {
        const request = approval(s, callId);
        if (!request) return { outcome: 'unknown' } as const;
        const outcome = answerOutcome(request, answer);
        if (outcome !== 'recorded') return { outcome, request };
        const next = withAnswer(request, answer);
        s.updateAnswers.run(next.state, JSON.stringify(next.answers), next.decidedAt ?? null, callId);
        return { outcome: 'recorded', request: next } as const;
      });
    },

    async claimApproval(callId: string, now: number, expect?: ClaimBinding): Promise<ClaimResult> {
      return write('claimApproval', (s): ClaimResult => {
        // The rule's success case as one conditional UPDATE … RETURNING (exact binding columns);
        // anything else (a refusal, a principal equal only after normalisation) is decided below.
        const exact = exactBinding(expect);
        const row = (expect === undefined ? s.claimAny.get(now, callId) : exact ? s.claimBound.get(now, callId, exact.action, exact.argsHash, exact.policyHash, exact.principal) : undefined) as ApprovalRow | undefined;
        if (row) return { outcome: 'claimed', request: approvalFromRow(row) };
        const { result, write: next } = claimTransition(approval(s, callId), expect, now);
        if (next) consume(s, next);
        return result;
      });
    },

    async reserveEffect(input: ReserveEffectInput): Promise<ReserveResult> {
      const charges = checkCharges(input.charges);
      return write('reserveEffect', (s): ReserveResult => {
        const row = s.getEffect.get(input.key) as EffectRow | undefined;
        // inside BEGIN IMMEDIATE: the facts, the sum and the writes are one write-locked transaction
        const held: Consumption[] = [];
        for (const c of charges) held.push(...(s.heldCharges.all(c.grantId, c.metric, input.now - c.windowMs) as ConsumptionRow[]).map(consumptionFromRow));
        const facts = { approval: input.claim ? approval(s, input.claim.callId) : undefined, current: row ? effectFromRow(row) : undefined, held };
        const { result, writes } = reservePlan(input, charges, facts);
        if (writes) applyReserve(s, writes);
        return result;
      });
    },

    async settleEffect(key, attemptId, state, now): Promise<boolean> {
      return write('settleEffect', (s) => {
        const row = s.getEffect.get(key) as EffectRow | undefined;
        const settled = settleTransition(row ? effectFromRow(row) : undefined, attemptId, state, now);
        if (!settled) return false;
        s.setEffectState.run(state, now, null, key);
        if (settled.release) s.releaseCharges.run(now, key);
        return true;
      });
    },

    async resolveEffect(key, state, by, now): Promise<EffectRecord | null> {
      return write('resolveEffect', (s) => {
        const row = s.getEffect.get(key) as EffectRow | undefined;
        if (!row) return null;
        const current = effectFromRow(row);
        const resolved = resolveTransition(current, state, by, now);
        if (!resolved) return current;
        s.setEffectState.run(state, now, by, key);
        if (resolved.release) s.releaseCharges.run(now, key);
        return resolved.next;
      });
    },

    async consumptions(filter?: { grantId?: string; metric?: string; effectKey?: string }): Promise<Consumption[]> {
      return read('consumptions', (s) =>
        (s.listCharges.all() as ConsumptionRow[])
          .map(consumptionFromRow)
          .filter((r) => (filter?.grantId === undefined || r.grantId === filter.grantId) && (filter?.metric === undefined || r.metric === filter.metric) && (filter?.effectKey === undefined || r.effectKey === filter.effectKey)),
      );
    },

    async getEffect(key: string): Promise<EffectRecord | null> {
      return read('getEffect', (s) => {
        const row = s.getEffect.get(key) as EffectRow | undefined;
        return row ? effectFromRow(row) : null;
      });
    },

    async listEffects(filter?: { state?: EffectState }): Promise<EffectRecord[]> {
      return read('listEffects', (s) => {
        const rows = (filter?.state === undefined ? s.listEffects.all() : s.listEffectsByState.all(filter.state)) as EffectRow[];
        return rows.map(effectFromRow);
      });
    },

    async appendReceipt(body: ReceiptBody): Promise<Receipt> {
      return write('appendReceipt', (s) => {
        const last = s.lastReceipt.get() as { seq: number; hash: string } | undefined;
        const unsigned = { ...structuredClone(body), seq: (last?.seq ?? 0) + 1, prev_hash: last?.hash ?? GENESIS_HASH };
        const receipt: Receipt = { ...unsigned, hash: receiptHash(unsigned) };
        s.insertReceipt.run(receipt.seq, receipt.hash, JSON.stringify(receipt));
        return receipt;
      });
    },

    async listReceipts(opts?: { afterSeq?: number; limit?: number }): Promise<Receipt[]> {
      return read('listReceipts', (s) => {
        const rows = s.listReceipts.all(opts?.afterSeq ?? 0, opts?.limit ?? -1) as ReceiptRow[];
        return rows.map(receiptFromRow);
      });
    },

    async lastReceiptOf(match: ReceiptMatch): Promise<Receipt | null> {
      return read('lastReceiptOf', (s) => {
        const row = ('callId' in match ? s.lastReceiptOfCall.get(match.callId) : s.lastReceiptOfEffect.get(match.effectKey)) as ReceiptRow | undefined;
        return row ? receiptFromRow(row) : null;
      });
    },

    async close(): Promise<void> {
      closed = true;
      db?.close();
      db = undefined;
      statements = undefined;
    },
  };
}

/** Writes a decided claim: the row must still be approved (it is, under the write lock). */
function consume(s: Statements, next: ApprovalRequest): void {
  if (Number(s.claim.run(next.consumedAt!, next.callId).changes) !== 1) throw new Error(`the approval ${next.callId} changed under the write lock`);
}

/** The writes of a decided reservation, inside its transaction. A new key is a plain INSERT: a row already there fails the transaction closed. */
function applyReserve(s: Statements, writes: ReserveWrites): void {
  if (writes.effect?.insert) s.insertEffect.run(...effectToValues(writes.effect.record));
  else if (writes.effect) {
    const [key, ...rest] = effectToValues(writes.effect.record);
    s.updateEffect.run(...rest, key);
  }
  for (const r of writes.charges) s.insertCharge.run(r.grantId, r.metric, r.amount, r.effectKey, r.attempt, r.consumedAt);
  if (writes.claimed) consume(s, writes.claimed);
}

interface Statements {
  db: Db;
  insertApproval: SqliteStatement;
  getApproval: SqliteStatement;
  listApprovals: SqliteStatement;
  listApprovalsByState: SqliteStatement;
  updateAnswers: SqliteStatement;
  claim: SqliteStatement;
  claimAny: SqliteStatement;
  claimBound: SqliteStatement;
  getEffect: SqliteStatement;
  insertEffect: SqliteStatement;
  updateEffect: SqliteStatement;
  setEffectState: SqliteStatement;
  heldCharges: SqliteStatement;
  insertCharge: SqliteStatement;
  releaseCharges: SqliteStatement;
  listCharges: SqliteStatement;
  listEffects: SqliteStatement;
  listEffectsByState: SqliteStatement;
  lastReceipt: SqliteStatement;
  lastReceiptOfCall: SqliteStatement;
  lastReceiptOfEffect: SqliteStatement;
  insertReceipt: SqliteStatement;
  listReceipts: SqliteStatement;
}

const CHARGE_COLUMNS = 'grant_id, metric, amount, effect_key, attempt, consumed_at, released_at';
interface ConsumptionRow {
  grant_id: string;
  metric: string;
  amount: string;
  effect_key: string;
  attempt: number;
  consumed_at: number;
  released_at: number | null;
}
function consumptionFromRow(r: ConsumptionRow): Consumption {
  return { grantId: r.grant_id, metric: r.metric, amount: r.amount, effectKey: r.effect_key, attempt: r.attempt, consumedAt: r.consumed_at, releasedAt: r.released_at };
}

const CLAIM = `UPDATE approvals SET state = 'consumed', consumed_at = ? WHERE call_id = ? AND state = 'approved'`;

function prepare(db: Db): Statements {
  return {
    db,
    insertApproval: db.prepare(`INSERT INTO approvals (${APPROVAL_COLUMNS}) VALUES (${marks(13)}) ON CONFLICT (call_id) DO NOTHING`),
    getApproval: db.prepare(`SELECT ${APPROVAL_COLUMNS} FROM approvals WHERE call_id = ?`),
    listApprovals: db.prepare(`SELECT ${APPROVAL_COLUMNS} FROM approvals ORDER BY created_at, call_id`),
    listApprovalsByState: db.prepare(`SELECT ${APPROVAL_COLUMNS} FROM approvals WHERE state = ? ORDER BY created_at, call_id`),
    updateAnswers: db.prepare(`UPDATE approvals SET state = ?, answers = ?, decided_at = ? WHERE call_id = ? AND state = 'pending'`),
    claim: db.prepare(CLAIM),
    claimAny: db.prepare(`${CLAIM} RETURNING ${APPROVAL_COLUMNS}`),
    claimBound: db.prepare(`${CLAIM} AND action = ? AND args_hash = ? AND policy_hash = ? AND principal = ? RETURNING ${APPROVAL_COLUMNS}`),
    getEffect: db.prepare(`SELECT ${EFFECT_COLUMNS} FROM effects WHERE key = ?`),
    insertEffect: db.prepare(`INSERT INTO effects (${EFFECT_COLUMNS}) VALUES (${marks(8)})`),
    updateEffect: db.prepare(`UPDATE effects SET action = ?, state = ?, attempts = ?, attempt_id = ?, lease_until = ?, updated_at = ?, resolved_by = ? WHERE key = ?`),
    setEffectState: db.prepare(`UPDATE effects SET state = ?, updated_at = ?, resolved_by = COALESCE(?, resolved_by) WHERE key = ?`),
    listEffects: db.prepare(`SELECT ${EFFECT_COLUMNS} FROM effects ORDER BY key`),
    heldCharges: db.prepare(`SELECT ${CHARGE_COLUMNS} FROM budget_ledger WHERE grant_id = ? AND metric = ? AND consumed_at >= ? AND released_at IS NULL`),
    insertCharge: db.prepare(`INSERT INTO budget_ledger (grant_id, metric, amount, effect_key, attempt, consumed_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`),
    releaseCharges: db.prepare(`UPDATE budget_ledger SET released_at = ? WHERE effect_key = ? AND released_at IS NULL`),
    listCharges: db.prepare(`SELECT ${CHARGE_COLUMNS} FROM budget_ledger ORDER BY id`),
    listEffectsByState: db.prepare(`SELECT ${EFFECT_COLUMNS} FROM effects WHERE state = ? ORDER BY key`),
    lastReceipt: db.prepare(`SELECT seq, hash FROM receipts ORDER BY seq DESC LIMIT 1`),
    insertReceipt: db.prepare(`INSERT INTO receipts (seq, hash, receipt) VALUES (?, ?, ?)`),
    listReceipts: db.prepare(`SELECT seq, hash, receipt FROM receipts WHERE seq > ? ORDER BY seq LIMIT ?`),
    // newest first, stopping at the first match (the receipt text is JSON; SQLite reads it in C)
    lastReceiptOfCall: db.prepare(`SELECT seq, hash, receipt FROM receipts WHERE json_valid(receipt) AND json_extract(receipt, '$.call_id') = ? ORDER BY seq DESC LIMIT 1`),
    lastReceiptOfEffect: db.prepare(`SELECT seq, hash, receipt FROM receipts WHERE json_valid(receipt) AND json_extract(receipt, '$.effect_key') = ? ORDER BY seq DESC LIMIT 1`),
  };
}

function marks(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}

/** Opens (creating owner-only when missing), checks that the file is ours, and migrates. */
function openDatabase(file: string, busyTimeoutMs: number, driver: SqliteDriver): Db {
  createOwnerOnly(file);
  let db: Db;
  try {
    db = driver.open(file, busyTimeoutMs);
  } catch (error) {
    throw translate(error, file, 'open', busyTimeoutMs);
  }
  try {
    checkOurs(db, file);
    if (String(db.pragma('journal_mode')).toLowerCase() !== 'wal') db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = FULL');
    migrate(db, file);
    return db;
  } catch (error) {
    db.close();
    throw error instanceof StoreError ? error : translate(error, file, 'open', busyTimeoutMs);
  }
}

/** A missing file (and directory) is created readable by its owner only: 0700 / 0600. */
function createOwnerOnly(file: string): void {
  if (existsSync(file)) return;
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    closeSync(openSync(file, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw new StoreError('store_unavailable', `SQLite store ${file}: cannot create the database file: ${(error as Error).message}`, {
      hint: 'check that the directory is writable, or choose another path',
      cause: error,
    });
  }
}

function checkOurs(db: Db, file: string): void {
  const applicationId = Number(db.pragma('application_id'));
  const version = Number(db.pragma('user_version'));
  if (applicationId === 0 && version === 0) {
    const objects = (db.prepare(`SELECT count(*) AS n FROM sqlite_master`).get() as { n: number }).n;
    if (objects === 0) return; // a fresh, empty database: ours to initialize
  }
  if (applicationId !== SQLITE_APPLICATION_ID) {
    throw new StoreError('store_foreign', `SQLite store ${file}: this is not a ctrlrun-gen database (it holds other data); nothing was changed`, {
      hint: 'point the store at its own file, e.g. .ctrlrun/state.db',
    });
  }
  if (version > LATEST_VERSION) {
    throw new StoreError('store_newer_schema', `SQLite store ${file}: schema version ${version} is newer than this ctrlrun-gen knows (${LATEST_VERSION})`, {
      hint: 'upgrade ctrlrun-gen in this project to the version that wrote the database',
    });
  }
}

function migrate(db: Db, file: string): void {
  if (Number(db.pragma('user_version')) === LATEST_VERSION) return; // no write lock needed
  db.immediate(() => {
    // Re-read under the write lock: another process may have migrated meanwhile.
    checkOurs(db, file);
    const version = Number(db.pragma('user_version'));
    for (const migration of SQLITE_MIGRATIONS) {
      if (migration.version <= version) continue;
      db.exec(migration.sql);
      db.exec(`PRAGMA user_version = ${migration.version}`);
    }
    if (version === 0) db.exec(`PRAGMA application_id = ${SQLITE_APPLICATION_ID}`);
  });
}

function guard<T>(file: string, operation: string, busyTimeoutMs: number, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw error instanceof StoreError ? error : translate(error, file, operation, busyTimeoutMs);
  }
}

function translate(error: unknown, file: string, operation: string, busyTimeoutMs: number): StoreError {
  const code = sqliteCode(error);
  const detail = (error as Error).message ?? String(error);
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new StoreError('store_locked', `SQLite store ${file}: ${operation} failed: the database stayed locked past the busy timeout (${busyTimeoutMs} ms); nothing was done`, {
      hint: 'another process holds a write lock; retry, or raise busyTimeoutMs',
      cause: error,
    });
  }
  if (code.startsWith('SQLITE_NOTADB') || code.startsWith('SQLITE_CORRUPT')) {
    return new StoreError('store_corrupt', `SQLite store ${file}: the file is not a usable SQLite database (${detail}); nothing was done`, {
      hint: 'restore it from a backup, or move it aside to start a new store',
      cause: error,
    });
  }
  if (code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_PERM')) {
    return new StoreError('store_unavailable', `SQLite store ${file}: cannot ${operation === 'open' ? 'open' : 'write'} the database (${detail}); nothing was done`, {
      hint: 'check the file and directory permissions',
      cause: error,
    });
  }
  return new StoreError('store_failed', `SQLite store ${file}: ${operation} failed: ${detail}`, { cause: error });
}
