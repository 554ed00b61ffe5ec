import type { OptionProperty } from '../scan/types.js';
import type { Policy, PolicyAction, Rule, SourceLocation } from '../policy/types.js';

export type NeedsApprovalVerdict =
  | { remove: true; why: 'tool-false' | 'policy-strict' }
  | { remove: false; reason: string; related: SourceLocation & { message: string } };

/** The first rule a call can reach that allows it without a human (rules after a catch-all never match). */
export function reachableAllow(action: PolicyAction): Rule | undefined {
  for (const rule of action.rules) {
    if (rule.decision === 'allow') return rule;
    if (rule.when.length === 0) return undefined;
  }
  return undefined;
}

/**
 * Whether a tool's hand-written `needsApproval` may be dropped when the tool is rewritten: only when
 * the policy is at least as strict for every input (enforce mode, no reachable `allow`: every call
 * is approved by a human or denied), or the tool's own gate is a literal `false`. Never weakens a gate.
 */
export function needsApprovalVerdict(prop: OptionProperty, policy: Policy, action: PolicyAction): NeedsApprovalVerdict {
  if (prop.valueKind === 'false') return { remove: true, why: 'tool-false' };
  if (policy.mode === 'observe') {
    return {
      remove: false,
      reason: `the policy is in observe mode: ${action.id} would run without a human, where needsApproval pauses it`,
      related: { file: policy.file, line: 1, column: 1, message: 'mode: observe blocks, pauses and asks nothing' },
    };
  }
  const allow = reachableAllow(action);
  if (allow) {
    return {
      remove: false,
      reason: `the policy allows some ${action.id} calls without approval, where the tool's needsApproval may pause them`,
      related: { ...allow.loc, message: `rules[${allow.index}] of ${action.id} allows without a human` },
    };
  }
  return { remove: true, why: 'policy-strict' };
}
