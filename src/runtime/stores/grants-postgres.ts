import type { GrantStore } from '../types.js';
import type { PostgresAccess } from './decision-log-postgres.js';
import { GRANT_COLUMNS, grantFromRow, grantToValues, grantWhere, revokeTransition, type GrantRow } from './grants-rows.js';

/**
 * Migration 6 of the Postgres store: approval grants (issue 38), and the door a request's call paused
 * at (its kind, and the tool's schema where an approver may edit the arguments).
 */
export const postgresGrantsSql = (S: string): string => `
  ALTER TABLE ${S}.approvals ADD COLUMN door text;
  CREATE TABLE ${S}.grants (
    id text PRIMARY KEY,
    principal text NOT NULL,
    action text NOT NULL,
    policy_hash text NOT NULL,
    rule text NOT NULL,
    bounds text NOT NULL,
    granted_by text NOT NULL,
    granted_at bigint NOT NULL,
    expires_at bigint NOT NULL,
    call_id text NOT NULL,
    revoked_at bigint,
    revoked_by text
  );
  CREATE INDEX grants_by_principal ON ${S}.grants (principal, action, expires_at);
`;

const params = (n: number) => Array.from({ length: n }, (_, i) => `$${i + 1}`).join(', ');

/** Approval grants in the Postgres store, shared by every process over it; a revocation locks the grant's row. */
export function postgresGrants(access: PostgresAccess): GrantStore {
  const { S } = access;
  return {
    async putGrant(grant) {
      const inserted = await access.query(
        'putGrant',
        `INSERT INTO ${S}.grants (${GRANT_COLUMNS}) VALUES (${params(12)}) ON CONFLICT (id) DO NOTHING RETURNING ${GRANT_COLUMNS}`,
        grantToValues(grant),
      );
      if (inserted.rows[0]) return grantFromRow(inserted.rows[0] as GrantRow);
      const existing = await access.query('putGrant', `SELECT ${GRANT_COLUMNS} FROM ${S}.grants WHERE id = $1`, [grant.id]);
      return grantFromRow(existing.rows[0] as GrantRow);
    },
    async listGrants(query) {
      const where = grantWhere(query, (n) => `$${n}`);
      const r = await access.query('listGrants', `SELECT ${GRANT_COLUMNS} FROM ${S}.grants ${where.sql} ORDER BY granted_at, id COLLATE "C"`, where.values);
      return r.rows.map((row) => grantFromRow(row as GrantRow));
    },
    async getGrant(id) {
      const r = await access.query('getGrant', `SELECT ${GRANT_COLUMNS} FROM ${S}.grants WHERE id = $1`, [id]);
      return r.rows[0] ? grantFromRow(r.rows[0] as GrantRow) : null;
    },
    revokeGrant: (id, by, now) =>
      access.transaction('revokeGrant', async (c) => {
        const r = await c.query(`SELECT ${GRANT_COLUMNS} FROM ${S}.grants WHERE id = $1 FOR UPDATE`, [id]);
        if (!r.rows[0]) return null;
        const found = grantFromRow(r.rows[0] as GrantRow);
        const next = revokeTransition(found, by, now);
        if (!next) return found;
        await c.query(`UPDATE ${S}.grants SET revoked_at = $1, revoked_by = $2 WHERE id = $3`, [now, by, id]);
        return next;
      }),
  };
}
