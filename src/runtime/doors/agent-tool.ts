import * as sdk from '@openai/agents';
import type {
  Agent,
  AgentTool,
  AgentToolOptionsWithDefault,
  AgentToolOptionsWithParameters,
  FunctionTool,
  Handoff,
  MCPServer,
  RunContext,
  Tool,
} from '@openai/agents';
import type { Control } from '../control.js';
import { CtrlrunError } from '../errors.js';
import { HOSTED_ACTION } from './hosted-item.js';
import { guardInputFilter, hostedGuards } from './hosted-mcp.js';
import { PAUSED_DOOR, PROTECTED_ACTION, describeError, type ControlInternals } from '../internals.js';
import { LOCAL_ACTION } from './local-mark.js';
import { HANDOFF_ACTION } from './handoff.js';
import { bindMcp, isGuardedMcpServer } from './mcp.js';
import { bindSandbox, isGuardedSandboxAgent, isSandboxAgent } from './sandbox.js';
import { openNestedFrame } from '../nested.js';
import { isSchemaParsed } from '../core/pause.js';
import { hideWhenUnusable } from '../core/exposure.js';
import { createActionCore } from '../core/action-core.js';
import { bindPolicy } from '../core/bind-policy.js';
import type { CallDetails } from '../core/types.js';
import type { CompiledPolicy } from '../types.js';

/**
 * Agents as tools and agent graphs.
 *
 * `protectAgentTool(action, agent, options)` is `agent.asTool(options)` whose call is decided by
 * the policy's `action` (allow, deny, a person's approval, run once, receipts) and whose nested
 * run's failures reach the caller as themselves. The object `asTool` returns is returned as it is
 * (the SDK keys nested approvals on its identity); only its public fields `inputGuardrails` and
 * `invoke` are set, the latter wrapping the SDK's own.
 *
 * - The SDK's agent tool has the default error function: an error of the nested run (a refusal
 *   of this library, a body that threw) reaches the parent model as "An error occurred while
 *   running the tool. Please try again.", and the model retries. Here the nested run's error is
 *   thrown as itself (what `unwrap()` returns), so the run stops; nothing runs twice.
 * - The nested run gets `traceIncludeSensitiveData: false` unless `options.runConfig` says
 *   otherwise (the SDK does not pass the parent's setting down), and, when the nested agent has
 *   hosted MCP servers made by `protectHostedMcp`, the input filter that refuses unrecorded
 *   approvals, composed after the user's own.
 */
export interface AgentDoors<A extends string = string> {
  protectAgentTool: ProtectAgentTool<A>;
  /**
   * Walks an agent graph (tools, handoffs, agents of protectAgentTool, MCP servers) through public
   * fields: guards each MCP server with protectMcpServer and each SandboxAgent with
   * protectSandboxAgent, and throws naming every other door that is not protected. A
   * `toolSearchTool()` is accepted (its deferred tools are tools of the graph); a client `execute`
   * of one has what it returns checked at run time. Returns the agent.
   */
  protectAgent: <T extends Agent<any, any>>(agent: T) => T;
}

/** `asTool`'s options (the default `{ input }` parameters) without `needsApproval`: the policy decides. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ProtectAgentToolOptions<T extends Agent<any, any>> = Omit<AgentToolOptionsWithDefault<any, T>, 'needsApproval'> & { needsApproval?: never };

/** The parameters an agent tool may declare: what `asTool({ parameters })` accepts (read off the SDK's own `asTool`, whose constraint it does not export). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AsToolOptions = Agent<any, any>['asTool'] extends (this: any, options: infer O) => any ? O : never;
export type AgentToolParameters = AsToolOptions extends { parameters: infer P } ? P : never;

/** `asTool`'s options with the tool's own `parameters` (and `inputBuilder`), without `needsApproval`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ProtectAgentToolOptionsWithParameters<T extends Agent<any, any>, P extends AgentToolParameters> = Omit<
  AgentToolOptionsWithParameters<any, T, P>,
  'needsApproval'
> & {
  needsApproval?: never;
};

/**
 * `protectAgentTool(action, agent, options)`, typed as `agent.asTool(options)` is: the default
 * `{ input }` parameters, or the tool's own `parameters` (the policy's `when` reads those).
 */
