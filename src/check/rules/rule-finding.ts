import type { Span } from '../../scan/types.js';
import type { Finding, RuleMeta } from '../types.js';

/**
 * A finding of a rule, made in the rule's module with its own meta: the severity is that meta's,
 * always. ESLint can give a rule one severity only, so a rule whose findings differed would make
 * `check` and the plugin give different verdicts (issue 35): a finding of another severity is
 * another rule.
 */
export function findingOf(meta: RuleMeta, file: string, at: Pick<Span, 'line' | 'column'>, message: string, hint: string): Finding {
  return { ruleId: meta.id, severity: meta.severity, file, line: at.line, column: at.column, message, hint };
}
