import { isHaltsChanged, StoreError } from '../errors.js';
import { sqliteCode } from '../sqlite-driver.js';

/** Runs `fn`, translating SQLite's failures into StoreErrors (a StoreError passes through). */
export function guard<T>(file: string, operation: string, busyTimeoutMs: number, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    // a changed halt epoch is an answer, not a failure of the store
    throw error instanceof StoreError || isHaltsChanged(error) ? error : translate(error, file, operation, busyTimeoutMs);
  }
}

/** A SQLite failure as the StoreError a caller can act on (locked, corrupt, unavailable, failed). */
export function translate(error: unknown, file: string, operation: string, busyTimeoutMs: number): StoreError {
  const code = sqliteCode(error);
  const detail = (error as Error).message ?? String(error);
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new StoreError(
      'store_locked',
      `SQLite store ${file}: ${operation} failed: the database stayed locked past the busy timeout (${busyTimeoutMs} ms); nothing was done`,
      {
        hint: 'another process holds a write lock; retry, or raise busyTimeoutMs',
        cause: error,
      },
    );
  }
  if (code.startsWith('SQLITE_NOTADB') || code.startsWith('SQLITE_CORRUPT')) {
    return new StoreError('store_corrupt', `SQLite store ${file}: the file is not a usable SQLite database (${detail}); nothing was done`, {
      hint: 'restore it from a backup, or move it aside to start a new store',
      cause: error,
    });
  }
  if (code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_PERM')) {
    return new StoreError(
      'store_unavailable',
      `SQLite store ${file}: cannot ${operation === 'open' ? 'open' : 'write'} the database (${detail}); nothing was done`,
      {
        hint: 'check the file and directory permissions',
        cause: error,
      },
    );
  }
  return new StoreError('store_failed', `SQLite store ${file}: ${operation} failed: ${detail}`, { cause: error });
}
