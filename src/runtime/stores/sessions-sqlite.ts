import type { SessionStore, StoredSession } from '../types.js';
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

interface SessionRow {
  id_hash: string;
  name: string;
  token_hash: string;
  origin: string;
  created_at: number;
  expires_at: number;
}

export const sessionFromRow = (r: SessionRow): StoredSession => ({
  idHash: r.id_hash,
  name: r.name,
  tokenHash: r.token_hash,
  origin: r.origin,
  createdAt: Number(r.created_at),
  expiresAt: Number(r.expires_at),
});

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

const COLUMNS = { idHash: 'id_hash', origin: 'origin', name: 'name' } as const;

/** The WHERE of a match (every given field), or null for an empty match (which deletes nothing). */
export function sessionWhere(
  match: { idHash?: string; origin?: string; name?: string },
  param: (n: number) => string,
): { sql: string; values: string[] } | null {
  const given = (Object.keys(COLUMNS) as Array<keyof typeof COLUMNS>).filter((k) => typeof match[k] === 'string');
  if (given.length === 0) return null;
  return { sql: given.map((k, i) => `${COLUMNS[k]} = ${param(i + 1)}`).join(' AND '), values: given.map((k) => match[k]!) };
}
