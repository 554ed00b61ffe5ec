import type { ApprovalGrant, GrantStore } from '../types.js';
import { byGrantOrder, grantMatches, revokeTransition } from './grants-rows.js';

/** Approval grants in the memory store: each method one synchronous turn (atomic under Node's one thread); copies in and out. */
export function memoryGrants(open: () => void): GrantStore {
  const grants = new Map<string, ApprovalGrant>();
  return {
    async putGrant(grant) {
      open();
      const existing = grants.get(grant.id);
      if (existing) return { ...existing };
      grants.set(grant.id, { ...grant });
      return { ...grant };
    },
    async listGrants(query) {
      open();
      return [...grants.values()]
        .filter((g) => grantMatches(g, query))
        .sort(byGrantOrder)
        .map((g) => ({ ...g }));
    },
    async getGrant(id) {
      open();
      const g = grants.get(id);
      return g ? { ...g } : null;
    },
    async revokeGrant(id, by, now) {
      open();
      const g = grants.get(id);
      if (!g) return null;
      const next = revokeTransition(g, by, now);
      if (next) grants.set(id, next);
      return { ...(next ?? g) };
    },
  };
}
