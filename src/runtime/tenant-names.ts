/**
 * How one store is shared by tenants (serve's runtime and operator tokens made with `--tenant T`):
 * by name, not by column. Every call id, effect key, attempt id and budget grant a tenant passes is
 * stored as `@T:name`; a name a token passes never starts with `@` (that is a stored name), so a
 * token cannot spell another tenant's record and each stored name is prefixed exactly once. Names
 * without a prefix are the default tenant's. serve maps the names (serve/tenant.ts); operators'
 * prunes and verification read them here.
 */
export const TENANT = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** The prefix of a tenant's stored names: `@acme:`. */
export function tenantPrefix(tenant: string): string {
  return `@${tenant}:`;
}

/** Whether a stored name is the tenant's (undefined: the default tenant, whose names carry no `@`). */
export function isTenantName(tenant: string | undefined, stored: string): boolean {
  return tenant === undefined ? !stored.startsWith('@') : stored.startsWith(tenantPrefix(tenant));
}

/**
 * Whether a stored receipt or decision entry is the tenant's: a named tenant's has its call id or
 * effect key among its names; the default tenant's has neither in a named tenant's (a checkpoint,
 * which names neither, is the default tenant's).
 */
export function ownsRecord(tenant: string | undefined, r: { call_id: string | null; effect_key: string | null }): boolean {
  const names = [r.call_id, r.effect_key].filter((n): n is string => n !== null);
  return tenant === undefined ? names.every((n) => !n.startsWith('@')) : names.some((n) => isTenantName(tenant, n));
}
