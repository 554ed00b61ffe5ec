import {
  ModelBehaviorError,
  tool,
  type FunctionTool,
  type RunContext,
  type ToolInputParameters,
  type ToolOptions,
  type ToolOutputSchema,
  type UnknownContext,
} from '@openai/agents';
import { refusal, type Control } from './control.js';
import { sameIdentity } from './identity.js';
import { claimMatches, claimOutcome } from './memory-store.js';
import { compileJsonSchema } from './json-schema.js';
import { establishNotExecuted } from './run.js';
import { noteNestedFailure } from './nested.js';
import { ActionDenied, AmbiguousEffect, ApprovalMismatch, CtrlrunError, DuplicateEffect, NotExecuted } from './errors.js';
import {
  appendReceipt,
  approversOf,
  argsHashOf,
  describeError,
  distinctApprovers,
  INTERNALS,
  parseJson,
  PROTECTED_ACTION,
  principalOf,
  reasonText,
  sdkToolName,
  type ControlInternals,
} from './internals.js';
import { checkArguments, jsonDepthProblem, parseArguments, plainArguments, type ArgumentsCheck } from './arguments.js';
import { canonicalHash } from './canonical.js';
import { unchangedBySchema } from './schema-output.js';
import { chargesFor, evaluateAuthority } from './authority.js';
import { decideCall, invalidArguments } from './decide.js';
import { taskOf, whoOf, type Who } from './internals.js';
import type { BudgetCharge, CallDecision, ClaimResult, CompiledAction, CompiledGrant, CompiledPolicy } from './types.js';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * Whether this SDK's `tool()` takes an `outputSchema` (0.14 on), read off `tool` itself: on older
 * SDKs of the peer range `ToolOptions` has two type parameters and `ToolOutputSchema` does not
 * exist, so those spellings are only reached when it does. (Projects on those SDKs need
 * `skipLibCheck`, which the SDK's own declarations need there too; the branch not taken is then
 * never checked.)
 */
type SdkHasOutputSchema = 'outputSchema' extends keyof Parameters<typeof tool>[0] ? true : false;
type SdkToolOptions<TParameters extends ToolInputParameters, Context, TOutputSchema extends ToolOutputSchema | undefined> = SdkHasOutputSchema extends true
  ? ToolOptions<TParameters, Context, TOutputSchema>
  : ToolOptions<TParameters, Context>;
type SdkTool<TParameters extends ToolInputParameters, Context, Result, TOutputSchema extends ToolOutputSchema | undefined> = SdkHasOutputSchema extends true
  ? ReturnType<typeof tool<TParameters, Context, Result, TOutputSchema>>
  : ReturnType<typeof tool<TParameters, Context, Result>>;

/** The SDK's `tool()` options without `needsApproval`: the policy decides who approves what. */
export type ProtectedToolOptions<
  TParameters extends ToolInputParameters = undefined,
  Context = UnknownContext,
  TOutputSchema extends ToolOutputSchema | undefined = undefined,
> = DistributiveOmit<SdkToolOptions<TParameters, Context, TOutputSchema>, 'needsApproval'> & { needsApproval?: never };

/** `protectedTool(action, options)`: a real SDK `FunctionTool` guarded by the policy. */
export type ProtectedTool<A extends string> = <
  TParameters extends ToolInputParameters = undefined,
  Context = UnknownContext,
  Result = string,
  TOutputSchema extends ToolOutputSchema | undefined = undefined,
>(
  action: A,
  options: ProtectedToolOptions<TParameters, Context, TOutputSchema>,
) => SdkTool<TParameters, Context, Result, TOutputSchema>;

/**
 * Binds a compiled policy to a control and returns `protectedTool`. The generated module calls
 * this once; binding a policy with another hash to the same control is an error.
 */
export function bindProtectedTool<A extends string>(control: Control, policy: CompiledPolicy): ProtectedTool<A> {
  const internals = bindPolicy(control, policy, 'bindProtectedTool');
  const made = ((action: A, options: Record<string, unknown>) => makeProtectedTool(internals, policy, action, options)) as unknown;
  return made as ProtectedTool<A>;
}

/** Binds `policy` to `control` (each door's binder calls it); a second policy with another hash is an error. */
export function bindPolicy(control: Control, policy: CompiledPolicy, who: string): ControlInternals {
  const internals = control?.[INTERNALS];
  if (!internals) throw new CtrlrunError(`${who}: the first argument must be a Control made by createControl().`);
  if (!policy || typeof policy.hash !== 'string' || typeof policy.actions !== 'object') {
    throw new CtrlrunError(`${who}: the policy is missing or not a compiled policy; regenerate with \`ctrlrun-gen generate\`.`);
  }
  if (internals.policy && internals.policy.hash !== policy.hash) {
    throw new CtrlrunError(
      `${who}: this control is already bound to policy ${internals.policy.hash.slice(0, 12)}, not ${policy.hash.slice(0, 12)}. One control serves one policy: use a second control.`,
    );
  }
  internals.policy = policy;
  return internals;
}

// ---------------------------------------------------------------------------------------------

/** Errors thrown by a tool body (not by the SDK or this library), so the error function knows what ran. */
const bodyFailures = new WeakSet<object>();

export interface Authorized {
  kind: 'enforce';
  facts: CallFacts;
  approvers: string[];
  key: string | null;
  attemptId: string | null;
}

export interface Observed {
  kind: 'observe';
  facts: CallFacts;
}

