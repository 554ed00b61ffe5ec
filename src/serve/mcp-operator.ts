import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { evaluate } from '../policy/evaluate.js';
import { argsMatchHash } from '../runtime/args-binding.js';
import { distinctApprovers } from '../runtime/internals.js';
import type { ApprovalGrant, ApprovalRequest, Halt } from '../runtime/types.js';
import { terminalJson } from '../terminal-text.js';
import { VERSION } from '../version.js';
import { type AnswerBody, rolesFor } from './answers.js';
import type { ConsoleBackend, Done } from './console-backend.js';

/**
 * The MCP operator console (`ctrlrun-gen mcp-operator --stdio`, issue 38 item 4; CTRLRun 0.12's
 * console is the model): an MCP server whose tools let a person answer paused calls, list and revoke
 * approval grants, and halt calls from the MCP client they work in (a desktop chat app, an editor). It is a way in for the answer,
 * nothing else: every write goes through the functions every surface shares (serve's `answerAs`
 * over operator-actions.ts, halt-actions.ts), as the authenticated operator (console-backend.ts),
 * never a name the client sends; a write it cannot attribute is refused and writes nothing.
 *
 * Refusals are JSON-RPC errors, not tool results (an `isError` result would reach the model as a
 * tool's output, and a refusal to let a person's assistant act is not one), with CTRLRun's codes:
 * -41007 no operator to attribute the write to, -41015 a role the action's controls need,
 * -41003 the store's refusal (unknown, not pending, the requester, a second answer, arguments
 * that are not what their hash binds, no such halt or grant, a grant already revoked), -32602 arguments of the wrong shape.
 */

export const NO_PRINCIPAL = -41007;
export const NOT_ENTITLED = -41015;
export const REFUSED = -41003;

/** One tool of the console: its schema, whether it writes, and what it does. */
interface ConsoleTool {
  name: string;
  description: string;
  writes: boolean;
  properties: Record<string, { type: string; description: string; enum?: string[] }>;
  required: string[];
  run(args: Record<string, unknown>, backend: ConsoleBackend): Promise<Reply>;
}

interface Reply {
  text: string;
  data: Record<string, unknown>;
}

const WRITES = 'Writes. Needs the operator token this console was started with; recorded under that operator\u2019s name (never a name given here).';

