import type { Diagnostic } from '../diagnostics.js';
import type { Policy, PolicyAction } from './types.js';

export interface HazardOptions {
  /**
   * Whether the tool's parameter schema (read from the code) makes the argument present in every
   * call, with its type and never null: the runtime refuses any other call before the rules, so
   * the argument cannot be left out or sent as another type.
   */
  pinned?: (action: string, arg: string) => boolean;
}

/**
 * Policy shapes that load fine but fail open (warnings of `validate`). Pure.
 *
 * - `fail-open-catch-all`: a conditional approve/deny rule followed by a catch-all `allow`. A call
 *   that omits the rule's argument (or sends it with another type: `"5000000"` for a number) makes
 *   the condition false and falls through to the allow. Not reported for an argument the tool's
 *   schema pins (`pinned`): such a call never reaches the rules.
 */
export function policyHazards(policy: Policy, options: HazardOptions = {}): Diagnostic[] {
  const out: Diagnostic[] = [];
  const pinned = options.pinned ?? (() => false);
  for (const action of Object.values(policy.actions)) {
    out.push(...failOpen(action, policy.file, pinned));
    out.push(...effectCollisions(action, policy.file));
  }
  return out;
}

/**
 * `effect-key-collision`: an effect template (rendered as CTRLRun renders it: the values pasted
 * between the literal text) with two or more arguments that may hold text. `refund:{payment_id}:{note}`
 * renders `pay_1:promo` + `x` and `pay_1` + `promo:x` as the same key, so the second call is refused
 * as a duplicate of a different one (or, worse, one key stands for two effects). An argument every
 * rule compares with integers only (`amount_lte: 10000`, `count_in: [1, 2]`) is taken to be an
 * integer, which cannot hold the separator: `refund:{payment_id}:{amount}` does not warn.
 */
function effectCollisions(action: PolicyAction, file: string): Diagnostic[] {
  const template = action.effect;
  if (!template) return [];
  const integerArgs = new Set<string>();
  const textual = new Set<string>();
  for (const rule of action.rules) {
    for (const c of rule.when) {
      const operands = Array.isArray(c.value) ? c.value : [c.value];
      const integers = operands.length > 0 && operands.every((v) => typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v)));
      (integers ? integerArgs : textual).add(c.arg);
    }
  }
  const mayHoldText = [...new Set(template.parts.flatMap((p) => (p.kind === 'arg' ? [p.arg] : [])))].filter((a) => !integerArgs.has(a) || textual.has(a));
  if (mayHoldText.length < 2) return [];
  return [
    {
      severity: 'warning',
      code: 'effect-key-collision',
      file: template.loc.file || file,
      line: template.loc.line,
      column: template.loc.column,
      path: `actions.${action.id}.effect`,
      message: `the effect key \`${template.source}\` of ${action.id} pastes ${mayHoldText.map((a) => `\`${a}\``).join(' and ')} together; values that hold the text between them render the same key for different calls (\`a:b\` + \`c\` and \`a\` + \`b:c\`)`,
      hint: 'keep one free-text argument in the key (ids and integers are safe), or key on an id the caller cannot choose',
    },
  ];
}

function failOpen(action: PolicyAction, file: string, pinned: NonNullable<HazardOptions['pinned']>): Diagnostic[] {
  const out: Diagnostic[] = [];
  const catchAll = action.rules.find((r) => r.when.length === 0);
  if (catchAll?.decision !== 'allow') return out;
  for (const rule of action.rules) {
    if (rule.index >= catchAll.index) break;
    if (rule.decision === 'allow' || rule.when.length === 0) continue;
    const args = [...new Set(rule.when.map((c) => c.arg))].filter((arg) => !pinned(action.id, arg));
    if (args.length === 0) continue;
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
