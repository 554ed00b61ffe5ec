import { yamlScalar } from '../manifest/yaml-scalar.js';
import type { FileScan, McpServerElement, SdkFactoryCall, Span } from '../scan/types.js';
import { removalRange, type TextEdit } from './edits.js';
import type { DoorContext, DoorKind, DoorPlan } from './types.js';

/**
 * The SDK's conversions of MCP tools to plain function tools, rewritten to the generated module's
 * protected ones (issue 35): `getAllMcpTools(...)` → `protectMcpTools(servers, options)` (same
 * promise of tools, each decided by the policy), `mcpToFunctionTool(tool, server, ...)` →
 * `protectMcpFunctionTool(tool, server, ...)` (same arguments). As a server in `mcpServers` is
 * wrapped only when the manifest maps a tool of it, a conversion is rewritten only when every
 * server it converts has a literal name the manifest maps (an unmapped tool is denied at run time,
 * so rewriting would turn a working feature off without a word); what cannot be rewritten is
 * reported and left.
 */
export function planMcpConversions(scan: FileScan, text: string, ctx: DoorContext, plan: DoorPlan): void {
  for (const call of scan.sdkFactoryCalls ?? []) {
    if (call.factory !== 'getAllMcpTools' && call.factory !== 'mcpToFunctionTool') continue;
    const door = call.factory as DoorKind;
    const left = (reason: 'unmapped' | 'conflict' | 'unanalysable', message: string, hint: string, name?: string) =>
      plan.findings.push({
        kind: 'door-left',
        file: ctx.fileAbs,
        line: call.span.line,
        column: call.span.column,
        door,
        reason,
        message,
        hint,
        ...(name !== undefined ? { name } : {}),
      });
    if (call.indirect || !call.args) {
      left('unanalysable', `${call.factory} is called through .call/.apply/Reflect.apply`, `Call it directly: \`${call.factory}(...)\`.`);
      continue;
    }
    const servers = serversProblem(call.mcpServers ?? [], ctx);
    if (servers.problem) {
      left(servers.problem.reason, servers.problem.message, servers.problem.hint, servers.problem.name);
      continue;
    }
    const edits = call.factory === 'getAllMcpTools' ? getAllEdits(call, text) : toFunctionEdits(call, text);
    if (typeof edits === 'string') {
      left(edits.startsWith('its errorFunction') ? 'conflict' : 'unanalysable', edits, CONVERSION_HINT[call.factory as 'getAllMcpTools']);
      continue;
    }
    const variant = call.factory === 'getAllMcpTools' ? 'protectMcpTools' : 'protectMcpFunctionTool';
    plan.edits.push({ start: call.callee.start, end: call.callee.end, text: ctx.callee(variant) }, ...edits.edits);
    plan.used.add(variant);
    plan.replaced.push({ factory: call.factory, binding: call.binding, start: call.span.start });
    plan.findings.push({
      kind: 'door-rewritten',
      file: ctx.fileAbs,
      line: call.span.line,
      column: call.span.column,
      door,
      name: servers.names.join(', '),
      to: `${variant}(…)`,
      removed: edits.removed,
    });
  }
}

const CONVERSION_HINT: Record<'getAllMcpTools' | 'mcpToFunctionTool', string> = {
  getAllMcpTools:
    'Write it as `getAllMcpTools({ mcpServers, convertSchemasToStrict, runContext, agent, includeServerInToolNames })` (options protectMcpTools takes), or `tools: await protectMcpTools([server])` by hand.',
  mcpToFunctionTool:
    'Call it as `mcpToFunctionTool(tool, server, convertSchemasToStrict, { toolNameOverride })`, or write `protectMcpFunctionTool(tool, server)` by hand.',
};

/** The names of the servers a conversion is given, or why it cannot be rewritten. */
function serversProblem(
  elements: readonly McpServerElement[],
  ctx: DoorContext,
):
  | { names: string[]; problem?: undefined }
  | { names?: undefined; problem: { reason: 'unmapped' | 'unanalysable'; message: string; hint: string; name?: string } } {
  if (elements.length === 0 || elements.some((e) => e.status === 'opaque' || e.serverName === undefined)) {
    return {
      problem: {
        reason: 'unanalysable',
        message: 'the codemod cannot follow its servers to a literal `name` the manifest could map',
        hint: "Give each server a literal `name` where it is made (`new MCPServerStdio({ name: 'github', ... })`) and pass it by that variable.",
      },
    };
  }
  const names = [...new Set(elements.map((e) => e.serverName!))];
  const unmapped = names.find((n) => !ctx.mcpServers.has(n));
  if (unmapped !== undefined) {
    return {
      problem: {
        reason: 'unmapped',
        message: `the manifest maps no tool of MCP server '${unmapped}'`,
        hint: `Add \`- mcp: { server: ${yamlScalar(unmapped)}, tool: <tool> }\` with its \`action:\` for each tool to ctrlrun.tools.yaml (\`ctrlrun-gen init --force\` proposes them for a server it can read), then run the codemod again.`,
        name: unmapped,
      },
    };
  }
  return { names };
}

