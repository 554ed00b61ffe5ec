import { CtrlrunError } from '../errors.js';

/**
 * The error a durable store raises when it cannot do what was asked: unreachable, locked past its
 * busy timeout, a corrupt or foreign database, a schema from a newer version, closed. The caller
 * (the runtime) fails closed on it: nothing runs. A `CtrlrunError`, so it reaches the caller as itself. `code` is stable for tests and operators.
 */
export type StoreErrorCode = 'store_unavailable' | 'store_locked' | 'store_corrupt' | 'store_foreign' | 'store_newer_schema' | 'store_closed' | 'store_failed';

export class StoreError extends CtrlrunError {
  override name = 'StoreError';
  readonly code: StoreErrorCode;
  readonly hint: string | undefined;
  constructor(code: StoreErrorCode, message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(options.hint ? `${message}\nhint: ${options.hint}` : message, options.cause === undefined ? {} : { cause: options.cause });
    this.code = code;
    this.hint = options.hint;
  }
}
