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

/**
 * A receipt appended on the condition that the store's halts had not changed (`appendReceipt(body,
 * { haltEpoch })`) found them changed: nothing was appended. The runtime reads the halts again and
 * decides the call anew (it is refused `halted` if a halt now matches it). Not a failure of the store.
 */
export class HaltsChanged extends CtrlrunError {
  override name = 'HaltsChanged';
  constructor(readonly epoch: number) {
    super(`ctrlrun: the store's halts changed (epoch ${epoch}) since this process read them; nothing was appended.`);
  }
}

/** Whether `error` is a `HaltsChanged` (by its shape: a store loaded from the other module build throws the other class). */
export function isHaltsChanged(error: unknown): error is HaltsChanged {
  return error instanceof Error && error.name === 'HaltsChanged' && Number.isSafeInteger((error as { epoch?: unknown }).epoch);
}
