/**
 * A located problem a user can fix. Every user-caused error in this project is reported as one
 * (or many) of these: `file:line:col: message`, the path in the document, a code frame and a hint.
 */
export interface Diagnostic {
  severity: 'error' | 'warning';
  /** Path as given (callers print it relative to the working directory). */
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  message: string;
  /** Where in the document: `actions.stripe.refund.rules[1].when`. */
  path?: string;
  hint?: string;
  /** A stable code for tests and tools, e.g. `unknown-key`, `float`, `reserved-subject`. */
  code?: string;
  /** A second location (e.g. the manifest line that points at a policy action). */
  related?: { file: string; line: number; column: number; message: string };
}

/** An error a user caused; the CLI prints its diagnostics (or message) and exits 2. */
export class UserError extends Error {
  readonly diagnostics: Diagnostic[];
  constructor(message: string, diagnostics: Diagnostic[] = []) {
    super(message);
    this.name = 'UserError';
    this.diagnostics = diagnostics;
  }
}