const TOOLS: ConsoleTool[] = [
  {
    name: 'list_pending_approvals',
    description: 'Reads. The calls waiting for a person: id, action, who the run acts for, approvals so far, arguments.',
    writes: false,
    properties: {},
    required: [],
    run: async (_args, backend) => {
      const pending = await backend.pending();
      const items = pending.map(summary);
      return { text: pending.length === 0 ? `No pending requests in ${backend.where}.` : terminalJson(items), data: { requests: items } };
    },
  },
  {
    name: 'show_approval',
    description:
      'Reads. One request: its arguments, who asked, every answer, and the rule of the policy that sent it to a person (with its controls and roles).',
    writes: false,
    properties: { request_id: { type: 'string', description: 'The request id (the call id, from list_pending_approvals)' } },
    required: ['request_id'],
    run: async (args, backend) => {
      const request = await backend.request(args.request_id as string);
      if (!request) throw new McpError(REFUSED, `No approval request ${String(args.request_id)} in ${backend.where}.`, { reason: 'unknown' });
      const shown = details(request, backend);
      return { text: terminalJson(shown), data: shown };
    },
  },
  {
    name: 'approve',
    description: `Approves a pending request (as its arguments are: read them with show_approval first). ${WRITES} The requester never approves their own call; an action with approvals_required needs that many people.`,
    writes: true,
    properties: {
      request_id: { type: 'string', description: 'The request id' },
      reason: { type: 'string', description: 'Why (optional; recorded)' },
      arguments: {
        type: 'string',
        description:
          'Approve with edits (optional): the arguments to run instead, as a JSON object; checked against the tool\u2019s schema and decided again by the policy (an edit into deny is refused)',
      },
      grant_hours: {
        type: 'number',
        description:
          'Also grant the same for this principal for this many hours (optional; at most the operator\u2019s limit), calls inside it run without a pause',
      },
      grant_bounds: { type: 'string', description: 'The grant\u2019s argument bounds, CTRLRun `when` entries as JSON (optional; e.g. {"amount_lte": 300000})' },
    },
    required: ['request_id'],
    run: async (args, backend) => answered(await backend.answer(args.request_id as string, approveBody(args))),
  },
  {
    name: 'reject',
    description: `Rejects a pending request; the run is told it was refused, with your message. ${WRITES}`,
    writes: true,
    properties: {
      request_id: { type: 'string', description: 'The request id' },
      message: { type: 'string', description: 'Why (required; the model reads it as the refusal)' },
    },
    required: ['request_id', 'message'],
    run: async (args, backend) => answered(await backend.answer(args.request_id as string, { decision: 'reject', reason: text(args.message) })),
  },
  {
    name: 'respond',
    description: `Answers a pending request in the tool\u2019s place: the call does not run, and the model reads your result as the tool\u2019s. ${WRITES}`,
    writes: true,
    properties: {
      request_id: { type: 'string', description: 'The request id' },
      result: { type: 'string', description: 'What the model reads as the tool\u2019s result (required)' },
      reason: { type: 'string', description: 'Why (optional; recorded)' },
    },
    required: ['request_id', 'result'],
    run: async (args, backend) =>
      answered(await backend.answer(args.request_id as string, { decision: 'respond', result: args.result, reason: text(args.reason) })),
  },
  {
    name: 'list_halts',
    description: 'Reads. The halts in force: what each stops (every call, a run, a principal, an action), soft or hard, who set it and why.',
    writes: false,
    properties: {},
    required: [],
    run: async (_args, backend) => {
      const halts = await backend.halts();
      return { text: halts.length === 0 ? `No halts in force in ${backend.where}.` : terminalJson(halts), data: { halts } };
    },
  },
  {
    name: 'halt',
    description: `Halts calls from the next one on, in every process of the store: every call, one run, one principal or one action. A soft halt tells the model the call was halted; a hard one ends its run. ${WRITES}`,
    writes: true,
    properties: {
      target: { type: 'string', enum: ['all', 'run', 'principal', 'action'], description: 'What to halt' },
      value: { type: 'string', description: 'The run id, principal or action id (none for all)' },
      reason: { type: 'string', description: 'Why (required; the model reads it)' },
      hard: { type: 'boolean', description: 'End the run of a halted call (default false)' },
    },
    required: ['target', 'reason'],
    run: async (args, backend) => halted(await backend.halt(args)),
  },
  {
    name: 'lift_halt',
    description: `Lifts a halt: calls run again from the next one. ${WRITES}`,
    writes: true,
    properties: {
      halt_id: { type: 'string', description: 'The halt id (from list_halts)' },
      reason: { type: 'string', description: 'Why (optional; recorded)' },
    },
    required: ['halt_id'],
    run: async (args, backend) => halted(await backend.lift(args.halt_id as string, text(args.reason))),
  },
  {
    name: 'list_grants',
    description:
      'Reads. The approval grants ("the same for N hours" given while approving): for whom, which action, the rule and bounds, who granted it, until when, revoked or not.',
    writes: false,
    properties: { active: { type: 'boolean', description: 'Only the grants in force now (default false: every grant)' } },
    required: [],
    run: async (args, backend) => {
      const grants = (await backend.grants(args.active === true)).map(grantView);
      return { text: grants.length === 0 ? `No approval grants in ${backend.where}.` : terminalJson(grants), data: { grants } };
    },
  },
  {
    name: 'revoke_grant',
    description: `Revokes an approval grant: the next call it would have covered pauses for a person again. Needs a role that may answer the grant\u2019s action. ${WRITES}`,
    writes: true,
    properties: { grant_id: { type: 'string', description: 'The grant id (from list_grants)' } },
    required: ['grant_id'],
    run: async (args, backend) => outcome(await backend.revokeGrant(args.grant_id as string), (g) => ({ grant: grantView(g) })),
  },
];

