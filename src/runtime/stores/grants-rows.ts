import type { ApprovalGrant, GrantQuery } from '../types.js';

/**
 * The approval grants' rules every store shares (grants-memory.ts, grants-sqlite.ts,
 * grants-postgres.ts; serve's tenant view): which grants a query matches, and what a revocation
 * writes. Pure.
 */

/** Whether a grant matches every field of the query (`activeAt`: not revoked, not expired at that instant). */
export function grantMatches(g: ApprovalGrant, query: GrantQuery | undefined): boolean {
  if (!query) return true;
  if (query.principal !== undefined && g.principal !== query.principal) return false;
  if (query.action !== undefined && g.action !== query.action) return false;
  if (query.activeAt !== undefined && (g.revokedAt !== undefined || g.expiresAt < query.activeAt)) return false;
  return true;
}

/** Oldest first: by grantedAt, then id (code unit order, as the SQL stores order with COLLATE "C" / BINARY). */
export function byGrantOrder(a: ApprovalGrant, b: ApprovalGrant): number {
  return a.grantedAt - b.grantedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** A revocation: the grant to write, or null when it is already revoked (returned unchanged). */
export function revokeTransition(g: ApprovalGrant, by: string, now: number): ApprovalGrant | null {
  if (g.revokedAt !== undefined) return null;
  return { ...g, revokedAt: now, revokedBy: by };
}

/** A grant as SQLite and Postgres store it. */
export interface GrantRow {
  id: string;
  principal: string;
  action: string;
  policy_hash: string;
  rule: string;
  bounds: string;
  granted_by: string;
  granted_at: number | string;
  expires_at: number | string;
  call_id: string;
  revoked_at: number | string | null;
  revoked_by: string | null;
}

export const GRANT_COLUMNS = 'id, principal, action, policy_hash, rule, bounds, granted_by, granted_at, expires_at, call_id, revoked_at, revoked_by';

export function grantFromRow(r: GrantRow): ApprovalGrant {
  const g: ApprovalGrant = {
    id: r.id,
    principal: r.principal,
    action: r.action,
    policyHash: r.policy_hash,
    rule: r.rule,
    bounds: r.bounds,
    grantedBy: r.granted_by,
    grantedAt: Number(r.granted_at),
    expiresAt: Number(r.expires_at),
    callId: r.call_id,
  };
  if (r.revoked_at !== null) g.revokedAt = Number(r.revoked_at);
  if (r.revoked_by !== null) g.revokedBy = r.revoked_by;
  return g;
}

/** Column values in GRANT_COLUMNS order. */
export function grantToValues(g: ApprovalGrant): unknown[] {
  return [
    g.id,
    g.principal,
    g.action,
    g.policyHash,
    g.rule,
    g.bounds,
    g.grantedBy,
    g.grantedAt,
    g.expiresAt,
    g.callId,
    g.revokedAt ?? null,
    g.revokedBy ?? null,
  ];
}

/** The WHERE of a query (every given field), with its values; `param(n)` spells the n-th placeholder. */
export function grantWhere(query: GrantQuery | undefined, param: (n: number) => string): { sql: string; values: unknown[] } {
  const parts: string[] = [];
  const values: unknown[] = [];
  const add = (sql: (p: string) => string, value: unknown) => {
    values.push(value);
    parts.push(sql(param(values.length)));
  };
  if (query?.principal !== undefined) add((p) => `principal = ${p}`, query.principal);
  if (query?.action !== undefined) add((p) => `action = ${p}`, query.action);
  if (query?.activeAt !== undefined) add((p) => `revoked_at IS NULL AND expires_at >= ${p}`, query.activeAt);
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', values };
}