/** protectMcpTools' options: what `getAllMcpTools` takes that it takes too. */
const CARRIED = new Set(['convertSchemasToStrict', 'runContext', 'agent', 'includeServerInToolNames']);

/**
 * `getAllMcpTools({ mcpServers: X, ...rest })` → `(X, { ...rest })` (or `(X)`), an `errorFunction:
 * null` dropped (protectMcpTools passes null itself); the positional form `getAllMcpTools(X,
 * runContext, agent, convertSchemasToStrict)` → `(X, { runContext, agent, convertSchemasToStrict })`.
 * A string: why it is left.
 */
function getAllEdits(call: SdkFactoryCall, text: string): { edits: TextEdit[]; removed: string[] } | string {
  const args = call.args!;
  const o = call.options;
  if (!o.span) return positionalEdits(args, text);
  if (args.length > 1) return 'it is given more arguments than its options';
  if (o.hasSpread) return 'its options spread other properties in (...), which the codemod cannot read';
  const props = Object.entries(o.properties);
  const servers = o.properties['mcpServers'];
  if (!servers) return 'its options have no `mcpServers`';
  const edits: TextEdit[] = [];
  const removed: string[] = [];
  for (const [name, prop] of props) {
    if (name === 'mcpServers' || CARRIED.has(name)) continue;
    if (name === 'errorFunction' && prop.valueKind === 'null') {
      removed.push('errorFunction: null');
      continue;
    }
    if (name === 'errorFunction') return 'its errorFunction turns a failed MCP call into text for the model; protectMcpTools reports failures itself';
    return `its option \`${name}\` has no counterpart in protectMcpTools`;
  }
  // a shorthand `{ mcpServers }`'s value span is the property itself: the variable's name
  const serversText = text.slice(servers.valueSpan.start, servers.valueSpan.end);
  const kept = props.filter(([name]) => CARRIED.has(name));
  if (kept.length === 0) return { edits: [{ start: o.span.start, end: o.span.end, text: serversText }], removed };
  for (const [name, prop] of props) {
    if (name === 'mcpServers' || (name === 'errorFunction' && prop.valueKind === 'null')) {
      const [s, e] = removalRange(text, prop.span.start, prop.span.end);
      edits.push({ start: s, end: e, text: '' });
    }
  }
  edits.push({ start: o.span.start, end: o.span.start, text: `${serversText}, ` });
  return { edits, removed };
}

/** The positional form: the servers first, then what protectMcpTools takes as options. */
function positionalEdits(args: Span[], text: string): { edits: TextEdit[]; removed: string[] } {
  const names = ['runContext', 'agent', 'convertSchemasToStrict'];
  const rest = args.slice(1, 4).map((a, i) => `${names[i]}: ${text.slice(a.start, a.end)}`);
  if (rest.length === 0) return { edits: [], removed: [] };
  const first = args[0]!;
  const last = args[args.length - 1]!;
  return { edits: [{ start: first.end, end: last.end, text: `, { ${rest.join(', ')} }` }], removed: [] };
}

/**
 * `mcpToFunctionTool(tool, server, strict, options)` keeps its arguments; options other than
 * `toolNameOverride` and `errorFunction: null` have no counterpart. A string: why it is left.
 */
function toFunctionEdits(call: SdkFactoryCall, text: string): { edits: TextEdit[]; removed: string[] } | string {
  const args = call.args!;
  if (args.length < 2) return 'it is not given a tool and its server';
  if (args.length > 4) return 'it is given more arguments than mcpToFunctionTool takes';
  const options = args[3];
  if (!options) return { edits: [], removed: [] };
  const written = text.slice(options.start, options.end);
  if (!/^\{[\s\S]*\}$/.test(written.trim()) || written.includes('...')) return 'its options are not an object literal the codemod can read';
  const keys = [...written.matchAll(/(?:^|[{,]\s*)([A-Za-z_$][\w$]*)\s*:/g)].map((m) => m[1]!);
  const bad = keys.find((k) => k !== 'toolNameOverride' && k !== 'errorFunction');
  if (bad !== undefined) return `its option \`${bad}\` has no counterpart in protectMcpFunctionTool`;
  if (/errorFunction\s*:/.test(written) && !/errorFunction\s*:\s*null\b/.test(written))
    return 'its errorFunction turns a failed MCP call into text for the model; protectMcpFunctionTool reports failures itself';
  return { edits: [], removed: [] };
}
