import type { SessionStore } from '../types.js';
import { type SessionRow, sessionFromRow, sessionWhere } from './sessions-rows.js';
import type { SqliteAccess } from './decision-log-sqlite.js';

/** Migration 5 of the SQLite store: serve's sign-in sessions (the hash of each secret, never the secret). */
export const SQLITE_SESSIONS_SQL = `
  CREATE TABLE sessions (
    id_hash TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    origin TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  ) STRICT;
`;

/** serve's sessions in the SQLite store; a new session also clears the expired ones. */
export function sqliteSessions(access: SqliteAccess): SessionStore {
  return {
    putSession: (s) =>
      access.write('putSession', (db) => {
        db.prepare('DELETE FROM sessions WHERE expires_at <= ?').run(s.createdAt);
        db.prepare('INSERT INTO sessions (id_hash, name, token_hash, origin, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)').run(
          s.idHash,
          s.name,
          s.tokenHash,
          s.origin,
          s.createdAt,
          s.expiresAt,
        );
      }),
    getSession: (idHash) =>
      access.read('getSession', (db) => {
        const row = db.prepare('SELECT * FROM sessions WHERE id_hash = ?').get(idHash) as SessionRow | undefined;
        return row ? sessionFromRow(row) : null;
      }),
    deleteSessions: (match) =>
      access.write('deleteSessions', (db) => {
        const where = sessionWhere(match, () => '?');
        if (!where) return 0;
        return Number(db.prepare(`DELETE FROM sessions WHERE ${where.sql}`).run(...where.values).changes);
      }),
  };
}
