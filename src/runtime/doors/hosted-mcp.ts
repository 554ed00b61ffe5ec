import { hostedMcpTool, type Agent, type HostedMCPTool, type RunState } from '@openai/agents';
import type { Control } from '../control.js';
import { refusal } from '../core/messages.js';
import { CtrlrunError } from '../errors.js';
import { HOSTED_ACTION, hostedCallRequestId, hostedRequestOf, hostedResponseOf, type HostedRequest } from './hosted-item.js';
import { haltedError, haltedText, runIdOf } from '../core/halt.js';
import { haltOf } from '../halts.js';
import { decideCall as decide } from '../decide.js';
import {
  appendReceipt,
  argsHashOf,
  canonicalArgs,
  describeError,
  principalOf,
  reasonText,
  taskOf,
  whoOf,
  type ControlInternals,
  type ReceiptFields,
} from '../internals.js';
import { logReceipt } from '../core/decision-entry.js';
import { bindPolicy } from '../core/bind-policy.js';
import type { ApprovalGrant, CallDecision, CompiledPolicy } from '../types.js';
import { approvalGrantCovering } from '../approval-grants.js';

/**
 * Hosted MCP (`hostedMcpTool`): the remote server is called by OpenAI, not by this process. The
 * only gate a client has is the approval request the model emits before the call. So
 * `protectHostedMcp` forces `requireApproval: 'always'` (no inline `onApproval`, which cannot
 * wait for a person); `run()` answers each request as the policy says (allow, deny), returns
 * only what needs a person, claims each recorded yes once when a run resumes, and rewrites any
 * `approve: true` the store did not record into a refusal before the model sees it.
 */
type HostedOptions = Parameters<typeof hostedMcpTool>[0];
/** `hostedMcpTool`'s options without `requireApproval` and `onApproval`: the policy decides. */
export type ProtectHostedMcpOptions = DistributiveOmit<HostedOptions, 'requireApproval' | 'onApproval'> & { requireApproval?: 'always'; onApproval?: never };
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export type ProtectHostedMcp = (options: ProtectHostedMcpOptions) => HostedMCPTool;

interface HostedGuard {
  internals: ControlInternals;
  policy: CompiledPolicy;
  action: string;
}

const GUARD: unique symbol = Symbol('ctrlrun.hostedMcp.guard');
/** The approver recorded when the policy itself answers (allow or deny); never a person. */
export const POLICY_APPROVER = 'ctrlrun:policy';

export function bindHostedMcp(control: Control, policy: CompiledPolicy): ProtectHostedMcp {
  const internals = bindPolicy(control, policy, 'bindHostedMcp');
  return (options) => {
    const label = (options as { serverLabel?: unknown })?.serverLabel;
    if (typeof label !== 'string' || label === '') throw new CtrlrunError('protectHostedMcp: `serverLabel` is required, as for hostedMcpTool().');
    if ('onApproval' in options && options.onApproval !== undefined) {
      throw new CtrlrunError(
        `protectHostedMcp('${label}'): remove \`onApproval\`: it answers inline and cannot wait for a person; the policy answers, and the control records a person's answer.`,
      );
    }
    const requireApproval = (options as { requireApproval?: unknown }).requireApproval;
    if (requireApproval !== undefined && requireApproval !== 'always') {
      throw new CtrlrunError(
        `protectHostedMcp('${label}'): \`requireApproval\` is always 'always' here: every call is decided by the policy before OpenAI runs it.`,
      );
    }
    const action = policy.hostedMcp?.[label];
    if (action === undefined) {
      throw new CtrlrunError(
        `protectHostedMcp('${label}'): the manifest maps no action to this server; add \`- hosted_mcp: { server_label: ${label} }\` with its \`action:\` to ctrlrun.tools.yaml and regenerate.`,
      );
    }
    const made = hostedMcpTool({ ...(options as object), requireApproval: 'always' } as HostedOptions);
    Object.defineProperty(made, HOSTED_ACTION, { value: action, enumerable: false });
    Object.defineProperty(made, GUARD, { value: { internals, policy, action } satisfies HostedGuard, enumerable: false });
    return made;
  };
}

// --- what run() does ---------------------------------------------------------------------------

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyAgent = Agent<any, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyRunState = RunState<any, any>;