export interface CallFacts {
  callId: string | null;
  argsHash: string | null;
  principal: string | null;
  decision: CallDecision;
  /** The grant that authorized the call (a policy with `authority:`). */
  grant?: CompiledGrant | undefined;
  /** The call's checked arguments (parsed once, losslessly); undefined when refused. */
  args?: unknown;
}

const UNOBSERVED_TEXT =
  "its upstream's TLS certificate is pinned (upstream.tls_cert_sha256 / tls_cert_file), and this door opens no connection ctrlrun-gen can see, so no pinned certificate was observed; only a tool of an MCP server over HTTP built with the generated module's upstreamFetch can run it";

/** Why a call may not reach its upstream (CTRLRun's `upstream_unverified` / `upstream_mismatch`). */
export interface UpstreamProblem {
  reason: 'upstream_unverified' | 'upstream_mismatch';
  text: string;
}

export function makeProtectedTool(
  internals: ControlInternals,
  policy: CompiledPolicy,
  action: string,
  options: Record<string, unknown>,
  door: { upstream?: (toolCall: { callId: string; arguments: string }) => Promise<UpstreamProblem | null> } = {},
): FunctionTool {
  if (!options || typeof options !== 'object') throw new CtrlrunError(`protectedTool('${action}'): options are required, as for tool().`);
  if ('needsApproval' in options) {
    throw new CtrlrunError(
      `protectedTool('${action}'): remove \`needsApproval\`: the policy (ctrlrun.yaml) decides which calls need a human, and the control records the answers.`,
    );
  }
  const execute = options.execute;
  if (typeof execute !== 'function') throw new CtrlrunError(`protectedTool('${action}'): \`execute\` must be a function.`);
  const userErrorFunction = options.errorFunction as UserErrorFunction | null | undefined;
  const core = createActionCore(internals, policy, action, {
    parameters: options.parameters as ArgsSchema | undefined,
    userErrorFunction,
    // a structured tool (outputSchema) cannot answer with refusal text unless the user supplies a fallback
    refusalsAsErrors: options.outputSchema !== undefined && !userErrorFunction,
    upstream: door.upstream,
  });
  const body = execute as (i: unknown, c: unknown, d: unknown) => unknown;
  const wrappedExecute = (input: unknown, runContext: RunContext<unknown>, details?: CallDetails) =>
    core.execute(input, runContext, details, () => body(input, runContext, details));
  const errorFunction = composeErrorFunction(action, userErrorFunction, options.outputSchema !== undefined);

  const userGuardrails = (options.inputGuardrails as unknown[] | undefined) ?? [];
  const created = tool({
    ...(options as object),
    execute: wrappedExecute,
    needsApproval: core.needsApproval,
    errorFunction,
    inputGuardrails: [core.guardrail, ...userGuardrails],
  } as Parameters<typeof tool>[0]) as FunctionTool;
  requireManifestAction(policy, created.name, action);
  register(internals, created, action);
  return created;
}

export type UserErrorFunction = (ctx: RunContext<unknown>, error: unknown, details?: unknown) => unknown;
/** Anything with zod's `safeParse` (the tool's parameters); a JSON schema has none and the raw JSON is used. */
export type ArgsSchema = { safeParse?: (v: unknown) => { success: boolean; data?: unknown } };
export interface CallDetails {
  toolCall?: { callId?: string; arguments?: string };
  /** The SDK's signal for this call: aborted when its `timeoutMs` gives up on the body. */
  signal?: AbortSignal;
}
export type Authorization = Authorized | Observed;
export type ActionCore = ReturnType<typeof createActionCore>;

/**
 * The door-agnostic core of one action: decide, refuse, claim an approval once, reserve the
 * effect, run the body once, write receipts. Each door's adapter (a function tool, an MCP server,
 * a local execution tool) feeds it the call's arguments and its body.
 */
