import { createHash } from 'node:crypto';
import type { Consumption } from '../../types.js';
import { APPROVAL_COLUMNS, EFFECT_COLUMNS } from '../rows.js';
import type { PgQueryConfig } from './types.js';

export const CHARGE_COLUMNS = 'grant_id, metric, amount::text AS amount, effect_key, attempt, consumed_at, released_at';
export interface ConsumptionRow {
  grant_id: string;
  metric: string;
  amount: string;
  effect_key: string;
  attempt: number;
  consumed_at: string | number;
  released_at: string | number | null;
}
export function consumptionFromRow(r: ConsumptionRow): Consumption {
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
export function statements(S: string) {
  const named = (text: string): PgQueryConfig => ({ name: `ctrlrun_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`, text });
  const claim = `UPDATE ${S}.approvals SET state = 'consumed', consumed_at = $2 WHERE call_id = $1 AND state = 'approved'`;
  return {
    lockApproval: named(`SELECT ${APPROVAL_COLUMNS} FROM ${S}.approvals WHERE call_id = $1 FOR UPDATE`),
    claim: named(claim),
    claimAny: named(`${claim} RETURNING ${APPROVAL_COLUMNS}`),
    claimBound: named(`${claim} AND action = $3 AND args_hash = $4 AND policy_hash = $5 AND principal = $6 RETURNING ${APPROVAL_COLUMNS}`),
    lockEffect: named(`SELECT ${EFFECT_COLUMNS} FROM ${S}.effects WHERE key = $1 FOR UPDATE`),
    insertEffect: named(`INSERT INTO ${S}.effects (${EFFECT_COLUMNS}) VALUES (${params(8)}) ON CONFLICT (key) DO NOTHING`),
    updateEffect: named(
      `UPDATE ${S}.effects SET action = $2, state = $3, attempts = $4, attempt_id = $5, lease_until = $6, updated_at = $7, resolved_by = $8 WHERE key = $1`,
    ),
    setEffectState: named(`UPDATE ${S}.effects SET state = $2, updated_at = $3 WHERE key = $1`),
    resolveEffect: named(`UPDATE ${S}.effects SET state = $2, updated_at = $3, resolved_by = $4 WHERE key = $1`),
    grantLock: named('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))'),
    heldCharges: named(`SELECT ${CHARGE_COLUMNS} FROM ${S}.budget_ledger WHERE grant_id = $1 AND metric = $2 AND consumed_at >= $3 AND released_at IS NULL`),
    insertCharge: named(
      `INSERT INTO ${S}.budget_ledger (grant_id, metric, amount, effect_key, attempt, consumed_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
    ),
    releaseCharges: named(`UPDATE ${S}.budget_ledger SET released_at = $1 WHERE effect_key = $2 AND released_at IS NULL`),
    approvalByCallId: named(`SELECT ${APPROVAL_COLUMNS} FROM ${S}.approvals WHERE call_id = $1`),
    effectByKey: named(`SELECT ${EFFECT_COLUMNS} FROM ${S}.effects WHERE key = $1`),
  };
}

export function params(n: number): string {
  return Array.from({ length: n }, (_, i) => `$${i + 1}`).join(', ');
}

export type PgStatements = ReturnType<typeof statements>;
