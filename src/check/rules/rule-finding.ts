import type { Span } from '../../scan/types.js';
import type { Finding, RuleMeta, Severity } from '../types.js';

/**
 * A finding of a rule, made in the rule's module with its own meta: the severity comes from that
 * meta (unless given), so the module does not reach back into check/meta.ts (which lists it).
 */
export function findingOf(meta: RuleMeta, file: string, at: Pick<Span, 'line' | 'column'>, message: string, hint: string, severity?: Severity): Finding {
  return { ruleId: meta.id, severity: severity ?? meta.severity, file, line: at.line, column: at.column, message, hint };
}
