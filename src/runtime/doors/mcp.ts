import {
  getAllMcpTools,
  mcpToFunctionTool,
  type Agent,
  type FunctionTool,
  type MCPServer,
  type MCPToolErrorFunction,
  type MCPToolFilterCallable,
  type MCPToolFilterStatic,
  type RunContext,
  type Tool,
  type ToolInputGuardrailDefinition,
  type ToolOutputGuardrailDefinition,
} from '@openai/agents';
import { canonicalHash } from '../canonical.js';
import type { Control } from '../control.js';
import { CtrlrunError } from '../errors.js';
import { decideCall as decide } from '../decide.js';
import { argsHashOf, describeError, parseJson, principalOf, sdkToolName, type ControlInternals } from '../internals.js';
import { createActionCore, type ActionCore } from '../core/action-core.js';
import { bindPolicy } from '../core/bind-policy.js';
import { exposureCheck, type ExposureCheck } from '../core/exposure.js';
import { softHaltText } from '../core/halt.js';
import { ReportedOutcome, type Authorization, type CallFacts, type UpstreamProblem } from '../core/types.js';
import { makeProtectedTool } from './function-tool.js';
import type { CompiledPolicy } from '../types.js';
import type { CreatePinnedFetch, PinnedFetch, PinnedFetchOptions } from '../upstream-types.js';
import { noteNestedFailure } from '../nested.js';

/**
 * MCP servers (`agent.mcpServers`) and their tools. Two adapters over the one core:
 *
 * - `protectMcpServer(server)` puts the guard on the server itself, through its public
 *   `toolInputGuardrails`, `toolOutputGuardrails` and `errorFunction`: every tool the SDK builds
 *   from it, in any agent (clones, handoffs, agents as tools), is decided, refused, recorded. It
 *   cannot pause: the SDK gives MCP tools no approval hook, so a call the policy sends to a person
 *   is refused with a text saying so.
 * - `protectMcpTools(servers)` materialises the servers' tools with the SDK's `getAllMcpTools` and
 *   returns protected function tools (the policy's `needsApproval`): a call can pause, be approved
 *   by a person and run once after a restore in another process.
 *
 * The manifest maps `{ mcp: { server, tool } }` to an action (the compiled policy's `mcp`, by the
 * server's `name` and the tool's name as the server lists it). A tool no entry maps is denied
 * (`unknown_action`).
 */
export interface McpDoors {
  /** Guards every tool of `server` (idempotent); returns the same server object. */
  protectMcpServer: <S extends MCPServer>(server: S) => S;
  /** The servers' tools as protected function tools: pass them in `tools`, not the servers in `mcpServers`. */
  protectMcpTools: (servers: MCPServer[], options?: ProtectMcpToolsOptions) => Promise<FunctionTool[]>;
  /**
   * `mcpToFunctionTool(mcpTool, server, convertSchemasToStrict)`, protected: one tool the server
   * listed, as a protected function tool (what the codemod writes for a call of the SDK's
   * conversion). A schema pin on its action is checked against the server's listing at each call.
   */
  protectMcpFunctionTool: (
    mcpTool: McpListedTool,
    server: MCPServer,
    convertSchemasToStrict?: boolean,
    options?: { toolNameOverride?: string },
  ) => FunctionTool;
  /**
   * A fetch pinned to the TLS certificates the policy pins for the actions of MCP server
   * `serverName` (CTRLRun's `upstream.tls_cert_sha256` / `tls_cert_file`): pass it as the `fetch`
   * option of that `MCPServerStreamableHttp` or `MCPServerSSE`. A call of a pinned action runs only
   * through a server built with this very fetch, after it has seen a pinned certificate.
   */
  upstreamFetch: (serverName: string, options?: PinnedFetchOptions) => typeof fetch;
}

/** What `bindMcp` needs beyond the control and the policy: the Node-only pinned fetch, when the policy pins certificates. */
export interface BindMcpOptions {
  createPinnedFetch?: CreatePinnedFetch;
}

