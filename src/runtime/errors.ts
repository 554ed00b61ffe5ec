/**
 * The errors of `ctrlrun-gen/runtime`. They always reach the caller (an `errorFunction` never
 * turns them into model text) and `run()` / `unwrap()` hand them back as themselves.
 */

export type ApprovalMismatchReason = 'unknown' | 'mismatch' | 'consumed' | 'expired' | 'approver_is_requester';

export interface CtrlrunErrorDetails {
  action?: string | undefined;
  callId?: string | null | undefined;
  cause?: unknown;
}

export class CtrlrunError extends Error {
  override name = 'CtrlrunError';
  readonly action: string | undefined;
  readonly callId: string | null | undefined;
  /** The SDK's `RunState` when the error surfaced from a run (set by `run()`/`unwrap()`), to resume or inspect. */
  state?: unknown;

  constructor(message: string, details: CtrlrunErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.action = details.action;
    this.callId = details.callId;
  }
}

/** The call was refused (policy deny, no principal, a template that does not resolve, attempts exhausted). The body did not run. */
export class ActionDenied extends CtrlrunError {
  override name = 'ActionDenied';
  constructor(
    readonly reason: string,
    message: string,
    details: CtrlrunErrorDetails = {},
  ) {
    super(message, details);
  }
}

/** An approval that does not authorize this call. The body did not run. */
export class ApprovalMismatch extends CtrlrunError {
  override name = 'ApprovalMismatch';
  constructor(
    readonly reason: ApprovalMismatchReason,
    message: string,
    details: CtrlrunErrorDetails = {},
  ) {
    super(message, details);
  }
}

/** The effect key was already committed: the effect happened before. The body did not run again. */
export class DuplicateEffect extends CtrlrunError {
  override name = 'DuplicateEffect';
  constructor(
    readonly key: string,
    message: string,
    details: CtrlrunErrorDetails = {},
  ) {
    super(message, details);
  }
}

/**
 * Whether the effect happened is unknown (an attempt threw, timed out, or crashed while holding
 * the key). Nothing runs for this key until an operator resolves it
 * (`ctrlrun-gen effects resolve KEY --committed|--failed`).
 */
export class AmbiguousEffect extends CtrlrunError {
  override name = 'AmbiguousEffect';
  constructor(
    readonly key: string,
    message: string,
    details: CtrlrunErrorDetails = {},
  ) {
    super(message, details);
  }
}

/**
 * Thrown BY A TOOL BODY to assert that nothing happened (the remote refused before acting). The
 * effect key becomes `failed` and the call may be tried again, up to the action's `max_attempts`.
 */
export class NotExecuted extends CtrlrunError {
  override name = 'NotExecuted';
  constructor(message = 'the call did not take effect', details: CtrlrunErrorDetails = {}) {
    super(message, details);
  }
}