export function createActionCore(
  internals: ControlInternals,
  policy: CompiledPolicy,
  action: string,
  options: {
    parameters?: ArgsSchema | undefined;
    userErrorFunction?: UserErrorFunction | null | undefined;
    refusalsAsErrors?: boolean;
    /**
     * The door's check of the upstream the call would reach (CTRLRun's `upstream:` pins), asked
     * after the policy and authority let the call through: a problem refuses it with its reason.
     */
    upstream?: ((toolCall: { callId: string; name?: string; arguments: string }) => Promise<UpstreamProblem | null>) | undefined;
  },
) {
  const compiled: CompiledAction | undefined = policy.actions[action];
  const userErrorFunction = options.userErrorFunction;
  const parameters = options.parameters;
  const enforce = policy.mode === 'enforce';
  const refuse = (why: string) => refusal(action, why);
  /** A TLS pin this door cannot observe (any door but the HTTP MCP ones): every call is `upstream_unverified`. */
  const tlsPinned = (compiled?.upstream?.tlsCertSha256?.length ?? 0) > 0 || (compiled?.upstream?.tlsCertPems?.length ?? 0) > 0;

  /**
   * JSON-schema `parameters`: the SDK only JSON-parses the arguments, so `"5000000"` would reach an
   * `amount: {type: 'integer'}` tool and slip past `amount_gt` rules. Checked before any decision.
   * (A zod schema is checked by the SDK's own parsing before the body, and by policyArgs here.)
   */
  const schemaCheck =
    parameters && typeof parameters === 'object' && typeof parameters.safeParse !== 'function'
      ? compileJsonSchema(parameters, `protectedTool('${action}')`)
      : null;

  /**
   * The arguments the body would get, from the model's raw JSON (for the guardrail, which sees
   * only the raw call, and to check the body's input is the raw call's). `problem` is set when
   * the JSON parses but does not match a JSON-schema `parameters`.
   */
  const policyArgs = (raw: string, lossless?: ArgumentsCheck): { ok: true; value: unknown } | { ok: false; problem?: string } => {
    const deep = jsonDepthProblem(raw);
    if (deep !== null) return { ok: false, problem: deep };
    // the stage's one parse: the lossless value, integers as JSON.parse gives them; the text again
    // only when the lossless parse refused it (a float, a duplicate key: refused later anyway)
    const parsed: { ok: true; value: unknown } | { ok: false } = lossless?.ok ? { ok: true, value: plainArguments(lossless.value) } : parseJson(raw);
    if (!parsed.ok) return parsed;
    if (schemaCheck) {
      const problem = schemaCheck(parsed.value);
      return problem === null ? parsed : { ok: false, problem };
    }
    if (typeof parameters?.safeParse !== 'function') return parsed;
    const checked = parameters.safeParse(parsed.value);
    if (checked.success) return unchangedBySchema(parsed.value, checked.data);
    // the SDK's strict mode sends null for optional fields and strips them before zod parses
    const sent = withoutNulls(parsed.value);
    const stripped = parameters.safeParse(sent);
    return stripped.success ? unchangedBySchema(sent, stripped.data) : { ok: false };
  };

  /**
   * The call decided as CTRLRun decides it: the model's JSON arguments parsed losslessly and checked
   * (a float anywhere, a lone surrogate, a non-object: `invalid_argument`), then templates, then rules.
   * Without the raw text (a direct invoke), the parsed input is checked as it is.
   */
  const decideOn = (raw: string | undefined, input: unknown, who?: Who | null, task: string | null = null, parsed?: ArgumentsCheck): DecidedCall => {
    const checked = parsed ?? (raw === undefined ? checkArguments(input) : parseArguments(raw));
    if (!checked.ok) return { decision: invalidArguments(checked.detail) };
    const decision = decideCall(compiled, checked.value);
    const authority = policy.authority;
    // CTRLRun's order: the call (arguments, resource) is built first, then authority, then the rules
    if (!authority || !who || decision.reason === 'invalid_argument' || decision.reason === 'unknown_action') return { decision, args: checked.value };
    const environment = internals.environment ?? policy.environment ?? 'production';
    const auth = evaluateAuthority(authority, who.subject, { action, resource: decision.resource, environment, task, args: checked.value, now: internals.clock() });
    if (auth.passed) return { decision, args: checked.value, grant: auth.grant };
    return { decision: { decision: 'deny', rule: null, reason: auth.reason, effectKey: decision.effectKey, resource: decision.resource }, args: checked.value };
  };

  /**
   * The SDK asks before the guardrail, with its own (lossy) parse of the arguments: an integer beyond
   * 2^53 arrives rounded, so it is read back through JSON text. The guardrail and the wrapper decide
   * again on the model's own text before anything runs.
   */
  const needsApproval = async (runContext: RunContext<unknown>, input: unknown): Promise<boolean> => {
    if (!enforce) return false;
    if (schemaCheck && schemaCheck(input) !== null) return false; // refused by the guardrail
    let raw: string | undefined;
    let decision = decideOn(undefined, input).decision;
    if (decision.reason === 'invalid_argument' && decision.detail !== undefined) {
      try {
        raw = JSON.stringify(input);
        decision = decideOn(raw, undefined).decision;
      } catch {
        return false; // not JSON: refused by the guardrail
      }
    }
    if (decision.decision !== 'approve') return false;
    const who = await whoOf(internals, runContext);
    if (who === null) return false; // no principal: refused by the guardrail
    if (!policy.authority) return true;
    // a call no grant covers is refused by the guardrail, never paused for a human
    return decideOn(raw, input, who, await taskOf(internals, runContext)).decision.decision === 'approve';
  };

  const guardrail = {
    type: 'tool_input' as const,
    name: 'ctrlrun.policy',
    run: async (data: { context: RunContext<unknown>; toolCall: { callId: string; arguments: string } }) => {
      try {
        return await checkCall(data);
      } catch (error) {
        throw noted(data.context, asCtrlrunError(error, `ctrlrun: ${action} did not run: the control failed (${describeError(error)}).`, { action, callId: data.toolCall.callId }));
      }
    },
  };

  const refusalsAsErrors = options.refusalsAsErrors === true;

  /**
   * The principal the guardrail found for a call it let through, for the execute wrapper of that
   * same call (same tool-call object, context and arguments; taken once): `identity` may be costly,
   * and the SDK runs the two back to back. The wrapper still re-decides; without an entry (no
   * guardrail ran, or the SDK passed another object) it asks `identity` itself.
   */
  const vetted = new WeakMap<object, { context: RunContext<unknown>; raw: string; who: Who; task: string | null }>();
  const whoFor = async (runContext: RunContext<unknown>, toolCall: { arguments?: string } | undefined): Promise<{ who: Who | null; task: string | null }> => {
    const entry = toolCall ? vetted.get(toolCall) : undefined;
    if (entry && toolCall) vetted.delete(toolCall);
    if (entry && entry.context === runContext && entry.raw === toolCall?.arguments) return entry;
    const who = await whoOf(internals, runContext);
    return { who, task: who && policy.authority ? await taskOf(internals, runContext) : null };
  };

  const checkCall = async ({ context, toolCall }: { context: RunContext<unknown>; toolCall: { callId: string; arguments: string } }) => {
    vetted.delete(toolCall); // only this check's own answer may reach the body
    if (!enforce) return allow;
    const checked = parseArguments(toolCall.arguments);
    const args = policyArgs(toolCall.arguments, checked);
    if (!args.ok && args.problem !== undefined) {
      // JSON that does not match the tool's JSON schema: the SDK would pass it on; refused here
      const facts = { callId: toolCall.callId, argsHash: argsHashOf(toolCall.arguments, undefined), principal: null, decision: INVALID_ARGUMENTS };
      await receipt(facts, { result: 'refused', reason: `invalid_arguments:${args.problem}` });
      const why = `its arguments do not match the tool's schema: ${args.problem}`;
      if (refusalsAsErrors) throw new ActionDenied('invalid_arguments', `ctrlrun: ${refuse(why)}`, { action, callId: toolCall.callId });
      return { behavior: { type: 'rejectContent' as const, message: `The call to ${action} was refused (${why}). It did not run; call it again with arguments of the right types if still needed.` } };
    }
    if (!args.ok) return allow; // invalid input: the SDK refuses it before the body
    const who = await whoOf(internals, context);
    const principal = who?.principal ?? null;
    const task = who && policy.authority ? await taskOf(internals, context) : null;
    const decided = decideOn(toolCall.arguments, undefined, who, task, checked);
    const decision = decided.decision;
    let why: string | null = null;
    let reason = reasonText(decision);
    let code: string = decision.reason;
    if (principal === null) {
      why = 'no principal: the run acts for nobody';
      reason = code = 'no_principal';
    } else if (decision.decision === 'deny') {
      why = decision.detail !== undefined ? `refused (${reason}): ${decision.detail}` : `${byAuthority(reason) ? 'refused by authority' : 'denied by policy'}: ${reason}`;
    } else if (stillRunning.has(argsHashOf(toolCall.arguments, undefined) ?? '')) {
      why = stillRunningText;
      reason = code = 'still_running';
    }
    if (why === null && options.upstream === undefined && tlsPinned) {
      why = `${UNOBSERVED_TEXT} (upstream_unverified)`;
      reason = code = 'upstream_unverified';
    } else if (why === null && options.upstream) {
      const problem = await options.upstream(toolCall);
      if (problem) {
        why = problem.text;
        reason = code = problem.reason;
      }
    }
    if (why === null) {
      if (who !== null) vetted.set(toolCall, { context, raw: toolCall.arguments, who, task });
      return allow;
    }
    const facts = { callId: toolCall.callId, argsHash: hashOf(decided), principal, decision };
    await receipt(facts, { result: decision.decision === 'deny' && principal !== null && decision.detail === undefined ? 'denied' : 'refused', reason });
    if (refusalsAsErrors) throw new ActionDenied(code, `ctrlrun: ${refuse(why)}`, { action, callId: toolCall.callId });
    return { behavior: { type: 'rejectContent' as const, message: refuse(why) } };
  };

  const receipt = (facts: CallFacts, fields: { result: string; reason?: string; approvers?: string[]; effect_key?: string | null }) =>
    appendReceipt(internals, policy, {
      action,
      call_id: facts.callId,
      args_hash: facts.argsHash,
      principal: facts.principal,
      decision: facts.decision.decision,
      reason: fields.reason ?? reasonText(facts.decision),
      approvers: fields.approvers ?? [],
      effect_key: fields.effect_key ?? null,
      result: fields.result,
    });

  /**
   * Bodies the SDK gave up on (its `timeoutMs` fired, or the run was aborted) that are still
   * running, by arguments hash: the model reads "timed out" and calls again, but the first body may
   * still commit, so a call with the same arguments is refused until it settles (`still_running`).
   * In this process only (the body runs here); across processes an `effect:` key does this.
   */
  const stillRunning = new Map<string, number>();
  const stillRunningText = 'an earlier call with the same arguments timed out and its body is still running (it may still complete); it did not run again. Wait for the earlier call to finish before calling again';

  /** The whole call: authorize, then the body once (enforce) or observed (observe). */
  const execute = async (input: unknown, runContext: RunContext<unknown>, details: CallDetails | undefined, body: () => unknown) => {
    const callId = details?.toolCall?.callId ?? null;
    let authorized: Authorized | Observed;
    try {
      authorized = await authorize(input, runContext, callId, details?.toolCall);
    } catch (error) {
      throw asCtrlrunError(error, `ctrlrun: ${action} did not run: the control failed before the body (${describeError(error)}).`, { action, callId });
    }
    if (authorized.kind === 'observe') return observe(authorized.facts, input, body);
    const signal = details?.signal;
    if (signal === undefined) return runBody(authorized, body);
    const holdKey = authorized.facts.argsHash ?? '';
    let holding = false;
    const hold = () => {
      holding = true;
      stillRunning.set(holdKey, (stillRunning.get(holdKey) ?? 0) + 1);
    };
    if (signal.aborted) hold();
    else signal.addEventListener('abort', hold, { once: true });
    try {
      return await runBody(authorized, body);
    } finally {
      signal.removeEventListener('abort', hold);
      if (holding) {
        const left = (stillRunning.get(holdKey) ?? 1) - 1;
        if (left > 0) stillRunning.set(holdKey, left);
        else stillRunning.delete(holdKey);
      }
    }
  };

  /** Everything before the body: decision, principal, approval claim, templates, effect reservation. Throws to refuse. */
  const authorize = async (input: unknown, runContext: RunContext<unknown>, callId: string | null, toolCall: { arguments?: string } | undefined): Promise<Authorized | Observed> => {
    const { who, task } = await whoFor(runContext, toolCall);
    const principal = who?.principal ?? null;
    const raw = toolCall?.arguments;
    const checked = typeof raw === 'string' ? parseArguments(raw) : checkArguments(input);
    const decided = decideOn(raw, input, who, task, checked);
    const facts: CallFacts = { callId, argsHash: hashOf(decided), principal, decision: decided.decision, grant: decided.grant, args: decided.args };
    const where = { action, callId };

    // the input decided on, hashed and run is the call's: schema-valid, and the raw arguments' own
    const deep = typeof toolCall?.arguments === 'string' ? jsonDepthProblem(toolCall.arguments) : null;
    const problem = deep ?? (schemaCheck ? schemaCheck(input) : null);
    if (problem !== null) {
      await receipt({ ...facts, decision: INVALID_ARGUMENTS }, { result: 'refused', reason: `invalid_arguments:${problem}` });
      throw new ActionDenied('invalid_arguments', `ctrlrun: ${action} refused: its arguments do not match the tool's schema (${problem}); it did not run.`, where);
    }
    if (typeof toolCall?.arguments === 'string') {
      const fromRaw = policyArgs(toolCall.arguments, checked);
      if (!fromRaw.ok || !sameArgs(fromRaw.value, input)) {
        await receipt(facts, { result: 'refused', reason: 'arguments_mismatch' });
        throw new ActionDenied(
          'arguments_mismatch',
          `ctrlrun: ${action} refused: the input to run differs from the call's arguments (details.toolCall.arguments); it did not run.`,
          where,
        );
      }
    }

    if (!enforce) return { kind: 'observe', facts };

    if (principal === null) {
      await receipt(facts, { result: 'refused', reason: 'no_principal' });
      throw new ActionDenied('no_principal', `ctrlrun: ${action} refused: identity(runContext) returned no principal.`, where);
    }
    if (facts.decision.decision === 'deny') {
      const refusedBefore = facts.decision.detail !== undefined;
      await receipt(facts, { result: refusedBefore ? 'refused' : 'denied' });
      throw new ActionDenied(
        facts.decision.reason,
        refusedBefore
          ? `ctrlrun: ${action} refused (${facts.decision.reason}): ${facts.decision.detail}; it did not run.`
          : `ctrlrun: ${action} ${byAuthority(facts.decision.reason) ? 'refused by authority' : 'denied by policy'} (${reasonText(facts.decision)}); it did not run.`,
        where,
      );
    }
    if (options.upstream === undefined && tlsPinned) {
      // CTRLRun in-process (SPEC-v0.10 §4.4): nothing observed the upstream's certificate
      await receipt(facts, { result: 'refused', reason: 'upstream_unverified' });
      throw new ActionDenied('upstream_unverified', `ctrlrun: ${action} refused (upstream_unverified): ${UNOBSERVED_TEXT}; it did not run.`, where);
    }
    if (stillRunning.has(facts.argsHash ?? '')) {
      await receipt(facts, { result: 'refused', reason: 'still_running' });
      throw new ActionDenied('still_running', `ctrlrun: ${action} refused: ${stillRunningText}.`, where);
    }
    const key = facts.decision.effectKey;
    const approving = facts.decision.decision === 'approve';
    // CTRLRun v7: a call under a budgeted grant spends it on the reservation, so it needs an effect key
    let charges: BudgetCharge[] = [];
    if (facts.grant?.budgets) {
      const made = chargesFor(facts.grant, facts.args);
      if (typeof made === 'string') {
        await receipt(facts, { result: 'refused', reason: 'invalid_argument', effect_key: key });
        throw new ActionDenied('invalid_argument', `ctrlrun: ${action} refused (invalid_argument): ${made}; it did not run.`, where);
      }
      if (key === null) {
        await receipt(facts, { result: 'refused', reason: 'budget_requires_effect' });
        throw new ActionDenied(
          'budget_requires_effect',
          `ctrlrun: ${action} refused (budget_requires_effect): grant ${facts.grant.id} has a budget, and a budget is spent on the effect's reservation, but the action resolves no effect key (add \`effect:\` to it in ctrlrun.yaml); it did not run.`,
          where,
        );
      }
      charges = made;
    }
    const resultWord = approving ? 'claimed' : 'allowed';
    if (key === null) {
      // no reservation to pair the approval with: it is claimed on its own
      const approvers = approving ? await claim(facts) : [];
      // the decision's receipt, before anything runs: a store that cannot record it stops the call
      await receipt(facts, { result: resultWord, approvers, effect_key: null });
      return { kind: 'enforce', facts, approvers, key: null, attemptId: null };
    }

    // CTRLRun §4.2 A4: the approval is checked here without being used, and used up by the
    // reservation itself, in the store's one transaction: a refused reservation (spent budget,
    // duplicate, ambiguous, attempts exhausted) leaves it approved, and the call has one decision
    // receipt, its outcome (never `allowed`/`claimed` followed by a refusal).
    const approvers = approving ? await vet(facts) : [];
    const attemptId = globalThis.crypto.randomUUID();
    const reserved = await internals.store.reserveEffect({
      key,
      action,
      attemptId,
      // No `max_attempts`: no ceiling (CTRLRun's reading of an absent key).
      maxAttempts: compiled?.maxAttempts ?? Number.MAX_SAFE_INTEGER,
      now: internals.clock(),
      leaseMs: internals.effectLeaseMs,
      ...(charges.length > 0 ? { charges } : {}),
      ...(approving && facts.callId !== null ? { claim: { callId: facts.callId, binding: bindingOf(facts) } } : {}),
    });
    switch (reserved.outcome) {
      case 'claim_refused':
        // the approval changed between the check and the reservation (another call used it): as a claim would say
        await approved(facts, reserved.claim);
        // (approved() refuses every outcome but `claimed`)
        throw new ApprovalMismatch('unknown', `ctrlrun: ${action} did not run: its approval could not be used.`, where);
      case 'budget_exhausted': {
        const c = reserved.charge;
        await receipt(facts, { result: 'refused', reason: 'budget_exhausted', approvers, effect_key: key });
        // the grant, the metric and the window, never the amount left (CTRLRun: a balance is an oracle)
        throw new ActionDenied('budget_exhausted', `ctrlrun: ${action} refused (budget_exhausted): grant ${c.grantId}'s budget on ${c.metric} over ${windowText(c.windowMs)} is spent; it did not run.`, where);
      }
      case 'duplicate':
        await receipt(facts, { result: 'duplicate', reason: 'effect_committed', approvers, effect_key: key });
        throw new DuplicateEffect(key, `ctrlrun: ${action} did not run: effect ${key} already happened (committed); it must not happen twice.`, where);
      case 'ambiguous':
        await receipt(facts, { result: 'refused', reason: `effect_${reserved.effect.state}`, approvers, effect_key: key });
        throw new AmbiguousEffect(
          key,
          ambiguousText(action, key, reserved.effect.state === 'in_flight' ? 'another attempt holds it right now' : 'an earlier attempt ended without a known outcome'),
          where,
        );
      case 'exhausted':
        await receipt(facts, { result: 'refused', reason: 'max_attempts', approvers, effect_key: key });
        throw new ActionDenied('max_attempts', `ctrlrun: ${action} did not run: effect ${key} failed ${reserved.effect.attempts} time(s), the action's max_attempts.`, where);
      case 'reserved': {
        const by = reserved.claimed ? approversOf(reserved.claimed) : approvers;
        try {
          // the decision's receipt, before anything runs: a store that cannot record it stops the call
          await receipt(facts, { result: resultWord, approvers: by, effect_key: key });
        } catch (error) {
          // nothing ran: the reservation (and any budget it charged) is released
          await internals.store.settleEffect(key, attemptId, 'failed', internals.clock()).catch(() => false);
          throw error;
        }
        return { kind: 'enforce', facts, approvers: by, key, attemptId };
      }
    }
  };

  /** What a claim of this call's approval must match: this action, these arguments, this policy, this principal. */
  const bindingOf = (facts: CallFacts) => ({ action, argsHash: facts.argsHash, policyHash: policy.hash, principal: facts.principal });

  /** Claims the recorded approval of this call and checks it authorizes exactly this call. Returns the approvers. */
  const claim = async (facts: CallFacts): Promise<string[]> => {
    if (facts.callId === null) return approved(facts, { outcome: 'unknown' });
    // bound: a call reusing this call id with other arguments (another run) must not burn the approval
    return approved(facts, await internals.store.claimApproval(facts.callId, internals.clock(), bindingOf(facts)));
  };

  /** Checks, without using it up, that the recorded approval of this call authorizes exactly this call (the reservation uses it). */
  const vet = async (facts: CallFacts): Promise<string[]> => {
    if (facts.callId === null) return approved(facts, { outcome: 'unknown' });
    const request = await internals.store.getRequest(facts.callId);
    return approved(facts, claimOutcome(request ?? undefined, bindingOf(facts)));
  };

  /** The approvers of an approval a claim found usable (`claimed`), or the refusal (a receipt, then `ApprovalMismatch`). */
  const approved = async (facts: CallFacts, claimed: ClaimResult): Promise<string[]> => {
    const where = { action, callId: facts.callId };
    const fail = async (reason: ApprovalMismatch['reason'], text: string, approvers: string[] = []): Promise<never> => {
      await receipt(facts, { result: 'refused', reason: `approval_${reason}`, approvers });
      throw new ApprovalMismatch(reason, `ctrlrun: ${action} did not run: ${text}`, where);
    };
    if (facts.callId === null) return fail('unknown', 'the call has no call id, so no recorded approval can match it.');
    const binding = bindingOf(facts);
    if (claimed.outcome === 'unknown') return fail('unknown', 'no approval for this call is recorded in the store (an approval held only by the SDK state authorizes nothing).');
    if (claimed.outcome === 'not_approved') {
      return fail('unknown', `the recorded request is ${claimed.request.state}, not approved (an approval held only by the SDK state authorizes nothing).`);
    }
    const request = claimed.request;
    const approvers = approversOf(request);
    if (claimed.outcome === 'consumed') return fail('consumed', 'its approval was already used; an approval runs one call once.', approvers);
    if (claimed.outcome === 'mismatch') {
      return fail('mismatch', 'the approval was given for a different call (action, arguments, policy or principal differ); it stays for the call it was given for.', approvers);
    }
    // the store's own binding rule, asked again in case a store ignores the binding it was given
    if (!claimMatches(request, binding)) {
      return fail('mismatch', 'the approval was given for a different call (action, arguments, policy or principal differ).', approvers);
    }
    if (request.decidedAt === undefined || internals.clock() > request.decidedAt + internals.approvalTtlMs) {
      return fail('expired', `the approval expired (valid ${Math.round(internals.approvalTtlMs / 1000)} s after it was given).`, approvers);
    }
    if (approvers.some((a) => sameIdentity(a, request.principal))) return fail('approver_is_requester', 'the requester cannot approve their own call.', approvers);
    const required = Math.max(compiled?.approvalsRequired ?? 1, request.approvalsRequired);
    if (distinctApprovers(request).size < required) return fail('mismatch', `${required} distinct approvers are required, ${approvers.length} approved.`, approvers);
    return approvers;
  };

  const runBody = async (auth: Authorized, body: () => unknown): Promise<unknown> => {
    let output: unknown;
    try {
      output = await body();
    } catch (error) {
      return finish(auth, { ok: false, error });
    }
    if (output instanceof ReportedOutcome) return finishReported(auth, output);
    return finish(auth, { ok: true, output });
  };

  /** A body that answered but says it did not succeed (an MCP result marked isError): recorded as it says, its output returned. */
  const finishReported = async (auth: Authorized, reported: ReportedOutcome): Promise<unknown> => {
    const { facts, approvers, key, attemptId } = auth;
    const state = reported.outcome === 'not_executed' ? 'failed' : 'ambiguous';
    if (key && attemptId) await afterBody(facts, () => internals.store.settleEffect(key, attemptId, state, internals.clock()));
    const result = reported.outcome === 'not_executed' ? 'not_executed' : key ? 'ambiguous' : 'failed';
    await afterBody(facts, () => receipt(facts, { result, reason: reported.reason, approvers, effect_key: key }));
    return reported.output;
  };

  /**
   * Settles an authorized call after its body: the effect and the outcome's receipt. A failure is
   * rethrown (as `AmbiguousEffect` for an effect without the user's errorFunction); success returns
   * the output. Adapters whose body the SDK runs call it themselves.
   */
  const finish = async (auth: Authorized, outcome: { ok: true; output: unknown } | { ok: false; error: unknown }): Promise<unknown> => {
    const { facts, approvers, key, attemptId } = auth;
    const settle = async (state: 'committed' | 'failed' | 'ambiguous') => {
      if (key && attemptId) await internals.store.settleEffect(key, attemptId, state, internals.clock());
    };
    if (!outcome.ok) {
      const error = outcome.error;
      if (error instanceof NotExecuted) {
        await afterBody(facts, () => settle('failed'));
        await afterBody(facts, () => receipt(facts, { result: 'not_executed', reason: error.message, approvers, effect_key: key }));
        throw establishNotExecuted(error);
      }
      await afterBody(facts, () => settle('ambiguous'));
      await afterBody(facts, () => receipt(facts, { result: key ? 'ambiguous' : 'failed', reason: describeError(error), approvers, effect_key: key }));
      if (error instanceof CtrlrunError) throw error;
      if (key && !userErrorFunction) {
        throw new AmbiguousEffect(key, ambiguousText(action, key, `the tool body threw: ${describeError(error)}`), { action, callId: facts.callId, cause: error });
      }
      throw markBodyFailure(error);
    }
    await afterBody(facts, () => settle('committed'));
    await afterBody(facts, () => receipt(facts, { result: 'executed', approvers, effect_key: key }));
    return outcome.output;
  };

  /** A store failure after the body ran: the caller must know the outcome was not recorded. */
  const afterBody = async (facts: CallFacts, write: () => Promise<unknown>) => {
    try {
      await write();
    } catch (error) {
      throw new CtrlrunError(
        `ctrlrun: ${action} ran, but recording its outcome failed (${describeError(error)}); check the store before retrying anything.`,
        { action, callId: facts.callId, cause: error },
      );
    }
  };

  /** Observe mode: nothing is blocked, paused or asked; the receipt says what enforce would have done. */
  const observe = async (facts: CallFacts, _input: unknown, body: () => unknown) => {
    const key = facts.decision.effectKey;
    const reason = facts.principal === null ? 'no_principal' : reasonText(facts.decision);
    let output: unknown;
    try {
      output = await body();
    } catch (error) {
      await afterBody(facts, () => receipt(facts, { result: error instanceof NotExecuted ? 'not_executed' : 'failed', reason, effect_key: key }));
      throw error instanceof CtrlrunError ? error : markBodyFailure(error);
    }
    if (output instanceof ReportedOutcome) {
      await afterBody(facts, () => receipt(facts, { result: output.outcome === 'not_executed' ? 'not_executed' : 'failed', reason, effect_key: key }));
      return output.output;
    }
    await afterBody(facts, () => receipt(facts, { result: 'executed', reason, effect_key: key }));
    return output;
  };

  return { action, compiled, enforce, policyArgs, needsApproval, guardrail, checkCall, authorize, runBody, finish, observe, execute, receipt, refuse };
}

