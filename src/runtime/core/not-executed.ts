import type { NotExecuted } from '../errors.js';

/**
 * Marks a `NotExecuted` this library itself established: the protected tool's body threw it, and the
 * wrapper settled the effect key as failed and wrote the receipt before rethrowing it.
 */
export const ESTABLISHED_NOT_EXECUTED: unique symbol = Symbol.for('ctrlrun.notExecuted.established');

export function establishNotExecuted(error: NotExecuted): NotExecuted {
  Object.defineProperty(error, ESTABLISHED_NOT_EXECUTED, { value: true, enumerable: false });
  return error;
}
