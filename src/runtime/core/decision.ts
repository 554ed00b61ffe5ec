import { checkArguments, parseArguments, type ArgumentsCheck } from '../arguments.js';
import { evaluateAuthority } from '../authority.js';
import { canonicalJson, sha256Hex } from '../canonical.js';
import { builtNoCall, decideArguments } from '../decide.js';
import { reasonText, type Who } from '../internals.js';
import type { CompiledAction, CompiledPolicy } from '../types.js';
import type { CallFacts, DecidedCall, ReceiptFieldsOf } from './types.js';

/** What the decision needs to know of the action and its control: nothing it could change. */
export interface DecisionScope {
  action: string;
  compiled: CompiledAction | undefined;
  policy: Pick<CompiledPolicy, 'authority' | 'environment'>;
  /** The control's environment, else the policy's, else `production` (what grants' `environments` match). */
  environment: string;
}

/**
 * Stages 2 and 3, the decision and the authority: the call decided as CTRLRun decides it. The
 * model's JSON arguments parsed losslessly, the resource resolved from them by name
 * (`resource_template`), the arguments checked (a float anywhere, a lone surrogate, a non-object:
 * `invalid_argument`), then the effect template, then rules; then, with a principal, the
 * policy's grants. Without the raw text (a direct invoke), the parsed input is checked as it is.
 * `clock` is read only where grants are evaluated (a policy without them never reads the time);
 * `parsed` is the arguments' parse when a stage already has it.
 */
export function decideOn(
  scope: DecisionScope,
  clock: () => number,
  raw: string | undefined,
  input: unknown,
  who?: Who | null,
  task: string | null = null,
  parsed?: ArgumentsCheck,
): DecidedCall {
  const checked = parsed ?? (raw === undefined ? checkArguments(input) : parseArguments(raw));
  // CTRLRun's order: the resource resolved, then the arguments checked (the call built), then authority, then the rules
  const decision = decideArguments(scope.compiled, checked);
  if (!checked.ok) return { decision };
  const authority = scope.policy.authority;
  if (!authority || !who || builtNoCall(decision.reason)) return { decision, args: checked.value };
  const auth = evaluateAuthority(authority, who.subject, {
    action: scope.action,
    resource: decision.resource,
    environment: scope.environment,
    task,
    args: checked.value,
    now: clock(),
  });
  if (auth.passed) return { decision, args: checked.value, grant: auth.grant };
  return { decision: { decision: 'deny', rule: null, reason: auth.reason, effectKey: decision.effectKey, resource: decision.resource }, args: checked.value };
}

/** The call's checked arguments as the receipts and the decision log record them: their canonical JSON (written once) and its hash. */
export function argsOf(decided: DecidedCall): { argsHash: string | null; argsJson: string | undefined } {
  if (decided.args === undefined) return { argsHash: null, argsJson: undefined };
  const argsJson = canonicalJson(decided.args);
  return { argsHash: sha256Hex(argsJson), argsJson };
}

/** A denial of CTRLRun's authority axis (no grant covers the call), not of the action's rules. */
export function byAuthority(reason: string): boolean {
  return reason === 'no_authority' || reason.startsWith('authority_');
}

/** A refusal a stage decided: the `ActionDenied` code, the receipt to write, the error's message. */
export interface Refusal {
  code: string;
  receipt: ReceiptFieldsOf;
  message: string;
}

/**
 * The refusal of a decided call by its principal or its decision, as the execute wrapper gives it
 * (the guardrail words it for the model: `guardrailRefusal`), or null when the call may go on.
 */
export function decisionRefusal(action: string, facts: CallFacts): Refusal | null {
  if (facts.principal === null) {
    return {
      code: 'no_principal',
      receipt: { result: 'refused', reason: 'no_principal' },
      message: `ctrlrun: ${action} refused: identity(runContext) returned no principal.`,
    };
  }
  const decision = facts.decision;
  if (decision.decision !== 'deny') return null;
  const refusedBefore = decision.detail !== undefined;
  return {
    code: decision.reason,
    receipt: { result: refusedBefore ? 'refused' : 'denied' },
    message: refusedBefore
      ? `ctrlrun: ${action} refused (${decision.reason}): ${decision.detail}; it did not run.`
      : `ctrlrun: ${action} ${byAuthority(decision.reason) ? 'refused by authority' : 'denied by policy'} (${reasonText(decision)}); it did not run.`,
  };
}

/** The guardrail's words for a refusal by principal or decision: what the model reads, the receipt's reason and the code. */
export interface GuardrailWhy {
  why: string;
  reason: string;
  code: string;
}

export function guardrailRefusal(facts: Pick<CallFacts, 'principal' | 'decision'>): GuardrailWhy | null {
  const decision = facts.decision;
  const reason = reasonText(decision);
  if (facts.principal === null) return { why: 'no principal: the run acts for nobody', reason: 'no_principal', code: 'no_principal' };
  if (decision.decision !== 'deny') return null;
  const why =
    decision.detail !== undefined
      ? `refused (${reason}): ${decision.detail}`
      : `${byAuthority(reason) ? 'refused by authority' : 'denied by policy'}: ${reason}`;
  return { why, reason, code: decision.reason };
}
