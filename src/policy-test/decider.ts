/**
 * The runtime's own decision, off line: the policy compiled into the generated module (the same
 * `renderModuleText` output `generate` writes), evaluated in memory, and each call decided by the
 * runtime's `decideCall` and `evaluateAuthority` in the order `protectedTool` applies them. `test`,
 * `diff` and `replay` all decide through here, so none of them is a second evaluator.
 */
import { renderModuleText } from '../generate/render.js';
import { toJavaScript } from '../generate/javascript.js';
import type { Policy } from '../policy/types.js';
import { checkArguments, parseArguments, type ArgumentsCheck } from '../runtime/arguments.js';
import { evaluateAuthority } from '../runtime/authority.js';
import { builtNoCall, decideArguments, decideCall } from '../runtime/decide.js';
import type { CallDecision, CompiledPolicy } from '../runtime/types.js';

/** A call to decide: the action, its arguments (the model's JSON text, or values), and who asks. */
export interface PolicyCall {
  action: string;
  /** The model's JSON text (parsed losslessly, as the runtime parses it) or the parsed arguments. */
  args: string | unknown;
  principal?: { agent: string; user: string | null } | null;
  environment?: string | null;
  task?: string | null;
  /** When the call is decided (ms since the epoch; default the decider's clock): grants expire. */
  at?: number;
}

/** A decision, and the grant that authorized it (a policy with `authority:` and a call naming its principal). */
export type DecidedCall = CallDecision & { grant?: string };

export interface Decider {
  policy: Policy;
  compiled: CompiledPolicy;
  decide: (call: PolicyCall) => DecidedCall;
}

/**
 * The generated module of `policy`, its `policy` export. Its imports (the runtime's binders, the
 * operator's control) are never called here: only the compiled decision functions are read.
 */
export function compilePolicy(policy: Policy): CompiledPolicy {
  const text = renderModuleText({
    policy,
    policyFile: 'ctrlrun.yaml',
    manifestFile: 'ctrlrun.tools.yaml',
    controlFile: 'src/ctrlrun.control.ts',
    controlSpecifier: './ctrlrun.control.js',
    tools: {},
    // no SDK import: only the compiled decision functions are read
    sdkTypes: undefined,
    inputsHash: '0'.repeat(64),
    version: '0.0.0',
  });
  const js = toJavaScript(text, 'cjs');
  const module = { exports: {} as Record<string, unknown> };
  const inert = new Proxy({}, { get: () => () => () => undefined });
  const require = (specifier: string): unknown => (specifier.startsWith('ctrlrun-gen/') ? inert : { default: {} });
  new Function('module', 'exports', 'require', js)(module, module.exports, require);
  return module.exports['policy'] as CompiledPolicy;
}

/**
 * Decides calls as `protectedTool` does: the resource resolved by name (`resource_template`), the
 * arguments checked (a float, a lone surrogate, a non-object: `invalid_argument`), then `decideCall` (templates, then rules), then, for a policy with
 * `authority:` and a call that names its principal, the grants. A call with no principal is decided
 * by the rules alone (at run time it would be refused `no_principal` before anything else).
 */
export function createDecider(policy: Policy, options: { now?: () => number } = {}): Decider {
  const compiled = compilePolicy(policy);
  const now = options.now ?? Date.now;
  // the compiled actions looked up once per policy, not twice per call on the module's object
  const actions = new Map(Object.entries(compiled.actions));
  const authority = compiled.authority;
  const decide = (call: PolicyCall): DecidedCall => {
    const checked: ArgumentsCheck = typeof call.args === 'string' ? parseArguments(call.args) : checkArguments(call.args);
    const action = actions.get(call.action);
    // refused arguments are decided by decideArguments, checked ones go to decideCall (as decideArguments would send them)
    if (!checked.ok) return decideArguments(action, checked);
    const decision = decideCall(action, checked.value);
    const who = call.principal;
    if (!authority || !who || builtNoCall(decision.reason)) return decision;
    const environment = call.environment ?? compiled.environment ?? 'production';
    const auth = evaluateAuthority(authority, who, {
      action: call.action,
      resource: decision.resource,
      environment,
      task: call.task ?? null,
      args: checked.value,
      now: call.at ?? now(),
    });
    if (auth.passed) return { ...decision, grant: auth.grant.id };
    return { decision: 'deny', rule: null, reason: auth.reason, effectKey: decision.effectKey, resource: decision.resource };
  };
  return { policy, compiled, decide };
}
