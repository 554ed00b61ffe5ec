import type { ApprovalRequest, Consumption } from '../../types.js';
import type { SqliteConnection as Db, SqliteStatement } from '../sqlite-driver.js';
import type { ReserveWrites } from '../transitions.js';
import { SQLITE_HALT_EPOCH } from '../halts-sqlite.js';
import { APPROVAL_COLUMN_COUNT, APPROVAL_COLUMNS, EFFECT_COLUMNS, approvalFromRow, effectToValues, type ApprovalRow } from '../rows.js';

/** The prepared statements of one open database (prepared once, on first use). */
export interface Statements {
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
  haltEpoch: SqliteStatement;
}

const CHARGE_COLUMNS = 'grant_id, metric, amount, effect_key, attempt, consumed_at, released_at';
export interface ConsumptionRow {
  grant_id: string;
  metric: string;
  amount: string;
  effect_key: string;
  attempt: number;
  consumed_at: number;
  released_at: number | null;
}
export function consumptionFromRow(r: ConsumptionRow): Consumption {
  return {
    grantId: r.grant_id,
    metric: r.metric,
    amount: r.amount,
    effectKey: r.effect_key,
    attempt: r.attempt,
    consumedAt: r.consumed_at,
    releasedAt: r.released_at,
  };
}

const CLAIM = `UPDATE approvals SET state = 'consumed', consumed_at = ? WHERE call_id = ? AND state = 'approved'`;

export function prepare(db: Db): Statements {
  return {
    db,
    insertApproval: db.prepare(`INSERT INTO approvals (${APPROVAL_COLUMNS}) VALUES (${marks(APPROVAL_COLUMN_COUNT)}) ON CONFLICT (call_id) DO NOTHING`),
    getApproval: db.prepare(`SELECT ${APPROVAL_COLUMNS} FROM approvals WHERE call_id = ?`),
    listApprovals: db.prepare(`SELECT ${APPROVAL_COLUMNS} FROM approvals ORDER BY created_at, call_id`),
    listApprovalsByState: db.prepare(`SELECT ${APPROVAL_COLUMNS} FROM approvals WHERE state = ? ORDER BY created_at, call_id`),
    updateAnswers: db.prepare(`UPDATE approvals SET state = ?, answers = ?, decided_at = ? WHERE call_id = ? AND state = 'pending'`),
    claim: db.prepare(CLAIM),
    // a claim's hot path: rows as arrays (approvalFromValues), run to their end (see claimApproval)
    claimAny: db.prepareArrays(`${CLAIM} RETURNING ${APPROVAL_COLUMNS}`),
    claimBound: db.prepareArrays(`${CLAIM} AND action = ? AND args_hash = ? AND policy_hash = ? AND principal = ? RETURNING ${APPROVAL_COLUMNS}`),
    getEffect: db.prepare(`SELECT ${EFFECT_COLUMNS} FROM effects WHERE key = ?`),
    insertEffect: db.prepare(`INSERT INTO effects (${EFFECT_COLUMNS}) VALUES (${marks(8)})`),
    updateEffect: db.prepare(
      `UPDATE effects SET action = ?, state = ?, attempts = ?, attempt_id = ?, lease_until = ?, updated_at = ?, resolved_by = ? WHERE key = ?`,
    ),
    setEffectState: db.prepare(`UPDATE effects SET state = ?, updated_at = ?, resolved_by = COALESCE(?, resolved_by) WHERE key = ?`),
    listEffects: db.prepare(`SELECT ${EFFECT_COLUMNS} FROM effects ORDER BY key`),
    heldCharges: db.prepare(`SELECT ${CHARGE_COLUMNS} FROM budget_ledger WHERE grant_id = ? AND metric = ? AND consumed_at >= ? AND released_at IS NULL`),
    insertCharge: db.prepare(
      `INSERT INTO budget_ledger (grant_id, metric, amount, effect_key, attempt, consumed_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    ),
    releaseCharges: db.prepare(`UPDATE budget_ledger SET released_at = ? WHERE effect_key = ? AND released_at IS NULL`),
    listCharges: db.prepare(`SELECT ${CHARGE_COLUMNS} FROM budget_ledger ORDER BY id`),
    listEffectsByState: db.prepare(`SELECT ${EFFECT_COLUMNS} FROM effects WHERE state = ? ORDER BY key`),
    lastReceipt: db.prepare(`SELECT seq, hash FROM receipts ORDER BY seq DESC LIMIT 1`),
    insertReceipt: db.prepare(`INSERT INTO receipts (seq, hash, receipt) VALUES (?, ?, ?)`),
    listReceipts: db.prepare(`SELECT seq, hash, receipt FROM receipts WHERE seq > ? ORDER BY seq LIMIT ?`),
    haltEpoch: db.prepare(SQLITE_HALT_EPOCH),
    // newest first, stopping at the first match (the receipt text is JSON; SQLite reads it in C)
    lastReceiptOfCall: db.prepare(
      `SELECT seq, hash, receipt FROM receipts WHERE json_valid(receipt) AND json_extract(receipt, '$.call_id') = ? ORDER BY seq DESC LIMIT 1`,
    ),
    lastReceiptOfEffect: db.prepare(
      `SELECT seq, hash, receipt FROM receipts WHERE json_valid(receipt) AND json_extract(receipt, '$.effect_key') = ? ORDER BY seq DESC LIMIT 1`,
    ),
  };
}

export function marks(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}

/** The approval request of `callId`, read inside the caller's transaction. */
export function approvalOf(s: Statements, callId: string): ApprovalRequest | undefined {
  const row = s.getApproval.get(callId) as ApprovalRow | undefined;
  return row ? approvalFromRow(row) : undefined;
}

/** Writes a decided claim: the row must still be approved (it is, under the write lock). */
export function consume(s: Statements, next: ApprovalRequest): void {
  if (Number(s.claim.run(next.consumedAt!, next.callId).changes) !== 1) throw new Error(`the approval ${next.callId} changed under the write lock`);
}

/** The writes of a decided reservation, inside its transaction. A new key is a plain INSERT: a row already there fails the transaction closed. */
export function applyReserve(s: Statements, writes: ReserveWrites): void {
  if (writes.effect?.insert) s.insertEffect.run(...effectToValues(writes.effect.record));
  else if (writes.effect) {
    const [key, ...rest] = effectToValues(writes.effect.record);
    s.updateEffect.run(...rest, key);
  }
  for (const r of writes.charges) s.insertCharge.run(r.grantId, r.metric, r.amount, r.effectKey, r.attempt, r.consumedAt);
  if (writes.claimed) consume(s, writes.claimed);
}