/**
 * What a body returns when it answered without succeeding and must not throw (the answer is the
 * model's to read): `not_executed` (it did not act: the effect is `failed`) or `ambiguous`
 * (whether it acted is unknown). The core records it and hands `output` to the SDK.
 */
export class ReportedOutcome {
  constructor(
    readonly outcome: 'not_executed' | 'ambiguous',
    readonly reason: string,
    readonly output: unknown,
  ) {}
}

const allow = { behavior: { type: 'allow' as const } };

interface DecidedCall {
  decision: CallDecision;
  /** The checked arguments (undefined when refused). */
  args?: unknown;
  grant?: CompiledGrant;
}

/** Canonical hash of the call's checked arguments (parsed once by `decideOn`), or null when refused. */
function hashOf(decided: DecidedCall): string | null {
  return decided.args === undefined ? null : canonicalHash(decided.args);
}

/** A denial of CTRLRun's authority axis (no grant covers the call), not of the action's rules. */
function byAuthority(reason: string): boolean {
  return reason === 'no_authority' || reason.startsWith('authority_');
}

function windowText(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s % 86_400 === 0) return `${s / 86_400} day(s)`;
  if (s % 3_600 === 0) return `${s / 3_600} hour(s)`;
  if (s % 60 === 0) return `${s / 60} minute(s)`;
  return `${s} second(s)`;
}

