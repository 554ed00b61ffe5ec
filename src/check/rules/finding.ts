import type { Span } from '../../scan/types.js';
import { ruleMeta } from '../meta.js';
import type { Finding, Severity } from '../types.js';

/** A finding at a span of a scanned file, with the rule's default severity unless given. */
export function findingAt(ruleId: string, file: string, at: Pick<Span, 'line' | 'column'>, message: string, hint: string, severity?: Severity): Finding {
  return { ruleId, severity: severity ?? ruleMeta(ruleId).severity, file, line: at.line, column: at.column, message, hint };
}

/** `'name'` quoted for a message. */
export function quote(text: string): string {
  return `'${text}'`;
}
