import type { StoredSession } from '../types.js';

/** A session as SQLite and Postgres store it (sessions-sqlite.ts, sessions-postgres.ts). */
export interface SessionRow {
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