/** The decision recorded on a call refused before the policy was asked (its arguments do not fit the schema). */
const INVALID_ARGUMENTS: CallDecision = { decision: 'deny', rule: null, reason: 'invalid_argument', effectKey: null, resource: null };

/** The value with every null object member removed (what the SDK's strict mode does before zod parses). */
function withoutNulls(value: unknown, depth = 0): unknown {
  if (depth > 200 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => withoutNulls(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = withoutNulls(v, depth + 1);
  return out;
}

/** Deep equality of two parsed argument values (plain data, dates; anything else by its JSON). */
function sameArgs(a: unknown, b: unknown, depth = 0): boolean {
  if (Object.is(a, b)) return true;
  if (depth > 200 || typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameArgs(x, b[i], depth + 1));
  }
  const plain = (o: object) => [Object.prototype, null].includes(Object.getPrototypeOf(o));
  if (!plain(a) || !plain(b)) return JSON.stringify(a) === JSON.stringify(b);
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => sameArgs((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], depth + 1));
}

/**
 * This library's errors always reach the caller. With the user's own errorFunction, their other
 * errors still go to it. Without one: a failure of the tool body propagates too (never "please
 * try again": whether it took effect is unknown); the SDK's invalid-arguments error (raised
 * before the body) becomes model text saying nothing ran; anything else propagates.
 */
