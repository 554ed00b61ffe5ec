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

/**
 * The brand of this library's errors, global across module builds (`Symbol.for`): the package
 * ships an ES module and a CommonJS build, and a process may load both (an ESM app whose
 * generated module was compiled to CommonJS, a bundler that picks `require` for one import and
 * `import` for another). Each instance carries the kinds it is (`['CtrlrunError', 'ActionDenied']`)
 * and each public class answers `instanceof` by its own kind, so `e instanceof DuplicateEffect`
 * holds whichever build threw `e`.
 */
const KINDS = Symbol.for('ctrlrun-gen.runtime.error-kinds');
/** The kind a public error class answers `instanceof` for (own static, never inherited by a user's subclass). */
const KIND: unique symbol = Symbol.for('ctrlrun-gen.runtime.error-kind') as never;

function brand(error: object, kind: string): void {
  const kinds = (error as { [KINDS]?: unknown })[KINDS];
  Object.defineProperty(error, KINDS, { value: Object.freeze([...(Array.isArray(kinds) ? kinds : []), kind]), enumerable: false, configurable: true });
}

function hasKind(cls: object, value: unknown): boolean {
  if (!Object.hasOwn(cls, KIND) || value === null || typeof value !== 'object') return false;
  const kinds = (value as { [KINDS]?: unknown })[KINDS];
  return Array.isArray(kinds) && kinds.includes((cls as { [KIND]: string })[KIND]);
}

export class CtrlrunError extends Error {
  static readonly [KIND]: string = 'CtrlrunError';
  /** `instanceof` across this package's ES module and CommonJS builds (see `KINDS`); a user's subclass keeps the ordinary prototype check. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class on the right of `instanceof` (a subclass too), not CtrlrunError
    return Function.prototype[Symbol.hasInstance].call(this, value) || hasKind(this, value);
  }
  override name = 'CtrlrunError';
  readonly action: string | undefined;
  readonly callId: string | null | undefined;
  /** The SDK's `RunState` when the error surfaced from a run (set by `run()`/`unwrap()`), to resume or inspect. */
  state?: unknown;

  constructor(message: string, details: CtrlrunErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.action = details.action;
    this.callId = details.callId;
    brand(this, 'CtrlrunError');
  }
}

/** The call was refused (policy deny, no principal, a template that does not resolve, attempts exhausted). The body did not run. */
export class ActionDenied extends CtrlrunError {
  static override readonly [KIND]: string = 'ActionDenied';
  override name = 'ActionDenied';
  constructor(
    readonly reason: string,
    message: string,
    details: CtrlrunErrorDetails = {},
  ) {
    super(message, details);
    brand(this, 'ActionDenied');
  }
}

/** An approval that does not authorize this call. The body did not run. */
export class ApprovalMismatch extends CtrlrunError {
  static override readonly [KIND]: string = 'ApprovalMismatch';
  override name = 'ApprovalMismatch';
  constructor(
    readonly reason: ApprovalMismatchReason,
    message: string,
    details: CtrlrunErrorDetails = {},
  ) {
    super(message, details);
    brand(this, 'ApprovalMismatch');
  }
}

/** The effect key was already committed: the effect happened before. The body did not run again. */
export class DuplicateEffect extends CtrlrunError {
  static override readonly [KIND]: string = 'DuplicateEffect';
  override name = 'DuplicateEffect';
  constructor(
    readonly key: string,
    message: string,
    details: CtrlrunErrorDetails = {},
  ) {
    super(message, details);
    brand(this, 'DuplicateEffect');
  }
}

/**
 * Whether the effect happened is unknown (an attempt threw, timed out, or crashed while holding
 * the key). Nothing runs for this key until an operator resolves it
 * (`ctrlrun-gen effects resolve KEY --committed|--failed`).
 */
export class AmbiguousEffect extends CtrlrunError {
  static override readonly [KIND]: string = 'AmbiguousEffect';
  override name = 'AmbiguousEffect';
  constructor(
    readonly key: string,
    message: string,
    details: CtrlrunErrorDetails = {},
  ) {
    super(message, details);
    brand(this, 'AmbiguousEffect');
  }
}

/**
 * Thrown BY A TOOL BODY to assert that nothing happened (the remote refused before acting). The
 * effect key becomes `failed` and the call may be tried again, up to the action's `max_attempts`.
 */
export class NotExecuted extends CtrlrunError {
  static override readonly [KIND]: string = 'NotExecuted';
  override name = 'NotExecuted';
  constructor(message = 'the call did not take effect', details: CtrlrunErrorDetails = {}) {
    super(message, details);
    brand(this, 'NotExecuted');
  }
}
