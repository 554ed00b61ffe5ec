import type { SessionStore, StoredSession } from '../types.js';

/** Whether a session matches every field given (an empty match matches none). */
export function sessionMatches(s: StoredSession, match: { idHash?: string; origin?: string; name?: string }): boolean {
  const fields = Object.entries(match).filter(([, v]) => v !== undefined) as Array<[keyof StoredSession, string]>;
  return fields.length > 0 && fields.every(([k, v]) => s[k] === v);
}

/** serve's sessions in the memory store (one process: a second serve on it is the same process). */
export function memorySessions(open: () => void): SessionStore {
  const sessions = new Map<string, StoredSession>();
  return {
    async putSession(session) {
      open();
      sessions.set(session.idHash, { ...session });
    },
    async getSession(idHash) {
      open();
      const s = sessions.get(idHash);
      return s ? { ...s } : null;
    },
    async deleteSessions(match) {
      open();
      let n = 0;
      for (const [id, s] of sessions) {
        if (!sessionMatches(s, match)) continue;
        sessions.delete(id);
        n += 1;
      }
      return n;
    },
  };
}