function composeErrorFunction(
  action: string,
  user: ((ctx: RunContext<unknown>, error: unknown, details?: unknown) => unknown) | null | undefined,
  hasOutputSchema: boolean,
) {
  if (user === null) return null;
  if (user === undefined && hasOutputSchema) return null; // the SDK's own default for structured tools
  return (ctx: RunContext<unknown>, error: unknown, details?: unknown) => {
    if (error instanceof CtrlrunError) throw noted(ctx, error);
    if (user) return user(ctx, error, details);
    if (!(error instanceof ModelBehaviorError) || bodyFailures.has(error)) throw noted(ctx, error);
    return `The call to ${action} did not run: its arguments are invalid for the tool's schema (${describeError(error)}). Nothing happened; correct the arguments if you call it again.`;
  };
}

/** An error about to propagate out of a tool: a protected agent tool running this run takes it back (nested.ts). */
function noted(ctx: unknown, error: unknown): unknown {
  noteNestedFailure(ctx, error);
  return error;
}

function asCtrlrunError(error: unknown, message: string, details: { action: string; callId: string | null }): CtrlrunError {
  return error instanceof CtrlrunError ? error : new CtrlrunError(message, { ...details, cause: error });
}

function markBodyFailure(error: unknown): unknown {
  const wrapped = error !== null && typeof error === 'object' ? error : new Error(String(error));
  bodyFailures.add(wrapped);
  return wrapped;
}