/** The hosted MCP guards reachable from an agent (its tools, its handoffs' tools), by server label. */
export function hostedGuards(agent: AnyAgent): Map<string, HostedGuard> {
  const found = new Map<string, HostedGuard>();
  const seen = new Set<unknown>();
  const visit = (a: unknown) => {
    if (!a || typeof a !== 'object' || seen.has(a)) return;
    seen.add(a);
    const tools = (a as { tools?: unknown }).tools;
    if (Array.isArray(tools)) {
      for (const t of tools) {
        const guard = (t as { [GUARD]?: HostedGuard } | null)?.[GUARD];
        const label = (t as { providerData?: { server_label?: unknown } } | null)?.providerData?.server_label;
        if (guard && typeof label === 'string') found.set(label, guard);
      }
    }
    const handoffs = (a as { handoffs?: unknown }).handoffs;
    if (Array.isArray(handoffs)) for (const h of handoffs) visit((h as { agent?: unknown })?.agent ?? h);
  };
  visit(agent);
  return found;
}

interface Pending {
  request: HostedRequest;
  guard: HostedGuard;
  item: Parameters<AnyRunState['approve']>[0];
}

function pendingHosted(state: AnyRunState, guards: Map<string, HostedGuard>): Pending[] {
  const out: Pending[] = [];
  for (const item of state.getInterruptions()) {
    const request = hostedRequestOf(item);
    const guard = request ? guards.get(request.serverLabel) : undefined;
    if (request && guard) out.push({ request, guard, item });
  }
  return out;
}

/**
 * Answers the state's hosted MCP requests the policy decides alone: allow (recorded as approved
 * by the policy) and deny (recorded and rejected). An `approve` request is recorded pending and
 * left for a person. Returns whether every interruption of the state is now answered.
 */
export async function answerByPolicy(state: AnyRunState, guards: Map<string, HostedGuard>): Promise<boolean> {
  const pending = pendingHosted(state, guards);
  if (pending.length === 0) return false;
  let waiting = state.getInterruptions().length - pending.length; // not ours: a person answers them
  for (const { request, guard, item } of pending) {
    const { internals, policy, action } = guard;
    const args = canonicalArgs(request.arguments);
    const existing = await internals.store.getRequest(request.id);
    if (existing && existing.state !== 'pending') continue; // answered before (by the policy or a person)
    const decision = args
      ? decide(policy.actions[action], args.value)
      : { decision: 'deny' as const, rule: null, reason: 'no_matching_rule' as const, effectKey: null, resource: null };
    const who = await whoOf(internals, state._context);
    const principal = who?.principal ?? null;
    const base = { action, call_id: request.id, args_hash: args?.hash ?? null, principal, decision: decision.decision, reason: reasonText(decision) };
    // the policy's answer is the call's decision: its receipt and its decision log entry (one a call)
    const facts = {
      callId: request.id,
      argsHash: args?.hash ?? null,
      principal,
      decision,
      args: args?.value,
      subject: who?.subject ?? null,
      task: who && policy.authority ? await taskOf(internals, state._context) : null,
    };
    const decided = async (fields: ReceiptFields) => logReceipt(internals, policy, action, facts, await appendReceipt(internals, policy, fields));
    if (principal === null || decision.decision === 'deny' || !args) {
      const why =
        principal === null ? 'no principal: the run acts for nobody' : !args ? 'its arguments are not valid JSON' : `denied by policy: ${reasonText(decision)}`;
      if (principal !== null && args && !existing) {
        // recorded as answered by the policy, so control.request/resolve never offer it to a person
        await internals.store.putRequest(newRequest(request, action, args, policy, principal, 1, internals.clock()));
        await internals.store.addAnswer(request.id, { approver: POLICY_APPROVER, decision: 'reject', reason: why, at: internals.clock() });
      }
      await decided({ ...base, reason: principal === null ? 'no_principal' : base.reason, result: principal === null ? 'refused' : 'denied' });
      state.reject(item, { message: refusal(action, why) });
      continue;
    }
    if (policy.mode === 'observe') {
      await decided({ ...base, result: 'observed' });
      state.approve(item);
      continue;
    }
    const pin = policy.actions[action]?.upstream;
    if ((pin?.tlsCertSha256?.length ?? 0) > 0 || (pin?.tlsCertPems?.length ?? 0) > 0) {
      // OpenAI opens the connection to a hosted MCP server: no certificate is ever observed here
      await decided({ ...base, reason: 'upstream_unverified', result: 'refused' });
      state.reject(item, {
        message: refusal(
          action,
          "its upstream's TLS certificate is pinned, and OpenAI opens the connection to a hosted MCP server, so no pinned certificate was observed (upstream_unverified)",
        ),
      });
      continue;
    }
    // an operator's halt (read now: this path reads the store anyway): refused, or the run ended
    const halt = haltOf((await internals.halts.refresh()).halts, { action, principal, run: () => runIdOf(internals, state._context) });
    if (halt) {
      await decided({ ...base, reason: 'halted', result: 'refused' });
      if (halt.hard) throw haltedError(action, request.id, halt);
      state.reject(item, { message: haltedText(action, halt) });
      continue;
    }
    const stored =
      existing ??
      (await internals.store.putRequest(
        newRequest(
          request,
          action,
          args,
          policy,
          principal,
          decision.decision === 'allow' ? 1 : (policy.actions[action]?.approvalsRequired ?? 1),
          internals.clock(),
        ),
      ));
    if (!existing) await decided({ ...base, result: 'requested' });
    if (decision.decision === 'approve') {
      // a request of its own waits for its own answer; a new one may be answered by an approval grant
      const grant = existing ? undefined : await hostedGrant(guard, principal, decision, args.value);
      if (grant === undefined || !(await answeredByGrant(guard, stored.callId, grant, base))) waiting++;
      else state.approve(item);
      continue;
    }
    const answered = await internals.store.addAnswer(stored.callId, {
      approver: POLICY_APPROVER,
      decision: 'approve',
      reason: 'allowed by policy',
      at: internals.clock(),
    });
    if (answered.outcome !== 'recorded' || answered.request.state !== 'approved') {
      waiting++;
      continue;
    }
    await appendReceipt(internals, policy, { ...base, approvers: [POLICY_APPROVER], result: 'approved' });
    state.approve(item);
  }
  return waiting === 0;
}

