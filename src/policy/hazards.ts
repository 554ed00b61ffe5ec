import type { Diagnostic } from '../diagnostics.js';
import type { Policy, PolicyAction } from './types.js';

/**
 * Policy shapes that load fine but fail open (warnings of `validate`). Pure.
 *
 * - `fail-open-catch-all`: a conditional approve/deny rule followed by a catch-all `allow`. A call
 *   that omits the rule's argument (or sends it with another type: `"5000000"` for a number) makes
 *   the condition false and falls through to the allow.
 */
export function policyHazards(policy: Policy): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const action of Object.values(policy.actions)) {
    out.push(...failOpen(action, policy.file));
  }
  return out;
}

function failOpen(action: PolicyAction, file: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const catchAll = action.rules.find((r) => r.when.length === 0);
  if (!catchAll || catchAll.decision !== 'allow') return out;
  for (const rule of action.rules) {
    if (rule.index >= catchAll.index) break;
    if (rule.decision === 'allow' || rule.when.length === 0) continue;
    const args = [...new Set(rule.when.map((c) => c.arg))];
    out.push({
      severity: 'warning',
      code: 'fail-open-catch-all',
      file: rule.loc.file || file,
      line: rule.loc.line,
      column: rule.loc.column,
      path: `actions.${action.id}.rules[${rule.index}]`,
      message: `rule ${rule.index} of ${action.id} (${rule.decision} when ${rule.when.map((c) => c.key).join(', ')}) is followed by a catch-all allow (rule ${catchAll.index}): a call that omits ${args.map((a) => `\`${a}\``).join(' or ')}, or sends it with another type, skips the ${rule.decision} and is allowed`,
      hint: `make the catch-all \`approve\` or \`deny\` and allow the safe cases explicitly, and declare ${args.length === 1 ? 'the argument' : 'the arguments'} required in the tool's schema`,
    });
  }
  return out;
}