/**
 * The manifest binds a tool name to one action: a tool whose (SDK-sanitized) name the manifest
 * maps to another action is refused at creation, so the policy of the wrong action (a read's
 * `allow` for a refund) can never decide its calls. A name the manifest does not map is not
 * bound here (`check` reports it as unmapped).
 */
function requireManifestAction(policy: CompiledPolicy, sdkName: string, action: string): void {
  for (const [written, mapped] of Object.entries(policy.tools ?? {})) {
    if (mapped === action || sdkToolName(written) !== sdkName) continue;
    throw new CtrlrunError(
      `protectedTool('${action}'): the manifest (ctrlrun.tools.yaml) maps the tool name "${written}" to action ${mapped}, not ${action}; ` +
        `the policy of ${action} must not decide its calls. Use protectedTool('${mapped}', …), or change the tool's name or its mapping and run \`ctrlrun-gen generate\`.`,
      { action },
    );
  }
}

function register(internals: ControlInternals, created: FunctionTool, action: string): void {
  const name = sdkToolName(created.name);
  const known = internals.namedActions.get(name);
  if (known !== undefined && known !== action) {
    throw new CtrlrunError(`protectedTool('${action}'): the tool name "${created.name}" is already protected as action ${known}; one tool name maps to one action.`);
  }
  internals.namedActions.set(name, action);
  internals.toolActions.set(created, action);
  Object.defineProperty(created, PROTECTED_ACTION, { value: action, enumerable: false });
}

function ambiguousText(action: string, key: string, why: string): string {
  return `ctrlrun: ${action} did not run: whether effect ${key} happened is unknown (${why}). An operator must check and resolve it: ctrlrun-gen effects resolve ${key} --committed|--failed.`;
}
