import type { SuppressionComment } from '../scan/types.js';
import { RULE_IDS } from './meta.js';
import { nearest } from '../policy/suggest.js';
import { invalidSuppressionFinding } from './rules/invalid-suppression.js';
import { unusedSuppressionFinding } from './rules/unused-suppression.js';
import type { Finding } from './types.js';

/** Findings about the lint's own input, which no comment can silence. */
const UNSUPPRESSIBLE = new Set(['parse-error', 'invalid-suppression', 'unused-suppression', 'policy-invalid', 'stale-generated', 'control-missing']);

export interface SuppressionResult {
  /** The findings no valid suppression silenced. */
  kept: Finding[];
  /** `invalid-suppression` and `unused-suppression` findings. */
  own: Finding[];
}

/**
 * Applies one file's `// ctrlrun-ignore <rule-id> -- <reason>` comments to that file's findings.
 * A comment applies to the next line that is not itself a suppression comment (so several can be
 * stacked above one line), and silences one finding of its rule on that line: the first by column
 * (a second tool on the same line needs a comment of its own). A comment
 * with no reason or an unknown rule id silences nothing and is `invalid-suppression`; a valid one
 * that silences nothing is `unused-suppression`.
 */
export function applySuppressions(file: string, findings: Finding[], suppressions: SuppressionComment[]): SuppressionResult {
  if (suppressions.length === 0) return { kept: findings, own: [] };
  const commentLines = new Set(suppressions.map((s) => s.span.line));
  const targetOf = (s: SuppressionComment): number => {
    let line = s.span.line + 1;
    while (commentLines.has(line)) line++;
    return line;
  };
  const own: Finding[] = [];
  const valid: Array<{ s: SuppressionComment; target: number; used: boolean }> = [];
  for (const s of suppressions) {
    const problem = invalidity(s);
    if (problem) own.push(invalidSuppressionFinding(file, s, problem));
    else valid.push({ s, target: targetOf(s), used: false });
  }
  // One comment silences one finding: the first of its rule on its line (by column). A second tool
  // on the same line is another finding and needs its own comment (stacked above the line).
  const silenced = new Set<Finding>();
  const byPosition = [...findings].sort((a, b) => a.line - b.line || a.column - b.column);
  for (const f of byPosition) {
    if (UNSUPPRESSIBLE.has(f.ruleId)) continue;
    const v = valid.find((c) => !c.used && c.s.ruleId === f.ruleId && c.target === f.line);
    if (v === undefined) continue;
    v.used = true;
    silenced.add(f);
  }
  const kept = findings.filter((f) => !silenced.has(f));
  for (const v of valid) {
    if (v.used) continue;
    own.push(unusedSuppressionFinding(file, v.s, v.target));
  }
  return { kept, own };
}

function invalidity(s: SuppressionComment): { message: string; hint: string } | undefined {
  const ruleId = s.ruleId.trim();
  if (ruleId === '') {
    return { message: '`ctrlrun-ignore` names no rule, so it suppresses nothing.', hint: 'Write `// ctrlrun-ignore <rule-id> -- <reason>`.' };
  }
  if (!RULE_IDS.includes(ruleId) || UNSUPPRESSIBLE.has(ruleId)) {
    const near = nearest(
      ruleId,
      RULE_IDS.filter((id) => !UNSUPPRESSIBLE.has(id)),
    );
    return {
      message: UNSUPPRESSIBLE.has(ruleId)
        ? `\`ctrlrun-ignore ${ruleId}\`: ${ruleId} cannot be suppressed, so this suppresses nothing.`
        : `\`ctrlrun-ignore ${ruleId}\`: there is no rule '${ruleId}', so this suppresses nothing.`,
      hint: near ? `Did you mean '${near}'? The rule ids are listed in docs/rules/.` : 'The rule ids are listed in docs/rules/.',
    };
  }
  if (!s.reason || s.reason.trim() === '') {
    return {
      message: `\`ctrlrun-ignore ${ruleId}\` gives no reason, so it suppresses nothing.`,
      hint: `Say why it is safe: \`// ctrlrun-ignore ${ruleId} -- <reason>\`.`,
    };
  }
  return undefined;
}
