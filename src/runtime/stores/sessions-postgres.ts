import type { SessionStore } from '../types.js';
import type { PostgresAccess } from './decision-log-postgres.js';
import { sessionFromRow, sessionWhere } from './sessions-rows.js';

/** Migration 5 of the Postgres store: serve's sign-in sessions (the hash of each secret, never the secret). */
export const postgresSessionsSql = (S: string): string => `
  CREATE TABLE ${S}.sessions (
    id_hash text PRIMARY KEY,
    name text NOT NULL,
    token_hash text NOT NULL,
    origin text NOT NULL,
    created_at bigint NOT NULL,
    expires_at bigint NOT NULL
  );
`;

/** serve's sessions in the Postgres store, shared by every serve replica over it; a new session also clears the expired ones. */
export function postgresSessions(access: PostgresAccess): SessionStore {
  const { S } = access;
  return {
    putSession: (s) =>
      access.transaction('putSession', async (c) => {
        await c.query(`DELETE FROM ${S}.sessions WHERE expires_at <= $1`, [s.createdAt]);
        await c.query(`INSERT INTO ${S}.sessions (id_hash, name, token_hash, origin, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`, [
          s.idHash,
          s.name,
          s.tokenHash,
          s.origin,
          s.createdAt,
          s.expiresAt,
        ]);
      }),
    async getSession(idHash) {
      const row = (await access.query('getSession', `SELECT * FROM ${S}.sessions WHERE id_hash = $1`, [idHash])).rows[0];
      return row ? sessionFromRow(row) : null;
    },
    async deleteSessions(match) {
      const where = sessionWhere(match, (n) => `$${n}`);
      if (!where) return 0;
      return (await access.query('deleteSessions', `DELETE FROM ${S}.sessions WHERE ${where.sql}`, where.values)).rowCount ?? 0;
    },
  };
}