/** The approval grant covering a hosted call the policy sends to a person (evaluated as the core does: approval-grants.ts), or undefined. */
async function hostedGrant(guard: HostedGuard, principal: string, decision: CallDecision, args: unknown): Promise<ApprovalGrant | undefined> {
  const { internals, policy, action } = guard;
  if (typeof internals.store.listGrants !== 'function') return undefined;
  const now = internals.clock();
  const grants = await internals.store.listGrants({ principal, action, activeAt: now });
  if (grants.length === 0) return undefined;
  const environment = internals.environment ?? policy.environment ?? 'production';
  return approvalGrantCovering(grants, { action, policyHash: policy.hash, principal, decision, args, now, environment });
}

/** The grant's approver's yes, recorded for the call, its receipt naming the grant; false when the store did not approve it. */
async function answeredByGrant(guard: HostedGuard, callId: string, grant: ApprovalGrant, base: Omit<ReceiptFields, 'result'>): Promise<boolean> {
  const { internals, policy } = guard;
  const answered = await internals.store.addAnswer(callId, {
    approver: grant.grantedBy,
    decision: 'approve',
    reason: `approval grant ${grant.id}`,
    at: internals.clock(),
  });
  if (answered.outcome !== 'recorded' || answered.request.state !== 'approved') return false;
  await appendReceipt(internals, policy, { ...base, approvers: [grant.grantedBy], result: 'approved', approval_grant: grant.id });
  return true;
}

function newRequest(
  request: HostedRequest,
  action: string,
  args: { hash: string; canonical: string },
  policy: CompiledPolicy,
  principal: string,
  approvalsRequired: number,
  now: number,
) {
  return {
    callId: request.id,
    action,
    toolName: `${request.serverLabel}/${request.toolName}`,
    argsHash: args.hash,
    args: args.canonical,
    policyHash: policy.hash,
    principal,
    approvalsRequired,
    createdAt: now,
    // the provider runs the call itself once it reads the answer: no edits, no response in its place
    door: { kind: 'hosted_mcp' as const },
  };
}

/**
 * Before a run resumes: claims each recorded yes of the state's hosted requests once (a second
 * resume of the same saved state finds it consumed and the request is refused), and refuses a yes
 * that expired or was given for other arguments. Returns the request ids this resume may approve.
 */
