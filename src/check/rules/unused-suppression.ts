import type { SuppressionComment } from '../../scan/types.js';
import type { Finding, RuleMeta } from '../types.js';
import { findingOf } from './rule-finding.js';

export const unusedSuppressionMeta: RuleMeta = {
  id: 'unused-suppression',
  severity: 'warning',
  short: 'A `// ctrlrun-ignore` comment that suppresses nothing.',
  full: 'The finding the comment was written for is gone (or was never on the next line): the stale comment would silently hide a future finding there.',
  help: 'Delete the comment.',
};

/** `unused-suppression`: a valid comment that silenced no finding on its target line (applied in check/suppressions.ts). */
export function unusedSuppressionFinding(file: string, s: SuppressionComment, target: number): Finding {
  return findingOf(
    unusedSuppressionMeta,
    file,
    s.span,
    `\`ctrlrun-ignore ${s.ruleId}\` suppresses nothing: there is no ${s.ruleId} finding on line ${target}.`,
    'Delete the comment; a stale suppression would hide a future finding on that line.',
  );
}