export interface ProtectMcpToolsOptions {
  /** As the SDK's `mcpConfig.includeServerInToolNames`: names become `mcp_<server>__<tool>`. */
  includeServerInToolNames?: boolean;
  convertSchemasToStrict?: boolean;
  /** For servers whose `toolFilter` is a function: the run context and agent it is given. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  runContext?: RunContext<any>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  agent?: Agent<any, any>;
}

/** A tool as an MCP server lists it (`server.listTools()`), what `mcpToFunctionTool` takes. */
export type McpListedTool = Parameters<typeof mcpToFunctionTool>[0];

const GUARD = Symbol.for('ctrlrun.mcp.guard');

export function bindMcp(control: Control, policy: CompiledPolicy, options: BindMcpOptions = {}): McpDoors {
  const internals = bindPolicy(control, policy, 'bindMcp');
  /** The pinned fetches this control's doors made, by the function handed out: only these count as proof. */
  const fetches = internals.pinnedFetches;
  const upstream = (action: string, server: MCPServer) => tlsProblem(policy, fetches, action, server);
  return {
    protectMcpServer: (server) => protectServer(internals, policy, server, upstream),
    protectMcpTools: (servers, opts) => protectTools(internals, policy, servers, opts ?? {}, upstream),
    protectMcpFunctionTool: (mcpTool, server, strict, opts) => protectListedTool(internals, policy, mcpTool, server, strict === true, opts ?? {}, upstream),
    upstreamFetch: (serverName, opts) => {
      const pins = serverPins(policy, serverName);
      if (pins.sha256.length === 0 && pins.pems.length === 0) {
        throw new CtrlrunError(
          `upstreamFetch('${serverName}'): no action the manifest maps to a tool of MCP server ${serverName} pins a TLS certificate (upstream.tls_cert_sha256 or tls_cert_file), so there is nothing to pin; check the server name.`,
        );
      }
      if (!options.createPinnedFetch) {
        throw new CtrlrunError(
          `upstreamFetch('${serverName}'): this module was generated without the pinned fetch; regenerate it with \`ctrlrun-gen generate\`.`,
        );
      }
      const pinned = options.createPinnedFetch(pins, opts);
      fetches.set(pinned.fetch, { server: serverName, pinned });
      return pinned.fetch;
    },
  };
}

/** The TLS pins of the actions mapped to the tools of MCP server `server`: their union. */
function serverPins(policy: CompiledPolicy, server: string): { sha256: string[]; pems: string[] } {
  const sha256 = new Set<string>();
  const pems = new Set<string>();
  for (const action of new Set(Object.values(policy.mcp?.[server] ?? {}))) {
    const pin = policy.actions[action]?.upstream;
    for (const d of pin?.tlsCertSha256 ?? []) sha256.add(d);
    for (const p of pin?.tlsCertPems ?? []) pems.add(p);
  }
  return { sha256: [...sha256], pems: [...pems] };
}

/** Whether an action pins a TLS certificate. */
export function pinsTls(policy: CompiledPolicy, action: string): boolean {
  const pin = policy.actions[action]?.upstream;
  return (pin?.tlsCertSha256?.length ?? 0) > 0 || (pin?.tlsCertPems?.length ?? 0) > 0;
}

/**
 * The `url` and `fetch` an SDK MCP server over HTTP was built with (`MCPServerStreamableHttp` and
 * `MCPServerSSE` keep their options as `underlying.params`); undefined for any other server.
 */
function httpParams(server: MCPServer): { url?: unknown; fetch?: unknown } | undefined {
  for (const holder of [(server as { underlying?: unknown }).underlying, server]) {
    const params = (holder as { params?: unknown } | undefined)?.params;
    if (params && typeof params === 'object' && 'url' in params) return params as { url?: unknown; fetch?: unknown };
  }
  return undefined;
}

/**
 * CTRLRun's check 2 (SPEC-v0.10 §4.3) for the TLS pins, against what this process observed: the
 * server must be built with a fetch these doors made for it (`upstreamFetch(server.name)`), and
 * that fetch's last handshake with the server's host must have shown a pinned certificate.
 * Nothing observed (or no proof that the call goes through the pinned fetch) is
 * `upstream_unverified`; another certificate is `upstream_mismatch`.
 */
function tlsProblem(
  policy: CompiledPolicy,
  fetches: WeakMap<object, { server: string; pinned: PinnedFetch }>,
  action: string,
  server: MCPServer,
): UpstreamProblem | null {
  if (!pinsTls(policy, action)) return null;
  const digests = policy.actions[action]?.upstream?.tlsCertSha256 ?? [];
  const unverified = (why: string): UpstreamProblem => ({
    reason: 'upstream_unverified',
    text: `its upstream's TLS certificate is pinned and ${why}, so this process has observed no pinned certificate (upstream_unverified)`,
  });
  const params = httpParams(server);
  if (!params) return unverified(`server ${server.name} is not an MCP server over HTTP (stdio and custom servers open no TLS connection ctrlrun-gen can see)`);
  const made = typeof params.fetch === 'function' ? fetches.get(params.fetch) : undefined;
  if (!made) return unverified(`server ${server.name} was not built with \`fetch: upstreamFetch('${server.name}')\` of the generated module`);
  if (made.server !== server.name) return unverified(`server ${server.name} uses the fetch made for server ${made.server}`);
  const seen = typeof params.url === 'string' ? made.pinned.observed(params.url) : undefined;
  switch (tlsVerdict(digests, seen)) {
    case 'upstream_unverified':
      return unverified(`no TLS connection to ${String(params.url)} has been made through it yet (connect the server first; plain http is never pinned)`);
    case 'upstream_mismatch':
      return {
        reason: 'upstream_mismatch',
        text: `its upstream ${seen!.origin} presented a certificate whose SHA-256 is ${seen!.sha256}, which upstream.tls_cert_sha256 does not pin (upstream_mismatch)`,
      };
    default:
      return null;
  }
}

/**
 * CTRLRun's `upstream.check` for the certificate half, once the call is known to go through the
 * pinned fetch: nothing observed is `upstream_unverified`; a leaf the handshake refused, or one
 * outside this action's digests, is `upstream_mismatch`; else the pin holds (null). With no digests
 * (`tls_cert_file` alone) an observation is still required: it is the proof that the pinned anchors
 * accepted this server.
 */
export function tlsVerdict(
  digests: readonly string[],
  seen: { sha256: string; pinned: boolean } | undefined,
): 'upstream_unverified' | 'upstream_mismatch' | null {
  if (!seen) return 'upstream_unverified';
  if (!seen.pinned || (digests.length > 0 && !digests.includes(seen.sha256))) return 'upstream_mismatch';
  return null;
}

// ---------------------------------------------------------------------------------------------

/** The SDK's prefixed MCP tool name (`includeServerInToolNames`) before it shortens long ones. */
export function prefixedMcpToolName(server: string, tool: string): string {
  return sdkToolName(`mcp_${safePart(server, 'server')}__${safePart(tool, 'tool')}`);
}

function safePart(value: string, fallback: string): string {
  const safe = Array.from(value)
    .map((c) => (c.charCodeAt(0) <= 127 && /[A-Za-z0-9_-]/.test(c) ? c : '_'))
    .join('')
    .replace(/^[_-]+|[_-]+$/g, '');
  return safe || fallback;
}

/**
 * CTRLRun's `tool_schema_hash`: `sha256:` + the SHA-256 of the canonical JSON of
 * `{schema: "ctrlrun.upstream.tool_schema/v1", entry}`, where `entry` is the tool as the server lists
 * it (name, description, input schema and whatever else the listing carries), so the same tool pins
 * to the same value in a CTRLRun gateway and here.
 */
export function mcpToolSchemaHash(tool: { name: string; description?: string | undefined; inputSchema?: unknown }): string {
  const entry = JSON.parse(JSON.stringify(tool)) as unknown; // the listing as JSON: undefined members dropped
  return `sha256:${canonicalHash({ schema: 'ctrlrun.upstream.tool_schema/v1', entry })}`;
}

/** The action of an MCP tool: by the raw name, or by the SDK's unshortened prefixed name. */
function actionOf(policy: CompiledPolicy, server: string, name: string): { action: string; tool: string } | undefined {
  const tools = policy.mcp?.[server];
  if (!tools) return undefined;
  const direct = tools[name];
  if (direct !== undefined) return { action: direct, tool: name };
  for (const [tool, action] of Object.entries(tools)) if (prefixedMcpToolName(server, tool) === name) return { action, tool };
  return undefined;
}

/** The receipt's action for a tool no manifest entry maps (it is denied as unknown_action). */
function unmappedAction(server: string, name: string): string {
  return `mcp:${server}/${name}`;
}

async function pinProblem(policy: CompiledPolicy, action: string, server: MCPServer, tool: string): Promise<UpstreamProblem | null> {
  const pin = policy.actions[action]?.upstream?.toolSchemaSha256;
  if (pin === undefined) return null;
  let listed: Awaited<ReturnType<MCPServer['listTools']>>[number] | undefined;
  try {
    listed = (await server.listTools()).find((t) => t.name === tool);
  } catch (error) {
    return { reason: 'upstream_unverified', text: `its listing could not be read to check the schema pin (${describeError(error)})` };
  }
  if (!listed) return { reason: 'upstream_unverified', text: `server ${server.name} no longer lists tool ${tool}` };
  const hash = mcpToolSchemaHash(listed);
  return hash === pin
    ? null
    : {
        reason: 'upstream_mismatch',
        text: `the tool's listed schema hashes to ${hash.slice(0, 12)}…, not the pinned ${pin.slice(0, 12)}… (upstream.tool_schema_sha256): it changed`,
      };
}

type UpstreamCheck = (action: string, server: MCPServer) => UpstreamProblem | null;

/** Whether `protectMcpServer` guards this server (its input guardrails hold this library's guard). */
export function isGuardedMcpServer(server: MCPServer): boolean {
  return (server?.toolInputGuardrails ?? []).some((g) => (g as { [GUARD]?: unknown })[GUARD]);
}

// --- protectMcpServer ------------------------------------------------------------------------

function protectServer<S extends MCPServer>(internals: ControlInternals, policy: CompiledPolicy, server: S, upstream: UpstreamCheck): S {
  if (!server || typeof server !== 'object' || typeof server.name !== 'string') {
    throw new CtrlrunError('protectMcpServer: pass an MCP server (MCPServerStdio, MCPServerStreamableHttp, MCPServerSSE or your own MCPServer).');
  }
  const existing = server.toolInputGuardrails ?? [];
  if (existing.some((g) => (g as { [GUARD]?: unknown })[GUARD])) return server; // idempotent

  const userErrorFunction = server.errorFunction;
  const coreFor = serverCores(internals, policy, server, upstream);
  /** Calls let through by the input guard, by call id, until the output guard or the error function settles them. */
  const inFlight: InFlight = new Map();

  const inputGuard: ToolInputGuardrailDefinition & { [GUARD]: true } = {
    type: 'tool_input',
    name: 'ctrlrun.policy',
    [GUARD]: true,
    run: async ({ context, toolCall }) => {
      const mapped = actionOf(policy, server.name, toolCall.name);
      const action = mapped?.action ?? unmappedAction(server.name, toolCall.name);
      const core = coreFor(action);
      const where = { action, callId: toolCall.callId };
      try {
        const args = parseJson(toolCall.arguments);
        const callFacts = async (): Promise<CallFacts> => ({
          callId: toolCall.callId,
          argsHash: argsHashOf(toolCall.arguments, undefined),
          principal: await principalOf(internals, context),
          decision: args.ok ? decide(core.compiled, args.value) : decide(core.compiled, undefined),
        });
        if (!args.ok) {
          await core.receipt(await callFacts(), { result: 'refused', reason: 'malformed_arguments' });
          return reject(core.refuse('its arguments are not valid JSON'));
        }
        const checked = await core.checkCall({ context, toolCall });
        if (checked.behavior.type !== 'allow') return checked;
        if (core.enforce && decide(core.compiled, args.value).decision === 'approve') {
          await core.receipt(await callFacts(), { result: 'refused', reason: 'approval_unavailable' });
          return reject(
            core.refuse(
              "it needs a person's approval, and a tool of an MCP server attached through mcpServers cannot pause for one (the operator can expose it with protectMcpTools)",
            ),
          );
        }
        const auth = await core.authorize(args.value, context, toolCall.callId, toolCall);
        inFlight.set(toolCall.callId, { core, auth, context });
        return allow;
      } catch (error) {
        // a soft halt found at the decision's receipt (set elsewhere since the check): the model reads it
        const halted = softHaltText(error);
        if (halted !== undefined) return reject(halted);
        throw error instanceof CtrlrunError
          ? error
          : new CtrlrunError(`ctrlrun: ${action} did not run: the control failed (${describeError(error)}).`, { ...where, cause: error });
      }
    },
  };

  const outputGuard: ToolOutputGuardrailDefinition & { [GUARD]: true } = {
    type: 'tool_output',
    name: 'ctrlrun.receipt',
    [GUARD]: true,
    run: async ({ toolCall, output }) => {
      const entry = inFlight.get(toolCall.callId);
      inFlight.delete(toolCall.callId);
      if (entry) await settleMcpCall(entry, { ok: true, output });
      return allow;
    },
  };

  server.toolInputGuardrails = [inputGuard, ...existing];
  server.toolOutputGuardrails = [outputGuard, ...(server.toolOutputGuardrails ?? [])];
  server.errorFunction = guardedErrorFunction(inFlight, userErrorFunction);
  hideUnusableMcpTools(internals, policy, server);
  return server;
}

/**
 * Least exposure for a guarded server's tools: its `toolFilter` (which the SDK asks, for every agent
 * and run, with `{ runContext, agent, serverName }`) leaves out a tool whose action the policy never
 * lets the run's principal use (core/exposure.ts), a tool no manifest entry maps included (it is
 * denied for every input). The server's own filter is asked first: a callable one as it is, a static
 * one (`allowedToolNames`/`blockedToolNames`) as the SDK applies it. Observe mode and `offerAllTools`
 * leave the filter as it was.
 */
function hideUnusableMcpTools(internals: ControlInternals, policy: CompiledPolicy, server: MCPServer): void {
  if (internals.offerAllTools === true || policy.mode !== 'enforce') return;
  const own = server.toolFilter;
  const checks = new Map<string, ExposureCheck | null>();
  const checkOf = (action: string) => {
    if (!checks.has(action)) checks.set(action, exposureCheck(internals, policy, action));
    return checks.get(action)!;
  };
  const filter: MCPToolFilterCallable = async (context, tool) => {
    if (typeof own === 'function' ? !(await own(context, tool)) : own && !staticFilterKeeps(own, tool.name)) return false;
    const usable = checkOf(actionOf(policy, server.name, tool.name)?.action ?? unmappedAction(server.name, tool.name));
    return usable === null || usable(context.runContext as RunContext<unknown>);
  };
  server.toolFilter = filter;
}

/** The SDK's static MCP tool filter: a non-empty allow list must name the tool, a block list must not. */
function staticFilterKeeps(filter: MCPToolFilterStatic, name: string): boolean {
  const allowed = filter.allowedToolNames ?? [];
  return (allowed.length === 0 || allowed.includes(name)) && !(filter.blockedToolNames ?? []).includes(name);
}

/** Calls the input guard let through, by call id, with their core, authorization and run context. */
type InFlight = Map<string, { core: ActionCore; auth: Authorization; context: RunContext<unknown> }>;

/** One action core per action of a server's tools, made on first use. */
function serverCores(internals: ControlInternals, policy: CompiledPolicy, server: MCPServer, upstream: UpstreamCheck): (action: string) => ActionCore {
  const cores = new Map<string, ActionCore>();
  const userErrorFunction = server.errorFunction;
  return (action: string) => {
    let core = cores.get(action);
    if (!core) {
      core = createActionCore(internals, policy, action, {
        userErrorFunction: typeof userErrorFunction === 'function' ? () => undefined : null,
        // after the policy: the certificate this process observed, then the tool's listed schema
        upstream: async (toolCall) => {
          const mapped = actionOf(policy, server.name, toolCall.name ?? '');
          if (!mapped) return null;
          return upstream(action, server) ?? (await pinProblem(policy, action, server, mapped.tool));
        },
      });
      cores.set(action, core);
    }
    return core;
  };
}

/** Settles a call the input guard let through: its effect and receipt (enforce), or the observed receipt; a failure is thrown on. */
async function settleMcpCall(
  entry: { core: ActionCore; auth: Authorization },
  outcome: { ok: true; output: unknown } | { ok: false; error: unknown },
): Promise<unknown> {
  if (entry.auth.kind === 'enforce') return entry.core.finish(entry.auth, outcome);
  const f = entry.auth.facts;
  await entry.core.receipt(f, { result: outcome.ok ? 'executed' : 'failed', reason: f.principal === null ? 'no_principal' : undefined });
  if (!outcome.ok) throw outcome.error;
  return outcome.output;
}

/**
 * A failure of the MCP call (the body). This library's errors pass as they are; another error
 * settles the one call of this run context in flight (its effect becomes ambiguous) and then
 * goes to the user's error function, or propagates: never "please try again".
 */
function guardedErrorFunction(inFlight: InFlight, userErrorFunction: MCPServer['errorFunction']): MCPToolErrorFunction {
  const errorFunction: MCPToolErrorFunction = async ({ context, error }) => {
    if (error instanceof CtrlrunError) {
      noteNestedFailure(context, error);
      throw error;
    }
    const mine = [...inFlight.entries()].filter(([, e]) => e.context === context);
    if (mine.length === 1) {
      const [callId, entry] = mine[0]!;
      inFlight.delete(callId);
      try {
        await settleMcpCall(entry, { ok: false, error });
      } catch (settled) {
        if (settled instanceof CtrlrunError || typeof userErrorFunction !== 'function') {
          noteNestedFailure(context, settled);
          throw settled;
        }
      }
    }
    if (typeof userErrorFunction === 'function') return userErrorFunction({ context, error });
    noteNestedFailure(context, error);
    throw error;
  };
  Object.defineProperty(errorFunction, GUARD, { value: true });
  return errorFunction;
}

const allow = { behavior: { type: 'allow' as const } };
const reject = (message: string) => ({ behavior: { type: 'rejectContent' as const, message } });

// --- protectMcpTools -------------------------------------------------------------------------

async function protectTools(
  internals: ControlInternals,
  policy: CompiledPolicy,
  servers: MCPServer[],
  options: ProtectMcpToolsOptions,
  upstream: UpstreamCheck,
): Promise<FunctionTool[]> {
  if (!Array.isArray(servers)) throw new CtrlrunError('protectMcpTools: pass an array of MCP servers.');
  for (const server of servers) refuseOwnErrorFunction('protectMcpTools', server);
  const common = {
    errorFunction: null,
    ...(options.convertSchemasToStrict === undefined ? {} : { convertSchemasToStrict: options.convertSchemasToStrict }),
    ...(options.runContext ? { runContext: options.runContext } : {}),
    ...(options.agent ? { agent: options.agent } : {}),
  };
  /** Each materialised tool with the server it came from and its name as the server lists it. */
  const found: { tool: FunctionTool; server: MCPServer; mcpName: string }[] = [];
  if (options.includeServerInToolNames) {
    const expected = new Map<string, { server: MCPServer; mcpName: string }>();
    for (const server of servers) for (const t of await server.listTools()) expected.set(prefixedMcpToolName(server.name, t.name), { server, mcpName: t.name });
    for (const tool of functionTools(await getAllMcpTools({ ...common, mcpServers: servers, includeServerInToolNames: true }))) {
      const origin = expected.get(tool.name);
      if (!origin) {
        throw new CtrlrunError(
          `protectMcpTools: the SDK named an MCP tool "${tool.name}", which is not mcp_<server>__<tool> of any listed tool (it shortens long names and adds a hash); ctrlrun cannot tell which tool it is, so nothing is returned. Give the server a shorter name.`,
        );
      }
      found.push({ tool, ...origin });
    }
  } else {
    const seen = new Set<string>();
    for (const server of servers) {
      for (const tool of functionTools(await getAllMcpTools({ ...common, mcpServers: [server] }))) {
        if (seen.has(tool.name)) throw new CtrlrunError(`protectMcpTools: two servers list a tool named ${tool.name}; use includeServerInToolNames.`);
        seen.add(tool.name);
        found.push({ tool, server, mcpName: tool.name });
      }
    }
  }

  const out: FunctionTool[] = [];
  for (const { tool, server, mcpName } of found) {
    const action = actionOf(policy, server.name, mcpName)?.action ?? unmappedAction(server.name, mcpName);
    if (policy.mode === 'enforce') {
      const problem = upstream(action, server) ?? (await pinProblem(policy, action, server, mcpName));
      if (problem) throw new CtrlrunError(`protectMcpTools: ${action} (tool ${mcpName} of server ${server.name}) is refused: ${problem.text}.`);
    }
    out.push(wrapMcpTool(internals, policy, { tool, server, mcpName, action }, pinsTls(policy, action) ? async () => upstream(action, server) : undefined));
  }
  return out;
}

/** A server's own errorFunction would turn a failed call into model text and hide whether it ran: refused. */
function refuseOwnErrorFunction(who: string, server: MCPServer): void {
  const fn = server.errorFunction;
  if (typeof fn === 'function' && !(fn as { [GUARD]?: unknown })[GUARD]) {
    throw new CtrlrunError(
      `${who}: server ${server.name} has its own errorFunction, which would turn a failed call into model text and hide whether it ran. Remove it (or set it to null); this library reports failures itself.`,
    );
  }
}

/**
 * `protectMcpFunctionTool(mcpTool, server, strict)`: the SDK's own `mcpToFunctionTool` (no error
 * function), wrapped as protectMcpTools wraps each tool. Synchronous, as the SDK's is, so the
 * codemod can swap one for the other wherever it is called; what protectMcpTools checks when it
 * lists (the TLS pin, the schema pin) is checked at each call instead (`upstream`).
 */
function protectListedTool(
  internals: ControlInternals,
  policy: CompiledPolicy,
  mcpTool: McpListedTool,
  server: MCPServer,
  strict: boolean,
  options: { toolNameOverride?: string },
  upstream: UpstreamCheck,
): FunctionTool {
  if (!server || typeof server !== 'object' || typeof server.name !== 'string')
    throw new CtrlrunError('protectMcpFunctionTool: pass the MCP server the tool was listed by.');
  if (!mcpTool || typeof mcpTool.name !== 'string')
    throw new CtrlrunError('protectMcpFunctionTool: pass a tool as the server lists it (an entry of server.listTools()).');
  refuseOwnErrorFunction('protectMcpFunctionTool', server);
  const mcpName = mcpTool.name;
  const action = actionOf(policy, server.name, mcpName)?.action ?? unmappedAction(server.name, mcpName);
  const tool = mcpToFunctionTool(mcpTool, server, strict, {
    errorFunction: null,
    ...(options.toolNameOverride !== undefined ? { toolNameOverride: options.toolNameOverride } : {}),
  } as never) as unknown as FunctionTool;
  const check =
    policy.mode === 'enforce' && (pinsTls(policy, action) || policy.actions[action]?.upstream?.toolSchemaSha256 !== undefined)
      ? async () => upstream(action, server) ?? (await pinProblem(policy, action, server, mcpName))
      : undefined;
  return wrapMcpTool(internals, policy, { tool, server, mcpName, action }, check);
}

/** One MCP tool the SDK made, as a protected tool whose body is the SDK's own MCP call. */
function wrapMcpTool(
  internals: ControlInternals,
  policy: CompiledPolicy,
  { tool, server, mcpName, action }: { tool: FunctionTool; server: MCPServer; mcpName: string; action: string },
  check: (() => Promise<UpstreamProblem | null>) | undefined,
): FunctionTool {
  const userInput = (server.toolInputGuardrails ?? []).filter((g) => !(g as { [GUARD]?: unknown })[GUARD]);
  const userOutput = (server.toolOutputGuardrails ?? []).filter((g) => !(g as { [GUARD]?: unknown })[GUARD]);
  const inner = tool;
  return makeProtectedTool(
    internals,
    policy,
    action,
    {
      name: inner.name,
      description: inner.description,
      parameters: inner.parameters,
      strict: inner.strict,
      ...(inner.timeoutMs === undefined ? {} : { timeoutMs: inner.timeoutMs }),
      inputGuardrails: userInput,
      ...(userOutput.length ? { outputGuardrails: userOutput } : {}),
      execute: (input: unknown, runContext: RunContext<unknown>, details?: { toolCall?: unknown; signal?: AbortSignal }) =>
        typeof server.callToolResult === 'function'
          ? callWithOutcome(server, mcpName, policy.actions[action]?.mcp?.notExecutedOnError === true, input, runContext, details?.signal)
          : inner.invoke(runContext, JSON.stringify(input ?? {}), {
              ...(details?.toolCall ? { toolCall: details.toolCall as never } : {}),
              ...(details?.signal ? { signal: details.signal } : {}),
            }),
    },
    check ? { upstream: check, kind: 'mcp' } : { kind: 'mcp' },
  );
}

function functionTools(tools: Tool[]): FunctionTool[] {
  return tools.filter((t): t is FunctionTool => t.type === 'function');
}

/**
 * The MCP call of a `protectMcpTools` tool, as the SDK makes it (the server's `toolMetaResolver`,
 * the same output shape), but reading the result whole: a result the server marks `isError` is
 * CTRLRun's outcome table (its MCP gateway, SPEC-v0.2 §6.8): `ambiguous` by default (an API error
 * says nothing about whether the tool acted), `failed` when the action's `mcp:
 * { not_executed_on_error: true }` says the tool reports errors only before acting. Either way
 * the model reads the server's answer unchanged.
 */
async function callWithOutcome(
  server: MCPServer,
  tool: string,
  notExecutedOnError: boolean,
  input: unknown,
  runContext: RunContext<unknown>,
  signal: AbortSignal | undefined,
): Promise<unknown> {
  const args = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  const resolver = (server as { toolMetaResolver?: (c: { runContext: unknown; serverName: string; toolName: string; arguments: unknown }) => unknown })
    .toolMetaResolver;
  const resolved = resolver ? await resolver({ runContext, serverName: server.name, toolName: tool, arguments: args }) : undefined;
  const meta = resolved === null || resolved === undefined ? undefined : (resolved as Record<string, unknown>);
  const result = await server.callToolResult!(tool, args, meta ?? null, signal ? { signal } : undefined);
  const content = (result as { content?: unknown }).content;
  const structured = (result as { structuredContent?: unknown }).structuredContent;
  const isError = (result as { isError?: unknown }).isError === true;
  const output =
    server.useStructuredContent === true && !isError && structured !== undefined
      ? JSON.stringify(structured)
      : Array.isArray(content) && content.length === 1
        ? content[0]
        : content;
  if (!isError) return output;
  return notExecutedOnError
    ? new ReportedOutcome('not_executed', 'mcp_is_error: the tool reports errors only before acting (mcp.not_executed_on_error)', output)
    : new ReportedOutcome('ambiguous', 'mcp_is_error: the server answered isError, which does not say whether the tool acted', output);
}
