import type { FileScan } from '../scan/types.js';
import { yamlScalar } from '../manifest/yaml-scalar.js';
import { hostedLabelsOf } from '../scan/names.js';
import { doorTools, type DoorTools } from './door-tools.js';
import { planHandoffs } from './handoff-doors.js';
import { planMcpConversions } from './mcp-conversions.js';
import { planSandboxAgents } from './sandbox-doors.js';
import type { DoorContext, DoorKind, DoorPlan } from './types.js';

export type { DoorContext, DoorPlan, ReplacedFactory } from './types.js';

const LOCAL: Record<string, { variant: string; defaultName: string; what: string }> = {
  shellTool: { variant: 'protectShellTool', defaultName: 'shell', what: 'shell tool' },
  applyPatchTool: { variant: 'protectApplyPatchTool', defaultName: 'apply_patch', what: 'apply_patch tool' },
  computerTool: { variant: 'protectComputerTool', defaultName: 'computer_use_preview', what: 'computer tool' },
};

/**
 * The rewrites of the other doors the SDK opens, as text splices like `tool()`'s:
 * `hostedMcpTool(` → `protectHostedMcp(`, `shellTool(`/`applyPatchTool(`/`computerTool(` →
 * `protect…Tool('<action>', `, `x.asTool(opts)` → `protectAgentTool('<action>', x, opts)`, an
 * unguarded server in `mcpServers: [s]` → `protectMcpServer(s)`, `new SandboxAgent(...)` →
 * `protectSandboxAgent(new SandboxAgent(...))` and `handoff(a, c)` → `protectHandoff('<action>', a, c)`. What cannot be rewritten (not
 * mapped, an inline gate that would be weakened, options check cannot read) is reported and left.
 */
export function planDoors(scan: FileScan, text: string, ctx: DoorContext): DoorPlan {
  const d = doorTools(text, ctx);
  planHostedMcp(scan, d);
  planLocalTools(scan, d);
  planAgentTools(scan, d);
  planMcpFetches(scan, d);
  planMcpWrappers(scan, d);
  planMcpConversions(scan, text, ctx, d.plan);
  planSandboxAgents(scan, d);
  planHandoffs(scan, d);
  return d.plan;
}

/** hostedMcpTool( → protectHostedMcp(, its requireApproval settled. */
function planHostedMcp(scan: FileScan, d: DoorTools): void {
  const { plan, ctx, at, left, remove, unreadable } = d;
  for (const call of scan.hostedMcpCalls) {
    const door: DoorKind = 'hostedMcpTool';
    // a label not written in place: those the file shows (the app's own helper's callers), each mapped
    const labels = hostedLabelsOf(call);
    const label = call.serverLabel ?? (labels.length > 0 ? labels.join(', ') : undefined);
    if (!call.callee) {
      left(door, call.span, 'unanalysable', 'hostedMcpTool is called through .call/.apply/Reflect.apply', 'Call it directly: `hostedMcpTool({ ... })`.', label);
      continue;
    }
    const bad = unreadable(call.options);
    if (bad) {
      left(door, call.span, 'unanalysable', bad, 'Write the options as an object literal with a literal `serverLabel`.', label);
      continue;
    }
    if (label === undefined) {
      left(
        door,
        call.span,
        'unanalysable',
        'the `serverLabel` is neither a string literal nor a value the file shows every value of',
        'Write the server label as a literal (or pass literals to the helper that makes it, in this file) so it can be mapped; or map each label (`- hosted_mcp: { server_label: <label> }`) and write `protectHostedMcp(...)` yourself: it refuses a label the manifest does not map.',
      );
      continue;
    }
    const unmapped = labels.filter((l) => !ctx.hostedLabels.has(l));
    if (unmapped.length > 0) {
      left(
        door,
        call.span,
        'unmapped',
        `the manifest maps no action to hosted MCP server${unmapped.length === 1 ? '' : 's'} ${unmapped.map((l) => `'${l}'`).join(', ')}`,
        `Add ${unmapped.map((l) => `\`- hosted_mcp: { server_label: ${yamlScalar(l)} }\``).join(', ')} with ${unmapped.length === 1 ? 'its' : 'their'} \`action:\` to ctrlrun.tools.yaml.`,
        label,
      );
      continue;
    }
    const onApproval = call.options.properties.onApproval;
    if (onApproval) {
      left(
        door,
        onApproval.span,
        'conflict',
        'its hand-written `onApproval` answers approvals in code; the policy could answer differently',
        'Move its condition into the policy (`decision: allow | approve | deny` with `when:`), remove `onApproval`, and run the codemod again.',
        label,
      );
      continue;
    }
    const removed: string[] = [];
    const ra = call.options.properties.requireApproval;
    if (ra && ra.identifier !== undefined) {
      // removing `requireApproval: mode` (or `{ requireApproval }`) would leave the variable unused
      left(
        door,
        ra.span,
        'unanalysable',
        'its `requireApproval` is held in a variable',
        'Remove `requireApproval` (every call of a protected hosted server goes to the policy) and the variable, then run the codemod again.',
        label,
      );
      continue;
    }
    if (ra && !(ra.valueKind === 'string' && ra.stringValue === 'always')) {
      // only ever stricter: every call now goes to the policy before OpenAI runs it
      remove(ra);
      removed.push('requireApproval');
    }
    plan.edits.push({ start: call.callee.start, end: call.callee.end, text: ctx.callee('protectHostedMcp') });
    plan.used.add('protectHostedMcp');
    plan.replaced.push({ factory: 'hostedMcpTool', binding: call.binding, start: call.span.start });
    plan.findings.push({
      kind: 'door-rewritten',
      ...at(call.span),
      door,
      name: label,
      to: call.serverLabel !== undefined ? `protectHostedMcp({ serverLabel: '${label}' })` : `protectHostedMcp(...) (labels ${label})`,
      removed,
    });
  }
}

