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

/** A name as a YAML scalar for a hint's manifest line: bare when plain, else double-quoted (`"Filesystem Server, via npx"`). */
export function yamlScalar(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_.\/-]*$/.test(name) ? name : JSON.stringify(name);
}
