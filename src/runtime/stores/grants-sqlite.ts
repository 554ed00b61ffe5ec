import type { ApprovalGrant, GrantStore } from '../types.js';
import type { SqliteAccess } from './decision-log-sqlite.js';
import { GRANT_COLUMNS, grantFromRow, grantToValues, grantWhere, revokeTransition, type GrantRow } from './grants-rows.js';

/**
 * Migration 6 of the SQLite store: approval grants (issue 38), and the door a request's call paused
 * at (its kind, and the tool's schema where an approver may edit the arguments).
 */
export const SQLITE_GRANTS_SQL = `
  ALTER TABLE approvals ADD COLUMN door TEXT;
  CREATE TABLE grants (
    id TEXT PRIMARY KEY,
    principal TEXT NOT NULL,
    action TEXT NOT NULL,
    policy_hash TEXT NOT NULL,
    rule TEXT NOT NULL,
    bounds TEXT NOT NULL,
    granted_by TEXT NOT NULL,
    granted_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    call_id TEXT NOT NULL,
    revoked_at INTEGER,
    revoked_by TEXT
  ) STRICT;
  CREATE INDEX grants_by_principal ON grants (principal, action, expires_at);
`;

/** Approval grants in the SQLite store: a put and a revocation are each one BEGIN IMMEDIATE transaction. */
export function sqliteGrants(access: SqliteAccess): GrantStore {
  const byId = (db: Parameters<Parameters<SqliteAccess['read']>[1]>[0], id: string): ApprovalGrant | null => {
    const row = db.prepare(`SELECT ${GRANT_COLUMNS} FROM grants WHERE id = ?`).get(id) as GrantRow | undefined;
    return row ? grantFromRow(row) : null;
  };
  return {
    putGrant: (grant) =>
      access.write('putGrant', (db) => {
        db.prepare(`INSERT INTO grants (${GRANT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`).run(
          ...(grantToValues(grant) as never[]),
        );
        return byId(db, grant.id)!;
      }),
    listGrants: (query) =>
      access.read('listGrants', (db) => {
        const where = grantWhere(query, () => '?');
        const rows = db.prepare(`SELECT ${GRANT_COLUMNS} FROM grants ${where.sql} ORDER BY granted_at, id`).all(...(where.values as never[])) as GrantRow[];
        return rows.map(grantFromRow);
      }),
    getGrant: (id) => access.read('getGrant', (db) => byId(db, id)),
    revokeGrant: (id, by, now) =>
      access.write('revokeGrant', (db) => {
        const found = byId(db, id);
        if (!found) return null;
        const next = revokeTransition(found, by, now);
        if (!next) return found;
        db.prepare('UPDATE grants SET revoked_at = ?, revoked_by = ? WHERE id = ? AND revoked_at IS NULL').run(now, by, id);
        return next;
      }),
  };
}