export interface ProtectAgentTool<A extends string = string> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  <T extends Agent<any, any>>(action: A, agent: T, options?: ProtectAgentToolOptions<T>): ReturnType<T['asTool']>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  <T extends Agent<any, any>, P extends AgentToolParameters>(action: A, agent: T, options: ProtectAgentToolOptionsWithParameters<T, P>): AgentTool<any, T, P>;
}

/** On an agent tool made by protectAgentTool: its action, and the agent it runs. */
export const AGENT_TOOL_ACTION: unique symbol = Symbol.for('ctrlrun.protectAgentTool.action');
const AGENT_TOOL_AGENT: unique symbol = Symbol.for('ctrlrun.protectAgentTool.agent');

const SDK_RETRY_TEXT = 'An error occurred while running the tool. Please try again.';

export function bindAgentTools<A extends string = string>(control: Control, policy: CompiledPolicy): AgentDoors<A> {
  const internals = bindPolicy(control, policy, 'bindAgentTools');
  const mcp = bindMcp(control, policy);
  const sandbox = bindSandbox(control, policy);
  const guards: Guards = { server: (server) => mcp.protectMcpServer(server), sandbox: (agent) => sandbox.protectSandboxAgent(agent) };
  return {
    protectAgentTool: ((action: A, agent: Agent<any, any>, options?: object) =>
      makeAgentTool(internals, policy, action, agent, (options ?? {}) as Record<string, unknown>)) as ProtectAgentTool<A>,
    protectAgent: (agent) => checkGraph(agent, guards),
  };
}

function makeAgentTool(
  internals: ControlInternals,
  policy: CompiledPolicy,
  action: string,
  agent: Agent<any, any>,
  options: Record<string, unknown>,
): FunctionTool {
  const who = `protectAgentTool('${action}')`;
  if (!agent || typeof (agent as { asTool?: unknown }).asTool !== 'function')
    throw new CtrlrunError(`${who}: pass an Agent (it is turned into a tool with agent.asTool()).`);
  if ('needsApproval' in options) {
    throw new CtrlrunError(
      `${who}: remove \`needsApproval\`: the policy (ctrlrun.yaml) decides which calls need a person, and the control records the answers.`,
    );
  }
  // its body is the SDK's invoke with the text the core hands it: an approved edit runs as a model's call would
  const core = createActionCore(internals, policy, action, {
    parameters: options.parameters as never,
    door: { kind: 'agent', edits: true, schema: () => made.parameters },
  });
  const userRunConfig = (options.runConfig ?? {}) as { traceIncludeSensitiveData?: boolean; callModelInputFilter?: Parameters<typeof guardInputFilter>[2] };
  const guards = hostedGuards(agent);
  const runConfig = {
    ...userRunConfig,
    traceIncludeSensitiveData: userRunConfig.traceIncludeSensitiveData ?? false,
    ...(guards.size > 0 ? { callModelInputFilter: guardInputFilter(guards, new Set(), userRunConfig.callModelInputFilter) } : {}),
  };
  // a paused call is filed under the SDK's call id, with the tool's name (the default `{ input }` and a zod schema: strict)
  const strictNulls = options.parameters === undefined || isSchemaParsed(options.parameters);
  const needsApproval = (runContext: RunContext<unknown>, input: unknown, callId?: string) => core.needsApproval(runContext, input, callId, pausing);
  const made = agent.asTool({ ...(options as object), runConfig, needsApproval } as never) as unknown as FunctionTool;
  // the tool a call pauses in, made once: no object a call
  const pausing = { toolName: made.name, ...(strictNulls ? { strictSchema: made.parameters } : {}) };
  made.inputGuardrails = [core.guardrail as never, ...(made.inputGuardrails ?? [])];
  hideWhenUnusable(internals, policy, action, made);
  const inner = made.invoke.bind(made);
  made.invoke = async (runContext: RunContext<any>, input: string, details?: Parameters<FunctionTool['invoke']>[2]) => {
    const parsed = core.policyArgs(input);
    const args = parsed.ok ? parsed.value : input;
    const body = async (_edited?: unknown, editedText?: string) => {
      const frame = openNestedFrame(runContext);
      let output: unknown;
      try {
        output = await inner(runContext, editedText ?? input, details);
      } finally {
        frame.close();
      }
      const failure = frame.failure;
      if (failure) throw failure.error;
      if (output === SDK_RETRY_TEXT) {
        // the nested run failed with an error that was not this library's: do not let the model retry blind
        throw new CtrlrunError(
          `ctrlrun: ${action}: the nested run of agent ${agent.name} failed (the SDK hid its error behind "${SDK_RETRY_TEXT}"); whether its tools acted is unknown, so it is not retried.`,
          { action, callId: (details as CallDetails | undefined)?.toolCall?.callId ?? null },
        );
      }
      return output;
    };
    return core.execute(args, runContext as RunContext<unknown>, details as CallDetails | undefined, body) as never;
  };
  Object.defineProperty(made, AGENT_TOOL_ACTION, { value: action, enumerable: false });
  Object.defineProperty(made, AGENT_TOOL_AGENT, { value: agent, enumerable: false });
  Object.defineProperty(made, PROTECTED_ACTION, { value: action, enumerable: false });
  Object.defineProperty(made, PAUSED_DOOR, { value: core.door, enumerable: false });
  internals.toolActions.set(made, action);
  internals.namedActions.set(made.name, action);
  return made;
}

