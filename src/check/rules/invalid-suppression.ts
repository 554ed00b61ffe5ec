import type { SuppressionComment } from '../../scan/types.js';
import type { Finding, RuleMeta } from '../types.js';
import { findingOf } from './rule-finding.js';

export const invalidSuppressionMeta: RuleMeta = {
  id: 'invalid-suppression',
  severity: 'error',
  short: 'A `// ctrlrun-ignore` comment without a reason, or naming no known rule.',
  full: 'A suppression must say which rule it silences and why: `// ctrlrun-ignore <rule-id> -- <reason>` on the line before the finding. One that gives no reason or names an unknown rule suppresses nothing.',
  help: 'Write `// ctrlrun-ignore <rule-id> -- <why this is safe>` with one of the rule ids of `docs/rules/`.',
};

/** `invalid-suppression`: a comment with no rule, an unknown or unsuppressible rule, or no reason (applied in check/suppressions.ts). */
export function invalidSuppressionFinding(file: string, s: SuppressionComment, problem: { message: string; hint: string }): Finding {
  return findingOf(invalidSuppressionMeta, file, s.span, problem.message, problem.hint);
}
