import type { FileScan } from '../../scan/types.js';
import type { Finding, RuleMeta } from '../types.js';
import { findingOf } from './rule-finding.js';

export const invokeReplacedMeta: RuleMeta = {
  id: 'invoke-replaced',
  severity: 'error',
  short: "A tool's `invoke` is replaced (`{ ...tool, invoke }`, `Object.assign(tool, { invoke })`, `tool.invoke = ...`).",
  full: 'A protected tool decides, asks for approval and writes its receipt inside its `invoke`. A copy with another `invoke`, or the same object with `invoke` reassigned, runs the body with none of that: the policy is skipped without a word.',
  help: "Keep the protected tool as the generated module builds it; put extra behaviour in the tool's `execute`, or in a new action of ctrlrun.yaml.",
};

/** `invoke-replaced`: a tool's `invoke` swapped out. */
export function invokeReplacedRule(scan: FileScan): Finding[] {
  return (scan.invokeReplacements ?? []).map((r) => {
    const what = r.target ? `\`${r.target}\`` : 'a tool';
    const how =
      r.form === 'spread'
        ? `a copy of ${what} with another \`invoke\``
        : r.form === 'object-assign'
          ? `Object.assign() gives ${what} another \`invoke\``
          : `${what}'s \`invoke\` is reassigned`;
    return findingOf(
      invokeReplacedMeta,
      scan.file,
      r.span,
      `${how.charAt(0).toUpperCase()}${how.slice(1)}: a protected tool decides and records each call in its invoke, so this runs the body with no policy.`,
      'Keep the tool as built; put extra behaviour in its `execute`, or in a new action of ctrlrun.yaml.',
    );
  });
}