// --- protectAgent: the whole graph ------------------------------------------------------------

/** What protectAgent guards in place: an MCP server (the guard lives on the server), a SandboxAgent (on its capabilities). */
interface Guards {
  server: (server: MCPServer) => void;
  sandbox: (agent: Agent<any, any>) => void;
}

/** A door of an agent graph that is not protected, named for the error. */
function openDoors(root: Agent<any, any>, guard: Guards): string[] {
  const open: string[] = [];
  const seen = new Set<unknown>();
  const visit = (agent: Agent<any, any>, path: string) => {
    if (!agent || typeof agent !== 'object' || seen.has(agent)) return;
    seen.add(agent);
    const where = path ? `${path} > agent ${agent.name}` : `agent ${agent.name}`;
    for (const tool of (agent.tools ?? []) as Tool<any>[]) {
      const t = tool as Tool<any> & { [PROTECTED_ACTION]?: string; [LOCAL_ACTION]?: unknown; [HOSTED_ACTION]?: string; [AGENT_TOOL_AGENT]?: Agent<any, any> };
      if (t[AGENT_TOOL_AGENT]) visit(t[AGENT_TOOL_AGENT], `${where} > agent tool ${(t as { name?: string }).name}`);
      const name = (t as { name?: string }).name ?? t.type;
      switch (t.type) {
        case 'function':
          if (t[PROTECTED_ACTION] === undefined) open.push(`${where}: function tool ${name} is not protected (use protectedTool or protectAgentTool)`);
          break;
        case 'shell':
        case 'apply_patch':
          if (t[LOCAL_ACTION] === undefined) open.push(`${where}: ${t.type} tool ${name} is not protected (use protectShellTool / protectApplyPatchTool)`);
          break;
        case 'computer':
          if (t[LOCAL_ACTION] === undefined) open.push(`${where}: computer tool ${name} is not protected (use protectComputerTool)`);
          break;
        case 'hosted_tool':
          if ((t as { providerData?: { type?: string } }).providerData?.type === 'mcp') {
            if (t[HOSTED_ACTION] === undefined)
              open.push(
                `${where}: hosted MCP server ${(t as { providerData?: { server_label?: string } }).providerData?.server_label ?? name} is not protected (use protectHostedMcp)`,
              );
          } else if ((t as { providerData?: { type?: string } }).providerData?.type === 'tool_search') {
            // a search over this agent's deferred tools: each of them is a door of this graph, checked
            // in this loop; tools a client `execute` returns are checked when it returns them
            guardToolSearch(t, where);
          } else {
            open.push(`${where}: hosted tool ${name} runs at OpenAI and no client can gate it`);
          }
          break;
        default:
          open.push(`${where}: tool ${name} (${String((t as { type?: unknown }).type)}) is of a kind this library does not know`);
      }
    }
    for (const server of (agent.mcpServers ?? []) as MCPServer[]) {
      if (isGuardedMcpServer(server)) continue;
      try {
        guard.server(server); // the guard lives on the server: every agent listing it is guarded
      } catch (error) {
        open.push(`${where}: MCP server ${server?.name} could not be guarded (${describeError(error)})`);
      }
    }
    if (isSandboxAgent(agent) && !isGuardedSandboxAgent(agent)) {
      try {
        guard.sandbox(agent); // its capabilities' tools are guarded where the SDK makes them
      } catch (error) {
        open.push(`${where}: the sandbox capabilities could not be guarded (${describeError(error)})`);
      }
    }
    for (const h of (agent.handoffs ?? []) as Array<Agent<any, any> | Handoff<any, any>>) {
      const made = h as Handoff<any, any> & { [HANDOFF_ACTION]?: string };
      // a plain agent in `handoffs` is a transfer only; a handoff() object may run onHandoff on the model's input
      if (made.agent !== undefined && typeof made.onInvokeHandoff === 'function' && made[HANDOFF_ACTION] === undefined) {
        open.push(`${where}: handoff ${made.toolName} to agent ${made.agent?.name} is not protected (use protectHandoff)`);
      }
      const target = made.agent ?? (h as Agent<any, any>);
      visit(target as Agent<any, any>, where);
    }
  };
  visit(root, '');
  return open;
}

