import { isHaltsChanged, StoreError } from '../errors.js';

/** The connection string without its password, for messages. */
export function describeUrl(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return 'the configured database';
  }
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08003',
  '08006',
  '08001',
  '08004',
]);

/** A `pg` failure as the StoreError a caller can act on (unavailable: the call can be resumed; failed). */
export function translate(error: unknown, where: string, schemaName: string, operation: string): StoreError {
  // a changed halt epoch is an answer (the append was conditional), not a failure: passed on as it is
  if (error instanceof StoreError || isHaltsChanged(error)) return error as StoreError;
  const code = String((error as { code?: unknown }).code ?? '');
  const detail = (error as Error)?.message ?? String(error);
  const lost = CONNECTION_CODES.has(code) || /Connection terminated|connection timeout|timeout exceeded when trying to connect/i.test(detail);
  if (lost) {
    return new StoreError(
      'store_unavailable',
      `Postgres store (${where}): ${operation} failed: the database connection was lost or refused (${detail}); nothing ran`,
      { hint: 'check that the server is up and reachable; the call can be resumed once it is', cause: error },
    );
  }
  return new StoreError('store_failed', `Postgres store (${where}, schema "${schemaName}"): ${operation} failed: ${detail}`, { cause: error });
}