/** shellTool(, applyPatchTool(, computerTool( → protect…Tool('<action>', . */
function planLocalTools(scan: FileScan, d: DoorTools): void {
  const { plan, text, ctx, at, left, unreadable, mappedAction, settleGate } = d;
  for (const call of scan.sdkFactoryCalls ?? []) {
    const local = LOCAL[call.factory];
    if (!local) continue;
    const door = call.factory as DoorKind;
    const p = call.options.properties;
    // a hosted (container) shell runs at OpenAI: protectShellTool refuses it (hosted-tool-ungated)
    if (call.factory === 'shellTool' && !call.options.hasSpread && p.environment !== undefined && p.shell === undefined) continue;
    const nameProp = p.name;
    const name = nameProp ? nameProp.stringValue : local.defaultName;
    if (call.indirect || call.argumentsStart === undefined) {
      left(
        door,
        call.span,
        'unanalysable',
        `${call.factory} is called through .call/.apply/Reflect.apply`,
        `Call it directly: \`${call.factory}({ ... })\`.`,
        name,
      );
      continue;
    }
    const bad = unreadable(call.options);
    if (bad) {
      left(door, call.span, 'unanalysable', bad, `Write the options as an object literal so it can become \`${local.variant}('<action>', { ... })\`.`, name);
      continue;
    }
    if (name === undefined) {
      left(door, call.span, 'unanalysable', 'its `name` is not a string literal', 'Write the name as a literal so it can be mapped.');
      continue;
    }
    const action = mappedAction(door, call.span, name, local.what);
    if (action === undefined) continue;
    if (
      call.factory === 'shellTool' &&
      p.environment &&
      !/type\s*:\s*['"`]local['"`]/.test(text.slice(p.environment.valueSpan.start, p.environment.valueSpan.end))
    ) {
      left(
        door,
        p.environment.span,
        'unanalysable',
        "its `environment` is not written as `{ type: 'local' }`",
        'protectShellTool guards a local shell only; write the environment as a literal, or drop it.',
        name,
      );
      continue;
    }
    if (p.onApproval) {
      left(
        door,
        p.onApproval.span,
        'conflict',
        'its hand-written `onApproval` answers approvals in code (no person is recorded); the policy could answer differently',
        `Move its condition into the policy (\`decision: approve\` for what a person must see), remove \`needsApproval\`/\`onApproval\`, and run the codemod again.`,
        name,
      );
      continue;
    }
    const removed = settleGate(door, call.options, action, name, 'keep the SDK tool');
    if (removed === undefined) continue;
    plan.edits.push({ start: call.callee.start, end: call.callee.end, text: ctx.callee(local.variant) });
    const sep = /\s/.test(text[call.argumentsStart] ?? '') || text[call.argumentsStart] === ')' ? ',' : ', ';
    plan.edits.push({ start: call.argumentsStart, end: call.argumentsStart, text: `${ctx.quoted(action)}${text[call.argumentsStart] === ')' ? '' : sep}` });
    plan.used.add(local.variant);
    plan.replaced.push({ factory: call.factory, binding: call.binding, start: call.span.start });
    plan.findings.push({ kind: 'door-rewritten', ...at(call.span), door, name, action, to: `${local.variant}('${action}')`, removed });
  }
}

/** x.asTool(opts) → protectAgentTool('<action>', x, opts). */
function planAgentTools(scan: FileScan, d: DoorTools): void {
  const { plan, text, ctx, at, left, unreadable, mappedAction, settleGate } = d;
  for (const call of scan.agentAsToolCalls ?? []) {
    const door: DoorKind = 'asTool';
    const name = call.toolName;
    // `asTool` reached through `.call`, `.apply`, `Reflect.apply` or as a value: no rewrite keeps its meaning
    if (call.indirect !== undefined) {
      left(
        door,
        call.span,
        'unanalysable',
        `asTool is reached ${call.indirect === 'value' ? 'as a value (bound, stored or passed on)' : `through ${call.indirect === 'reflect' ? '`Reflect.apply`' : `\`.${call.indirect}\``}`}`,
        'Call it on the agent: `agent.asTool({ toolName, ... })`.',
        name,
      );
      continue;
    }
    if (call.argumentCount > 1) {
      left(door, call.span, 'unanalysable', 'asTool() is given more than one argument', 'Pass one options object.', name);
      continue;
    }
    const bad = call.argumentCount === 1 ? unreadable(call.options) : undefined;
    if (bad) {
      left(
        door,
        call.span,
        'unanalysable',
        bad,
        "Write the options as an object literal so it can become `protectAgentTool('<action>', agent, { ... })`.",
        name,
      );
      continue;
    }
    if (name === undefined) {
      left(
        door,
        call.span,
        'unanalysable',
        "the tool's name is neither a literal `toolName` nor derived from the agent's literal `name`",
        'Give it a literal `toolName` so it can be mapped.',
      );
      continue;
    }
    const action = mappedAction(door, call.span, name, 'agent tool');
    if (action === undefined) continue;
    const removed = settleGate(door, call.options, action, name, 'keep it');
    if (removed === undefined) continue;
    const receiver = text.slice(call.receiver.start, call.receiver.end);
    // `x.asTool(` → `protectAgentTool('<action>', x, `: the receiver stays where it is (edits inside it survive)
    plan.edits.push({ start: call.receiver.start, end: call.receiver.start, text: `${ctx.callee('protectAgentTool')}(${ctx.quoted(action)}, ` });
    const next = text[call.argumentsStart];
    plan.edits.push({ start: call.receiver.end, end: call.argumentsStart, text: call.argumentCount === 0 ? '' : /\s/.test(next ?? '') ? ',' : ', ' });
    plan.used.add('protectAgentTool');
    plan.findings.push({
      kind: 'door-rewritten',
      ...at(call.span),
      door,
      name,
      action,
      to: `protectAgentTool('${action}', ${receiver.length <= 30 ? receiver : 'agent'})`,
      removed,
    });
  }
}

/** CTRLRun's TLS pins: a server of a pinned action is built with the generated module's pinned fetch. */
function planMcpFetches(scan: FileScan, d: DoorTools): void {
  const { plan, ctx, at } = d;
  const fetched = new Set<number>();
  for (const list of scan.mcpServerLists ?? []) {
    for (const el of list.elements) {
      if (el.serverName === undefined || !ctx.pinnedMcpServers.has(el.serverName) || !el.fetchInsert || fetched.has(el.fetchInsert.at)) continue;
      fetched.add(el.fetchInsert.at);
      const option = `fetch: ${ctx.callee('upstreamFetch')}(${ctx.quoted(el.serverName)}),`;
      plan.edits.push({
        start: el.fetchInsert.at,
        end: el.fetchInsert.at,
        text: el.fetchInsert.indent === null ? `${option} ` : `${option}\n${el.fetchInsert.indent}`,
      });
      plan.used.add('upstreamFetch');
      plan.findings.push({
        kind: 'door-rewritten',
        ...at(el.span),
        door: 'mcpServers',
        name: el.serverName,
        to: `fetch: upstreamFetch(${JSON.stringify(el.serverName)}) (its actions pin a TLS certificate)`,
        removed: [],
      });
    }
  }
}

/** An unguarded server in `mcpServers: [s]` → protectMcpServer(s). */
function planMcpWrappers(scan: FileScan, d: DoorTools): void {
  const { plan, ctx, at, left } = d;
  const wrapped = new Set<number>();
  for (const list of scan.mcpServerLists ?? []) {
    if (list.agentProtected) continue;
    for (const el of list.elements) {
      if (el.status === 'protected' || wrapped.has(el.span.start)) continue;
      const door: DoorKind = 'mcpServers';
      wrapped.add(el.span.start);
      if (el.status === 'opaque' || !el.inArray) {
        left(
          door,
          el.span,
          'unanalysable',
          'the codemod cannot follow this value to the server it holds',
          'Wrap the server where it is made: `protectMcpServer(new MCPServerStdio({ ... }))`.',
        );
        continue;
      }
      if (el.serverName === undefined) {
        left(
          door,
          el.span,
          'unanalysable',
          "the server's `name` is not a literal where it is made",
          'Give the server a literal `name` so its tools can be mapped.',
        );
        continue;
      }
      if (!ctx.mcpServers.has(el.serverName)) {
        left(
          door,
          el.span,
          'unmapped',
          `the manifest maps no tool of MCP server '${el.serverName}'`,
          `Add \`- mcp: { server: ${yamlScalar(el.serverName)}, tool: <tool> }\` with its \`action:\` for each tool to ctrlrun.tools.yaml (an unmapped tool is denied).`,
          el.serverName,
        );
        continue;
      }
      plan.edits.push(
        { start: el.span.start, end: el.span.start, text: `${ctx.callee('protectMcpServer')}(` },
        { start: el.span.end, end: el.span.end, text: ')' },
      );
      plan.used.add('protectMcpServer');
      plan.findings.push({
        kind: 'door-rewritten',
        ...at(el.span),
        door,
        name: el.serverName,
        to: `protectMcpServer(${el.text.length <= 30 ? el.text : 'server'})`,
        removed: [],
      });
    }
  }
}
