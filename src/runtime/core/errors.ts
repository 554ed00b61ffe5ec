import { CtrlrunError } from '../errors.js';

/** This library's error as it is; anything else wrapped in a `CtrlrunError` with `message` (the original on `cause`). */
export function asCtrlrunError(error: unknown, message: string, details: { action: string; callId: string | null }): CtrlrunError {
  return error instanceof CtrlrunError ? error : new CtrlrunError(message, { ...details, cause: error });
}