/** A grant as the console shows it: times as ISO text, the bounds parsed. */
function grantView(g: ApprovalGrant) {
  return {
    grant_id: g.id,
    principal: g.principal,
    action: g.action,
    rule: g.rule,
    bounds: parsed(g.bounds),
    granted_by: g.grantedBy,
    granted_at: new Date(g.grantedAt).toISOString(),
    expires_at: new Date(g.expiresAt).toISOString(),
    request_id: g.callId,
    ...(g.revokedAt === undefined ? {} : { revoked_at: new Date(g.revokedAt).toISOString(), revoked_by: g.revokedBy ?? null }),
  };
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function summary(r: ApprovalRequest) {
  return {
    request_id: r.callId,
    action: r.action,
    requested_by: r.principal,
    approvals: `${distinctApprovers(r).size}/${r.approvalsRequired}`,
    created_at: new Date(r.createdAt).toISOString(),
    arguments: parsed(r.args),
    ...(argsMatchHash(r) ? {} : { warning: 'these arguments are not the ones the request binds; nobody can answer it' }),
  };
}

function parsed(args: string): unknown {
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

/** A request with the rule that asked, from the console's policy when it is the one the request was made under. */
function details(request: ApprovalRequest, backend: ConsoleBackend) {
  const policy = backend.policy;
  const known = policy !== undefined && Object.hasOwn(policy.actions, request.action);
  const same = known && policy.hash === request.policyHash;
  let asked: Record<string, unknown> = { note: 'the console has no policy for this action' };
  if (known && same) {
    const ex = evaluate(policy, request.action, parsed(request.args));
    const action = policy.actions[request.action]!;
    asked = {
      decision: ex.decision,
      reason: ex.reason,
      ...(ex.ruleLoc ? { rule_at: `${ex.ruleLoc.file}:${ex.ruleLoc.line}` } : {}),
      conditions: ex.conditions.filter((c) => c.ruleIndex === ex.rule).map((c) => ({ key: c.key, expected: c.expected, actual: c.actual, held: c.held })),
      controls: action.controls.map((id) => ({ id, ...(policy.controls[id]?.title ? { title: policy.controls[id]!.title } : {}) })),
      roles_needed: rolesFor(policy, request.action),
    };
  } else if (known) {
    asked = { note: 'the request was made under another version of the policy than the console loaded (its hash differs)' };
  }
  return {
    ...summary(request),
    state: request.state,
    tool: request.toolName,
    args_hash: request.argsHash,
    policy_hash: request.policyHash,
    answers: request.answers.map((a) => ({
      by: a.approver,
      decision: a.decision,
      at: new Date(a.at).toISOString(),
      ...(a.reason ? { reason: a.reason } : {}),
    })),
    asked_by_policy: asked,
  };
}

/** A write's outcome as the tool's reply, or its refusal as a JSON-RPC error. */
function outcome<T>(done: Done<T>, data: (value: T) => Record<string, unknown>): Reply {
  if (done.ok) return { text: done.message, data: data(done.value) };
  const code =
    done.code === 'unattributed' ? NO_PRINCIPAL : done.code === 'role' ? NOT_ENTITLED : done.code.startsWith('bad_') ? ErrorCode.InvalidParams : REFUSED;
  throw new McpError(code, done.message, { reason: done.code });
}

/** An approval's body from the tool's arguments: an edit and a grant only when given. */
function approveBody(args: Record<string, unknown>): AnswerBody {
  const body: AnswerBody = { decision: 'approve', reason: text(args.reason) };
  if (typeof args.arguments === 'string' && args.arguments.trim() !== '') body.arguments = args.arguments;
  if (args.grant_hours !== undefined)
    body.grant = { hours: args.grant_hours, ...(text(args.grant_bounds) === undefined ? {} : { bounds: text(args.grant_bounds) }) };
  return body;
}

const answered = (done: Done<ApprovalRequest>) => outcome(done, (r) => ({ request: summary(r), state: r.state }));
const halted = (done: Done<Halt>) => outcome(done, (h) => ({ halt: h }));

/** Checks the arguments against the tool's schema (strings, booleans, the enum, required, nothing else). */
function checkArgs(tool: ConsoleTool, args: unknown): Record<string, unknown> {
  const given = args === undefined ? {} : args;
  if (typeof given !== 'object' || given === null || Array.isArray(given))
    throw new McpError(ErrorCode.InvalidParams, `${tool.name}: arguments are an object.`);
  const out = given as Record<string, unknown>;
  for (const [key, value] of Object.entries(out)) {
    const spec = tool.properties[key];
    if (!spec) throw new McpError(ErrorCode.InvalidParams, `${tool.name}: unknown argument ${JSON.stringify(key.slice(0, 40))}.`);
    if (typeof value !== spec.type || (spec.enum && !spec.enum.includes(value as string)))
      throw new McpError(ErrorCode.InvalidParams, `${tool.name}: ${key} is ${spec.enum ? `one of ${spec.enum.join(', ')}` : `a ${spec.type}`}.`);
  }
  for (const key of tool.required) {
    if (out[key] === undefined || (typeof out[key] === 'string' && (out[key] as string).trim() === ''))
      throw new McpError(ErrorCode.InvalidParams, `${tool.name}: ${key} is required.`);
  }
  return out;
}

/** The console's MCP server over `backend`; `operator`: the name its writes are recorded under (for the instructions), if any. */
export function operatorConsole(backend: ConsoleBackend, operator: string | undefined, log: (line: string) => void): Server {
  const server = new Server(
    { name: 'ctrlrun-operator', version: VERSION },
    {
      capabilities: { tools: {} },
      instructions: [
        `Answers paused calls and halts calls of ${backend.where}, as a person would in the inbox.`,
        operator
          ? `Every write is recorded under the operator ${operator} (the token this console runs with), never under a name given in a tool's arguments. For as long as this console runs, its client holds that operator's answers: confirm each write with the person.`
          : 'This console has no operator token: it reads, and refuses every write.',
      ].join(' '),
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: TOOLS.map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: { type: 'object' as const, properties: t.properties, required: t.required, additionalProperties: false },
      annotations: { readOnlyHint: !t.writes, destructiveHint: t.writes, idempotentHint: !t.writes, openWorldHint: false },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = TOOLS.find((t) => t.name === request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `No tool ${JSON.stringify(request.params.name.slice(0, 60))} here.`);
    const args = checkArgs(tool, request.params.arguments);
    try {
      // a write is attributed (or refused) by the backend itself, at the write: console-backend.ts
      const reply = await tool.run(args, backend);
      return { content: [{ type: 'text' as const, text: reply.text }], structuredContent: reply.data };
    } catch (error) {
      if (error instanceof McpError) {
        log(`mcp-operator: ${tool.name} refused (${error.code}): ${error.message}`);
        throw error;
      }
      // the store's or serve's failure: said on stderr, a generic error to the client
      log(`mcp-operator: ${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`);
      throw new McpError(ErrorCode.InternalError, `${tool.name} failed; the console's log (stderr) says why. Nothing was written.`);
    }
  });
  return server;
}

/** Serves the console on `transport` until it closes (a stdio client going away: stdin's end). */
export async function serveConsole(server: Server, transport: Transport): Promise<void> {
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(transport);
  await closed;
}
