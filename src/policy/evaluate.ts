// STUB: the policy helper replaces the bodies; the signatures are the contract others code against.
import type { DecisionResult } from '../runtime/types.js';
import type { Operator, Policy, Scalar, SourceLocation } from './types.js';

export interface ConditionTrace {
  ruleIndex: number;
  key: string;
  arg: string;
  op: Operator;
  expected: Scalar | Scalar[];
  /** The argument's value (undefined when missing). */
  actual: unknown;
  held: boolean;
}

export interface Explanation extends DecisionResult {
  action: string;
  /** Every `when` entry evaluated, rule by rule, up to and including the matching rule. */
  conditions: ConditionTrace[];
  /** Source location of the matching rule, when one matched. */
  ruleLoc?: SourceLocation;
}

/**
 * The reference semantics of SPEC §2 (first match wins; no match: deny; unknown action:
 * `unknown_action`). The generated decision functions must agree with it on every input.
 */
export function evaluate(policy: Policy, action: string, args: unknown): Explanation {
  void policy;
  void action;
  void args;
  throw new Error('not implemented yet');
}
