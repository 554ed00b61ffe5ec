import { canPrune, DAY_MS, pruneLog } from '../prune.js';
import type { ReceiptSigner } from '../runtime/signing.js';
import { TENANT } from '../runtime/tenant-names.js';
import type { Store } from '../runtime/types.js';
import type { Principal } from './auth.js';

export type PruneView = { ok: true; body: Record<string, unknown> } | { ok: false; status: 400 | 403 | 409; code: string; message: string };

const KEYS = new Set(['log', 'olderThanDays', 'tenant']);
/** The longest retention serve takes (a hundred years): anything longer is a mistake, not a policy. */
export const MAX_RETENTION_DAYS = 36_500;

/** A retention in days as given (a non-negative number up to MAX_RETENTION_DAYS), or undefined. */
export function retentionDays(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= MAX_RETENTION_DAYS ? value : undefined;
}

/**
 * An operator's prune through serve (`POST /api/prune`, `receipts prune --server`): only an
 * operator token, on serve's clock (the request names a retention in days, never a time), within
 * the operator's tenant (an operator with a tenant prunes that tenant's decision entries only; one
 * without may name a tenant, or prune the whole store's oldest records). serve writes and signs
 * the record.
 */
export async function pruneAs(store: Store, who: Principal, body: Record<string, unknown>, now: number, signer?: ReceiptSigner): Promise<PruneView> {
  if (who.kind !== 'operator')
    return { ok: false, status: 403, code: 'forbidden', message: "prune: a runtime token never prunes (pruning is an operator's act)." };
  const extra = Object.keys(body).find((k) => !KEYS.has(k));
  if (extra !== undefined)
    return {
      ok: false,
      status: 400,
      code: 'bad_arguments',
      message: `prune: unknown field ${JSON.stringify(extra.slice(0, 40))} (log, olderThanDays, tenant); the time is serve's, never the caller's.`,
    };
  if (body.log !== 'decisions' && body.log !== 'receipts')
    return { ok: false, status: 400, code: 'bad_arguments', message: 'prune: log is decisions or receipts.' };
  const days = retentionDays(body.olderThanDays);
  if (days === undefined)
    return { ok: false, status: 400, code: 'bad_arguments', message: `prune: olderThanDays is a number of days from 0 to ${MAX_RETENTION_DAYS}.` };
  if (body.tenant !== undefined && (typeof body.tenant !== 'string' || !TENANT.test(body.tenant)))
    return { ok: false, status: 400, code: 'bad_arguments', message: 'prune: tenant is a tenant name.' };
  if (who.tenant !== undefined && body.tenant !== undefined && body.tenant !== who.tenant)
    return { ok: false, status: 403, code: 'forbidden', message: `prune: ${who.name} prunes tenant ${who.tenant} only.` };
  // receipts with a tenant: refused by pruneLog (PruneUnsupported, 403)
  const tenant = who.tenant ?? (body.tenant as string | undefined);
  if (!canPrune(store, body.log)) return { ok: false, status: 409, code: 'unsupported', message: `prune: this server's store cannot prune its ${body.log}.` };
  const before = now - days * DAY_MS;
  const result = await pruneLog(store, {
    log: body.log,
    ...(tenant !== undefined ? { tenant } : {}),
    before,
    by: who.name,
    now,
    ...(signer ? { signer } : {}),
  });
  return {
    ok: true,
    body: result.outcome === 'nothing' ? { outcome: 'nothing', before } : { outcome: 'pruned', record: result.record, receipt: result.receipt.seq },
  };
}