export async function claimForResume(state: AnyRunState, guards: Map<string, HostedGuard>): Promise<Set<string>> {
  const claimed = new Set<string>();
  for (const { request, guard, item } of pendingHosted(state, guards)) {
    const { internals, policy, action } = guard;
    const stored = await internals.store.getRequest(request.id);
    if (!stored || stored.state === 'pending') continue; // unanswered: the input filter refuses any SDK-only yes
    const args = canonicalArgs(request.arguments);
    const base = { action, call_id: request.id, args_hash: args?.hash ?? null, principal: stored.principal, decision: 'approve' as const };
    const refuse = async (reason: string, why: string) => {
      await appendReceipt(internals, policy, { ...base, result: 'refused', reason });
      state.reject(item, { message: refusal(action, why) });
    };
    if (stored.state === 'rejected') {
      const no = stored.answers.find((a) => a.decision === 'reject');
      const why = !no
        ? 'rejected'
        : no.approver === POLICY_APPROVER
          ? (no.reason ?? 'denied by policy')
          : `rejected by ${no.approver}${no.reason ? `: ${no.reason}` : ''}`;
      state.reject(item, { message: refusal(action, why) });
      continue;
    }
    if (stored.state === 'consumed') {
      await refuse('approval_consumed', 'its approval was already used: the approved call was sent once already');
      continue;
    }
    if (stored.action !== action || stored.argsHash !== args?.hash || stored.policyHash !== policy.hash) {
      await refuse('approval_mismatch', 'the recorded approval is for a different call');
      continue;
    }
    if (stored.decidedAt === undefined || internals.clock() > stored.decidedAt + internals.approvalTtlMs) {
      await refuse('approval_expired', 'its approval expired before the run resumed');
      continue;
    }
    // The same binding function tools claim with: this run's principal, not the stored one.
    const principal = await principalOf(internals, state._context);
    const binding = { action, argsHash: args.hash, policyHash: policy.hash, principal };
    const result = await internals.store.claimApproval(request.id, internals.clock(), binding);
    if (result.outcome === 'mismatch') {
      await refuse('approval_mismatch', 'the recorded approval is for a different call (another principal)');
      continue;
    }
    if (result.outcome !== 'claimed') {
      await refuse('approval_consumed', 'its approval was already used: the approved call was sent once already');
      continue;
    }
    const approvers = result.request.answers.filter((a) => a.decision === 'approve').map((a) => a.approver);
    await appendReceipt(internals, policy, { ...base, approvers, reason: 'approval sent; the call runs at OpenAI', result: 'claimed' });
    state.approve(item);
    claimed.add(request.id);
  }
  return claimed;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type FilterArgs = { modelData: { input: any[]; instructions?: string }; agent: AnyAgent; context: unknown };
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Filter = (args: FilterArgs) => any;

/**
 * The last gate before the model: an `approve: true` for a request of a protected hosted server
 * is sent only if this resume claimed it, or if it is history (consumed, and the call's result is
 * in the same input). Anything else becomes `approve: false` with a refusal, and a receipt.
 */
export function guardInputFilter(guards: Map<string, HostedGuard>, claimed: Set<string>, user: Filter | undefined): Filter {
  const refused = new Set<string>();
  return async (args) => {
    const data = user ? await user(args) : args.modelData;
    const input: unknown[] = Array.isArray(data?.input) ? data.input : [];
    const requests = new Map<string, HostedRequest>();
    const answeredCalls = new Set<string>();
    for (const item of input) {
      const request = hostedRequestOf(item);
      if (request) requests.set(request.id, request);
      const callOf = hostedCallRequestId(item);
      if (callOf) answeredCalls.add(callOf);
    }
    let changed = false;
    const out = [];
    for (const item of input) {
      const response = hostedResponseOf(item);
      if (!response?.approve || claimed.has(response.requestId)) {
        out.push(item);
        continue;
      }
      const request = requests.get(response.requestId);
      const guard = request ? guards.get(request.serverLabel) : undefined;
      const fallback = guard ?? (request ? undefined : [...guards.values()][0]);
      const stored = fallback ? await fallback.internals.store.getRequest(response.requestId).catch(() => null) : null;
      if (!guard && !stored) {
        out.push(item); // not a server this run protects
        continue;
      }
      const owner = (guard ?? fallback)!;
      if (stored?.state === 'consumed' && answeredCalls.has(response.requestId)) {
        out.push(item); // history: the call was approved, claimed and answered in an earlier turn
        continue;
      }
      const action = stored?.action ?? owner.action;
      if (!refused.has(response.requestId)) {
        refused.add(response.requestId);
        await appendReceipt(owner.internals, owner.policy, {
          action,
          call_id: response.requestId,
          args_hash: request ? argsHashOf(request.arguments, undefined) : (stored?.argsHash ?? null),
          result: 'refused',
          reason: 'approval_unrecorded',
        }).catch((error: unknown) => {
          throw new CtrlrunError(`ctrlrun: could not record the refusal of an unrecorded hosted MCP approval (${describeError(error)}); nothing was sent.`);
        });
      }
      const message = refusal(action, 'no approval for this call is recorded in the store (an approval held only by the SDK state authorizes nothing)');
      const providerData = { ...(item as { providerData: Record<string, unknown> }).providerData, approve: false, reason: message };
      out.push({ ...(item as object), providerData });
      changed = true;
    }
    return changed ? { ...data, input: out } : data;
  };
}