type ToolSearchExecutor = (args: { agent?: Agent<any, any> }) => unknown;
const SEARCH_GUARD: unique symbol = Symbol.for('ctrlrun.protectAgent.toolSearch');

/**
 * `toolSearchTool({ execution: 'client', execute })`: its `execute` may return tools that are in no
 * agent's graph, which the SDK then runs. The executor (the SDK's public
 * `getClientToolSearchExecutor`/`attachClientToolSearchExecutor`, 0.6 on) is replaced by one that
 * checks what the user's returns, as protectAgent checks a graph: an open door among them stops the
 * run (a CtrlrunError) before any of them is loaded.
 */
function guardToolSearch(t: Tool<any>, where: string): void {
  const api = sdk as Record<string, unknown>;
  const get = api['getClientToolSearchExecutor'] as ((tool: Tool<any>) => ToolSearchExecutor | undefined) | undefined;
  const attach = api['attachClientToolSearchExecutor'] as ((tool: Tool<any>, executor: ToolSearchExecutor) => void) | undefined;
  const executor = get?.(t);
  if (!executor || (executor as { [SEARCH_GUARD]?: true })[SEARCH_GUARD]) return;
  if (!attach)
    throw new CtrlrunError(`protectAgent: ${where}: toolSearchTool has a client execute this SDK gives no way to check; nothing is assumed protected.`);
  const guarded: ToolSearchExecutor = async (args) => {
    const result = await executor(args);
    const returned = result === undefined || result === null ? [] : Array.isArray(result) ? result : [result];
    const refuse = () => {
      throw new CtrlrunError('an MCP server or a SandboxAgent cannot come from tool_search');
    };
    const open = openDoors({ name: `${args.agent?.name ?? 'agent'} (tool_search execute)`, tools: returned } as unknown as Agent<any, any>, {
      server: refuse,
      sandbox: refuse,
    });
    if (open.length > 0)
      throw new CtrlrunError(
        `protectAgent: toolSearchTool's execute returned ${open.length} tool(s) that are not protected; none is loaded:\n${open.map((d) => `  - ${d}`).join('\n')}`,
      );
    return result;
  };
  Object.defineProperty(guarded, SEARCH_GUARD, { value: true });
  attach(t, guarded);
}

function checkGraph<T extends Agent<any, any>>(agent: T, guard: Guards): T {
  let open: string[];
  try {
    open = openDoors(agent, guard);
  } catch (error) {
    throw new CtrlrunError(`protectAgent: the agent graph could not be read (${describeError(error)}); nothing is assumed protected.`);
  }
  if (open.length > 0) {
    throw new CtrlrunError(`protectAgent: ${open.length} door(s) of ${agent.name} are not protected:\n${open.map((d) => `  - ${d}`).join('\n')}`);
  }
  return agent;
}
