import { toJavaScript, type OutputKind } from '../generate/javascript.js';
import { isRealtimeEntry } from '../scan/realtime.js';
import { sdkToolName } from '../runtime/tool-name.js';
import type { McpServerLaunch, RepoScan } from '../scan/types.js';
import { hostedLabelsOf } from '../scan/names.js';
import { doorManifestLines, doorPolicyLines, planDoors, type FoundDoor, type PlannedDoor } from './doors.js';
import type { McpToolsFound } from './mcp-tools.js';
import { DEFAULT_IDENTITY, identitySource, type IdentityProposal } from './identity.js';

/** One SDK tool name found in the repo, with every place it is declared. */
export interface FoundTool {
  name: string;
  /** For a `tool()` declaration: whether its `tool` comes from a realtime entry (absent for a `protectedTool`). */
  places: Array<{ file: string; line: number; realtime?: boolean }>;
  /** `agent`: an agent run as a tool (`agent.asTool()`), named in the policy's comment. */
  kind?: 'agent';
  /** Set for a tool already protected: `protectedTool('<action>', { name })`. */
  protectedAs?: string;
  /**
   * Some declaration comes from a realtime entry (`@openai/agents/realtime`): the tool runs in a
   * realtime session, usually in a browser. Derived from `places`: a package that has a tool of the
   * same name only outside a realtime session must not inherit it (see {@link realtimeUse}).
   */
  realtime?: boolean;
}

export interface PlannedTool extends FoundTool {
  action: string;
  renamedFrom?: string;
  /** The action is new: the policy gets it (`decision: approve`). False when the policy has it already or another tool added it. */
  addAction: boolean;
}

/** A hosted MCP server (`hostedMcpTool({ serverLabel })`) or an MCP server of `mcpServers` with a literal name. */
export interface FoundServer {
  name: string;
  places: Array<{ file: string; line: number }>;
  /** An MCP server's literal launch options (the first place that has them): init links it to a definition, or asks it. */
  launch?: McpServerLaunch;
}

/** A tool of an MCP server init can name (its registrations in the repo, or the server's own listing), to map. */
export interface PlannedMcpTool {
  server: string;
  tool: string;
  action: string;
  addAction: boolean;
  /** Where init read the tool (`src/mcp/server.ts:12`, `listed by starting it`). */
  source: string;
}

/** A hosted MCP server to map: every call it asks to approve is one action. */
export interface PlannedHosted extends FoundServer {
  action: string;
  addAction: boolean;
}

export interface InitPlan {
  /** Tools to map (not yet in the manifest). */
  tools: PlannedTool[];
  /** Hosted MCP servers to map (`- hosted_mcp: { server_label }`), not yet in the manifest. */
  hosted?: PlannedHosted[];
  /**
   * MCP servers (`mcpServers`) the manifest maps no tool of: their tools are listed only at run
   * time, so init proposes the entries' shape in a comment instead of guessing tool names.
   */
  mcpServers?: FoundServer[];
  /** Tools of MCP servers init can name (issue 35): a `- mcp: { server, tool }` entry and an action each. */
  mcpTools?: PlannedMcpTool[];
  /** Calls whose name is not a literal that init does not map (an agent tool, a hosted MCP server with no label it can read). */
  unnamed: Array<{ file: string; line: number; reason?: string; what?: string; container?: string }>;
  /** tool() calls whose name the code computes: mapped by their place. */
  computed?: PlannedComputed[];
  /** Tool names the manifest already maps (kept as they are). */
  kept: string[];
  /** SandboxAgent capability tools (`- sandbox: { tool }`) and handoffs (`- handoff: { to }`) to map (init/doors.ts). */
  sandbox?: PlannedDoor[];
  handoffs?: PlannedDoor[];
  /** SandboxAgents whose tools init cannot list (a custom capability, configureTools). */
  sandboxUnlisted?: Array<{ file: string; line: number; reason: string }>;
  /**
   * Tools left unmapped because the SDK gives them the same name as a tool mapped before them
   * (`send email` and `send_email` are both `send_email`): the manifest refuses such a pair.
   */
  clashes?: Array<FoundTool & { sameAs: string }>;
}

/**
 * A `tool()` whose name the code computes (`flows.map((f) => tool({ name: f.name }))`), mapped by
 * its place (`tool: { at, names }`, issue 40, item 5): one action for every tool it makes.
 */
export interface PlannedComputed {
  file: string;
  /** The top-level declaration the calls are in, when the file has computed calls in several. */
  in?: string;
  /** Where the calls are (`file:line`), for the notes. */
  lines: number[];
  action: string;
  addAction: boolean;
}

/** What `init --force` keeps: the policy's actions and the manifest's tool mappings. */
export interface ExistingSetup {
  actions: ReadonlySet<string>;
  /** tool name -> action */
  mapped: ReadonlyMap<string, string>;
  /** hosted MCP server label -> action (`hosted_mcp` entries) */
  hostedMapped?: ReadonlyMap<string, string>;
  /** MCP servers some `mcp` entry maps a tool of */
  mcpMapped?: ReadonlySet<string>;
  /** The places `tool: { at, in }` entries map. */
  computedSites?: ReadonlyArray<{ file: string; in?: string }>;
  /** Capability tools a `sandbox` entry maps, and handoff targets a `handoff` entry maps. */
  sandboxMapped?: ReadonlySet<string>;
  handoffMapped?: ReadonlySet<string>;
  /** `server` NUL `tool` of each `mcp` entry */
  mcpToolsMapped?: ReadonlySet<string>;
}

/** The doors init finds besides tools: MCP servers (and their tools), SandboxAgent capability tools, handoffs. */
export interface FoundDoors {
  hosted: FoundServer[];
  mcp: FoundServer[];
  mcpTools?: readonly McpToolsFound[];
  sandbox?: FoundDoor[];
  handoffs?: FoundDoor[];
  sandboxUnlisted?: Array<{ file: string; line: number; reason: string }>;
}

/** The key of an MCP tool in `ExistingSetup.mcpToolsMapped`. */
export const mcpToolKey = (server: string, tool: string): string => `${server}\u0000${tool}`;

const NOTHING: ExistingSetup = { actions: new Set(), mapped: new Map() };

/** The SDK's local execution tool factories and the name each tool gets without a `name` option. */
const LOCAL_DOOR_NAMES: Record<string, string> = { shellTool: 'shell', applyPatchTool: 'apply_patch', computerTool: 'computer_use_preview' };

/**
 * Groups the repo's SDK tool() calls by literal name, in a stable order (first appearance by file,
 * line); then the names of tools already protected by `protectedTool` (with their action), so a
 * second `init` keeps them.
 */
export function findTools(scan: RepoScan): { tools: FoundTool[]; unnamed: InitPlan['unnamed'] } {
  const byName = new Map<string, FoundTool>();
  const unnamed: InitPlan['unnamed'] = [];
  const files = [...scan.files].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const add = (name: string, place: { file: string; line: number; realtime?: boolean }, protectedAs?: string) => {
    const found = byName.get(name) ?? { name, places: [] };
    found.places.push(place);
    if (protectedAs !== undefined && found.protectedAs === undefined) found.protectedAs = protectedAs;
    byName.set(name, found);
  };
  for (const file of files) {
    for (const call of file.sdkToolCalls) {
      if (call.name === undefined)
        unnamed.push({
          file: file.file,
          line: call.span.line,
          ...(call.nameUnresolved !== undefined ? { reason: call.nameUnresolved } : {}),
          ...(call.container !== undefined ? { container: call.container } : {}),
        });
      else {
        const realtime = isRealtimeEntry(call.binding.module);
        add(call.name, { file: file.file, line: call.span.line, realtime });
        if (realtime) byName.get(call.name)!.realtime = true;
      }
    }
  }
  // the SDK's local execution tools (shell, apply_patch, computer): mapped like function tools, by the name the SDK gives them
  for (const file of files) {
    for (const call of file.sdkFactoryCalls ?? []) {
      const fallback = LOCAL_DOOR_NAMES[call.factory];
      if (fallback === undefined || call.indirect !== undefined) continue;
      const p = call.options.properties;
      if (call.factory === 'shellTool' && !call.options.hasSpread && p.environment !== undefined && p.shell === undefined) continue; // a hosted shell
      const written = p.name?.stringValue;
      if (p.name !== undefined && written === undefined) continue; // a name init cannot read
      add(written ?? fallback, { file: file.file, line: call.span.line });
    }
  }
  for (const file of files) {
    for (const call of file.protectedToolCalls) {
      const name = call.name ?? call.options.properties.name?.stringValue;
      if (name !== undefined && call.action !== undefined) add(name, { file: file.file, line: call.span.line }, call.action);
    }
  }
  // agents as tools (`agent.asTool({ toolName })`): mapped like function tools, by the tool's name (a
  // literal toolName, else the SDK's name from the agent's literal name), the form the codemod reads
  for (const file of files) {
    for (const call of file.agentAsToolCalls ?? []) {
      if (call.toolName === undefined) {
        unnamed.push({ file: file.file, line: call.span.line, what: 'asTool()' });
        continue;
      }
      const known = byName.has(call.toolName);
      add(call.toolName, { file: file.file, line: call.span.line });
      if (!known) byName.get(call.toolName)!.kind = 'agent';
    }
  }
  // a hosted MCP server with no literal label cannot be mapped: said, not silently left (issue 21)
  for (const file of files) {
    for (const call of file.hostedMcpCalls) {
      if (call.serverLabel !== undefined || (call.serverLabels ?? []).length > 0) continue;
      const reason = call.options.hasSpread
        ? 'its options are spread in (`{ ...config }`), so its `serverLabel` cannot be read'
        : !call.options.span
          ? 'its options are not an object literal'
          : 'its `serverLabel` is neither a string literal nor a value this file shows every value of (a parameter of a helper whose calls pass literals)';
      unnamed.push({ file: file.file, line: call.span.line, what: 'hostedMcpTool()', reason });
    }
  }
  return { tools: [...byName.values()], unnamed };
}

/**
 * Where a package's tools run, from their `tool()` declarations (places already narrowed to that
 * package; a `protectedTool` place says nothing): `realtime` when every declaration comes from a
 * realtime entry, `mixed` when only some do, else undefined. Read from the places, never from
 * `FoundTool.realtime`: that one is repo-wide, and a workspace where a realtime package and a Node
 * package both declare `get_weather` gave the Node package an httpStore control (seen on the SDK's
 * examples).
 */
export function realtimeUse(tools: Array<Pick<FoundTool, 'places'>>): 'realtime' | 'mixed' | undefined {
  const flags = tools.flatMap((t) => t.places.map((p) => p.realtime).filter((r): r is boolean => r !== undefined));
  if (!flags.includes(true)) return undefined;
  return flags.every((r) => r) ? 'realtime' : 'mixed';
}

/**
 * The MCP doors init can name: hosted MCP servers by their literal `serverLabel`, and servers that
 * reach an agent's `mcpServers` by the literal `name` they are made with. Stable order (file, line).
 */
export function findServers(scan: RepoScan): { hosted: FoundServer[]; mcp: FoundServer[] } {
  const hosted = new Map<string, FoundServer>();
  const mcp = new Map<string, FoundServer>();
  const add = (into: Map<string, FoundServer>, name: string, place: { file: string; line: number }, launch?: McpServerLaunch) => {
    const found: FoundServer = into.get(name) ?? { name, places: [] };
    if (!found.places.some((p) => p.file === place.file && p.line === place.line)) found.places.push(place);
    if (launch && !found.launch) found.launch = launch;
    into.set(name, found);
  };
  const files = [...scan.files].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  for (const file of files) {
    for (const call of file.hostedMcpCalls) for (const label of hostedLabelsOf(call)) add(hosted, label, { file: file.file, line: call.span.line });
    // the servers of `mcpServers`, and those whose tools getAllMcpTools / mcpToFunctionTool convert
    const elements = [...(file.mcpServerLists ?? []).flatMap((l) => l.elements), ...(file.sdkFactoryCalls ?? []).flatMap((c) => c.mcpServers ?? [])];
    for (const element of elements) {
      if (element.serverName !== undefined) add(mcp, element.serverName, { file: file.file, line: element.span.line }, element.launch);
    }
  }
  return { hosted: [...hosted.values()], mcp: [...mcp.values()] };
}

/**
 * `checkEligibilityAndPossiblyInitiateReturn` → `check_eligibility_and_possibly_initiate_return`,
 * `Refund Expert` → `refund_expert`, `getHTTPStatus` → `get_http_status`: snake_case words; never
 * empty; only the characters an action id allows (dots kept: `stripe.refund`).
 */
export function actionIdFor(toolName: string): string {
  const id = toolName
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9_.]+/g, '_')
    .replace(/_*\._*/g, '.')
    .replace(/_{2,}/g, '_')
    .replace(/^[^a-z0-9]+/, '')
    .replace(/[^a-z0-9]+$/, '');
  return id === '' ? 'tool' : id;
}

/**
 * Derives one action per tool name the manifest does not map yet: a protected tool keeps the
 * action it is protected as; any other gets an id from its name, a collision (with the policy's
 * actions too) a numeric suffix that remembers why. Mapped names and existing actions are kept.
 */
export function planActions(
  found: { tools: FoundTool[]; unnamed: InitPlan['unnamed'] },
  existing: ExistingSetup = NOTHING,
  servers: FoundDoors = { hosted: [], mcp: [] },
): InitPlan {
  const taken = new Set<string>(existing.actions);
  const kept: string[] = [];
  const tools: PlannedTool[] = [];
  // protected tools first: their action ids are fixed by the code
  const ordered = [...found.tools.filter((t) => t.protectedAs !== undefined), ...found.tools.filter((t) => t.protectedAs === undefined)];
  const planned = new Map<string, PlannedTool>();
  // the name the model sees, for each name mapped so far: two tools the SDK names alike are refused by the manifest
  const seen = new Map<string, string>([...existing.mapped.keys()].map((name) => [sdkToolName(name), name]));
  const clashes: NonNullable<InitPlan['clashes']> = [];
  for (const tool of ordered) {
    if (existing.mapped.has(tool.name)) {
      kept.push(tool.name);
      continue;
    }
    const sameAs = seen.get(sdkToolName(tool.name));
    if (sameAs !== undefined) {
      clashes.push({ ...tool, sameAs });
      continue;
    }
    seen.set(sdkToolName(tool.name), tool.name);
    if (tool.protectedAs !== undefined) {
      const addAction = !taken.has(tool.protectedAs);
      taken.add(tool.protectedAs);
      planned.set(tool.name, { ...tool, action: tool.protectedAs, addAction });
      continue;
    }
    const base = actionIdFor(tool.name);
    let action = base;
    for (let n = 2; taken.has(action); n++) action = `${base}_${n}`;
    taken.add(action);
    planned.set(tool.name, action === base ? { ...tool, action, addAction: true } : { ...tool, action, renamedFrom: base, addAction: true });
  }
  for (const tool of found.tools) {
    const p = planned.get(tool.name);
    if (p) tools.push(p);
  }
  // a hosted MCP server: one action for every call it asks to approve (`<label>.call`)
  const hosted: PlannedHosted[] = [];
  for (const server of servers.hosted) {
    if (existing.hostedMapped?.has(server.name)) {
      kept.push(`hosted_mcp ${server.name}`);
      continue;
    }
    const base = `${actionIdFor(server.name)}.call`;
    let action = base;
    for (let n = 2; taken.has(action); n++) action = `${base}_${n}`;
    taken.add(action);
    hosted.push({ ...server, action, addAction: true });
  }
  const mcpTools = planMcpTools(servers.mcp, servers.mcpTools ?? [], existing, taken);
  const named = new Set(mcpTools.map((t) => t.server));
  // a server whose tools init named (or that is mapped already) gets no commented example
  const mcpServers = servers.mcp.filter(
    (s) => !existing.mcpMapped?.has(s.name) && !named.has(s.name) && !(servers.mcpTools ?? []).some((f) => f.server === s.name),
  );
  const doors = planDoors(servers, existing, taken, kept);
  const { computed, unnamed } = planComputed(found.unnamed, existing, taken);
  return {
    tools,
    unnamed,
    ...(computed.length > 0 ? { computed } : {}),
    kept,
    ...(doors.sandbox.length > 0 ? { sandbox: doors.sandbox } : {}),
    ...(doors.handoffs.length > 0 ? { handoffs: doors.handoffs } : {}),
    ...((servers.sandboxUnlisted ?? []).length > 0 ? { sandboxUnlisted: servers.sandboxUnlisted } : {}),
    ...(hosted.length > 0 ? { hosted } : {}),
    ...(mcpServers.length > 0 ? { mcpServers } : {}),
    ...(mcpTools.length > 0 ? { mcpTools } : {}),
    ...(clashes.length > 0 ? { clashes } : {}),
  };
}

/**
 * The tool() calls whose names the code computes, mapped by their place: one entry for a file with
 * one such call, or whose calls are not all in top-level declarations of their own; else one per
 * declaration (`in: flowTools`). The action is named after the declaration (`flow_tools`) or the
 * file (`flows_tools`). A place an entry maps already is kept. Agent tools and hosted MCP servers
 * without a readable name stay notes.
 */
function planComputed(
  unnamed: InitPlan['unnamed'],
  existing: ExistingSetup,
  taken: Set<string>,
): { computed: PlannedComputed[]; unnamed: InitPlan['unnamed'] } {
  const computed: PlannedComputed[] = [];
  const left = unnamed.filter((u) => u.what !== undefined);
  const byFile = new Map<string, InitPlan['unnamed']>();
  for (const u of unnamed) if (u.what === undefined) byFile.set(u.file, [...(byFile.get(u.file) ?? []), u]);
  const mapped = (file: string, container: string | undefined) =>
    (existing.computedSites ?? []).some((s) => s.file === file && (s.in === undefined || s.in === container));
  for (const [file, calls] of byFile) {
    const todo = calls.filter((c) => !mapped(file, c.container));
    if (todo.length === 0) continue;
    const containers = [...new Set(todo.map((c) => c.container))];
    const perDeclaration = calls.length > 1 && containers.every((c) => c !== undefined);
    const groups = perDeclaration ? containers.map((c) => todo.filter((t) => t.container === c)) : [todo];
    for (const group of groups) {
      const container = group[0]!.container;
      const base = actionIdFor(container ?? `${file.replace(/^.*\//, '').replace(/\.[^.]+$/, '')}_tools`);
      let action = base;
      for (let n = 2; taken.has(action); n++) action = `${base}_${n}`;
      taken.add(action);
      computed.push({
        file,
        ...(perDeclaration && container !== undefined ? { in: container } : {}),
        lines: group.map((g) => g.line),
        action,
        addAction: true,
      });
    }
  }
  return { computed, unnamed: left };
}

/** One action per MCP tool init can name and the manifest does not map yet: `<server>.<tool>`, at `decision: approve`. */
function planMcpTools(clients: readonly FoundServer[], found: readonly McpToolsFound[], existing: ExistingSetup, taken: Set<string>): PlannedMcpTool[] {
  const out: PlannedMcpTool[] = [];
  for (const f of found) {
    if (!clients.some((c) => c.name === f.server)) continue;
    for (const tool of f.tools) {
      if (existing.mcpToolsMapped?.has(mcpToolKey(f.server, tool))) continue;
      const base = `${actionIdFor(f.server)}.${actionIdFor(tool)}`;
      let action = base;
      for (let n = 2; taken.has(action); n++) action = `${base}_${n}`;
      taken.add(action);
      out.push({ server: f.server, tool, action, addAction: true, source: f.source });
    }
  }
  return out;
}

/** YAML scalar: plain when unambiguous, else double-quoted (JSON strings are valid YAML). */
export function yamlString(value: string): string {
  return /^[A-Za-z_][A-Za-z0-9_./-]*$/.test(value) && !/^(true|false|null|yes|no|on|off|y|n|~)$/i.test(value) ? value : JSON.stringify(value);
}

const where = (tool: FoundTool): string => tool.places.map((p) => `${p.file}:${p.line}`).join(', ');

export function renderPolicy(plan: InitPlan): string {
  const lines = [
    '# yaml-language-server: $schema=./node_modules/ctrlrun-gen/policy.schema.json',
    '#',
    '# Written by `ctrlrun-gen init`. Every tool the model can call is an action below, and every',
    '# action starts at `decision: approve`: nothing new runs without a human saying yes.',
    '# To loosen it, give an action `decision: allow` (runs on its own) or `rules:` with conditions on',
    '# its arguments, e.g.',
    '#   rules:',
    '#     - when: { amount_lte: 10000 }',
    '#       decision: allow',
    '#     - decision: approve',
    '# Add `effect: "refund:{payment_id}"` to an action that must never run twice for the same key.',
    '# Reference: node_modules/ctrlrun-gen/docs/policy.md. Check a change with `npx ctrlrun-gen explain`.',
    'schema: ctrlrun.policy/v6',
    'mode: enforce',
    'actions:',
  ];
  const added = plan.tools.filter((t) => t.addAction);
  const hosted = (plan.hosted ?? []).filter((h) => h.addAction);
  const computed = (plan.computed ?? []).filter((c) => c.addAction);
  const doors = doorPolicyLines(plan, yamlString);
  const mcpTools = (plan.mcpTools ?? []).filter((t) => t.addAction);
  if (added.length === 0 && hosted.length === 0 && computed.length === 0 && doors.length === 0 && mcpTools.length === 0)
    lines[lines.length - 1] = 'actions: {}';
  for (const tool of added) {
    lines.push(
      tool.kind === 'agent'
        ? `  # agent tool ${JSON.stringify(tool.name)} (asTool at ${where(tool)}): a call runs that agent; its own tools still go through their own actions`
        : `  # tool ${JSON.stringify(tool.name)} at ${where(tool)}`,
    );
    if (tool.renamedFrom) lines.push(`  # (named ${tool.action}: ${tool.renamedFrom} was taken by another tool)`);
    lines.push(`  ${yamlString(tool.action)}:`, '    decision: approve');
  }
  for (const server of hosted) {
    lines.push(`  # hosted MCP server ${JSON.stringify(server.name)} (hostedMcpTool at ${where(server)}): every call it asks to approve`);
    lines.push(`  ${yamlString(server.action)}:`, '    decision: approve');
  }
  for (const c of computed) {
    lines.push(`  # the tools the tool() at ${computedWhere(c)} makes (their names computed)`);
    lines.push(`  ${yamlString(c.action)}:`, '    decision: approve');
  }
  for (const t of mcpTools) {
    lines.push(`  # tool ${JSON.stringify(t.tool)} of MCP server ${JSON.stringify(t.server)} (${t.source})`);
    lines.push(`  ${yamlString(t.action)}:`, '    decision: approve');
  }
  lines.push(...doors);
  return `${lines.join('\n')}\n`;
}

/** Where the calls of a planned entry are: `src/flows.ts:12`, `src/flows.ts:12, 30`. */
export function computedWhere(c: PlannedComputed): string {
  return `${c.file}:${c.lines.join(', ')}`;
}

/** The manifest entry of a computed-name tool() (a flow mapping, valid YAML in a block list). */
export function computedEntry(c: PlannedComputed): { head: string; comment: string } {
  return {
    comment: `tool() at ${computedWhere(c)} makes tools whose names the code computes: narrow \`names\` to the names they take (\`flow_*\`)`,
    head: `tool: { at: ${JSON.stringify(c.file)}${c.in !== undefined ? `, in: ${c.in}` : ''}, names: "*" }`,
  };
}

export function renderManifest(plan: InitPlan, paths: { output: string; control: string }): string {
  const lines = [
    '# yaml-language-server: $schema=./node_modules/ctrlrun-gen/manifest.schema.json',
    '# Written by `ctrlrun-gen init`: which SDK tool is which policy action.',
    'schema: ctrlrun.tools/v1',
    'policy: ctrlrun.yaml',
    `output: ${yamlString(paths.output)}`,
    `control: ${yamlString(paths.control)}`,
    plan.tools.length === 0 &&
    (plan.hosted ?? []).length === 0 &&
    (plan.mcpTools ?? []).length === 0 &&
    (plan.sandbox ?? []).length === 0 &&
    (plan.handoffs ?? []).length === 0 &&
    (plan.computed ?? []).length === 0
      ? 'tools: []'
      : 'tools:',
  ];
  for (const tool of plan.tools) {
    lines.push(`  # ${where(tool)}`, `  - tool: ${yamlString(tool.name)}`, `    action: ${yamlString(tool.action)}`);
  }
  for (const server of plan.hosted ?? []) {
    lines.push(
      `  # hostedMcpTool at ${where(server)}`,
      `  - hosted_mcp: { server_label: ${yamlString(server.name)} }`,
      `    action: ${yamlString(server.action)}`,
    );
  }
  for (const c of plan.computed ?? []) {
    const e = computedEntry(c);
    lines.push(`  # ${e.comment}`, `  - ${e.head}`, `    action: ${yamlString(c.action)}`);
  }
  for (const t of plan.mcpTools ?? []) {
    lines.push(
      `  # MCP server ${JSON.stringify(t.server)}: ${t.source}`,
      `  - mcp: { server: ${yamlString(t.server)}, tool: ${yamlString(t.tool)} }`,
      `    action: ${yamlString(t.action)}`,
    );
  }
  for (const place of plan.unnamed) {
    lines.push(`  # not mapped: the ${place.what ?? 'tool()'} at ${place.file}:${place.line} has no literal name`);
  }
  for (const tool of plan.clashes ?? []) {
    lines.push(
      `  # not mapped: tool ${JSON.stringify(tool.name)} at ${where(tool)} is ${sdkToolName(tool.name)} to the model, as ${JSON.stringify(tool.sameAs)} is: rename one`,
    );
  }
  lines.push(...doorManifestLines(plan, yamlString));
  lines.push(...mcpServerComments(plan));
  return `${lines.join('\n')}\n`;
}

/**
 * The proposed entries for MCP servers, as comments: a server lists its tools only at run time,
 * so the tool names are the operator's to fill in (a listed tool no entry maps is denied).
 */
export function mcpServerComments(plan: InitPlan): string[] {
  const lines: string[] = [];
  for (const server of plan.mcpServers ?? []) {
    const id = actionIdFor(server.name);
    lines.push(
      `  # MCP server ${JSON.stringify(server.name)} (mcpServers at ${where(server)}): map each tool it lists, by the name the server gives it;`,
      '  # a tool no entry maps is denied (unknown_action). For example:',
      `  # - mcp: { server: ${yamlString(server.name)}, tool: <tool> }`,
      `  #   action: ${id}.<tool>`,
    );
  }
  return lines;
}

/**
 * The control module: TypeScript, or JavaScript (ESM or CommonJS) for a project without TypeScript.
 * `remote`: the tools run where SQLite and Postgres are out of reach (a realtime session in a
 * browser page, an edge runtime), so the store is `httpStore` against `ctrlrun-gen serve`.
 */
export function renderControl(kind: OutputKind = 'ts', options: { remote?: RemoteRuntime; identity?: IdentityProposal } = {}): string {
  const identity = options.identity ?? DEFAULT_IDENTITY;
  const source = options.remote ? remoteControlSource(options.remote, identity) : controlSource(identity);
  return kind === 'ts' ? source : toJavaScript(source, kind);
}

/** Where the tools run when the SQLite and Postgres stores cannot: a realtime session (browser), an edge runtime. */
export type RemoteRuntime = 'realtime' | 'edge';

function remoteControlSource(remote: RemoteRuntime, identity: IdentityProposal): string {
  const where =
    remote === 'realtime'
      ? `// Your tools run in a realtime session, usually in the browser, where SQLite and Postgres are out
// of reach: the ledger is kept by \`npx ctrlrun-gen serve --cors-origin <your app's origin>\` and
// reached over HTTP with a runtime token (\`npx ctrlrun-gen operators add web-agent --runtime\`),
// which may file requests but never approve. Hand it only to signed-in users.`
      : `// Your tools run on an edge runtime (Cloudflare Workers, a Next.js or Vercel edge route), where the SQLite and Postgres
// drivers do not load: the ledger is kept by \`npx ctrlrun-gen serve\` (behind TLS where the edge
// can reach it) and reached over HTTP with a runtime token
// (\`npx ctrlrun-gen operators add edge-agent --runtime\`), which may file requests but never approve.
// Keep the token in a secret (wrangler secret put, an environment variable), not in the code.`;
  const pause =
    remote === 'realtime'
      ? `// A call the policy sends to a person pauses with the session's \`tool_approval_requested\` event
// and is filed on serve as it pauses; once an operator answered, apply the answer with
// \`control.resolveRealtime(session, event.approvalItem)\`.`
      : `// A call the policy sends to a person pauses the run and is filed on serve as it pauses (keep
// \`result.state\`, or \`await control.request(result.state)\`, which also returns the pending
// requests); once an operator answered, \`await control.resolve(state)\` and run the state again.`;
  return `// The operator's control: where approvals, effects and receipts are kept, and who a run acts for.
// Written by \`ctrlrun-gen init\`; it is yours to edit (the generated module imports its default export).
import { createControl, httpStore } from 'ctrlrun-gen/runtime';

${where}
// CHANGE THESE: from your app's configuration. Until then every protected call fails closed.
const SERVE_URL = 'http://127.0.0.1:8787';
const RUNTIME_TOKEN = 'crg_rt_CHANGE_ME';

export default createControl({
  store: httpStore({ url: SERVE_URL, token: RUNTIME_TOKEN }),
${identitySource(identity, 'session')}
});
${pause}
`;
}

function controlSource(identity: IdentityProposal): string {
  return `// The operator's control: where approvals, effects and receipts are kept, and who a run acts for.
// Written by \`ctrlrun-gen init\`; it is yours to edit (the generated module imports its default export).
import { createControl } from 'ctrlrun-gen/runtime';
import { sqliteStore } from 'ctrlrun-gen/runtime/sqlite';

export default createControl({
  // SQLite in .ctrlrun/ (add it to .gitignore), relative to the directory the app starts in; the
  // operator's CLI (\`npx ctrlrun-gen approvals ...\`) looks in the repo root unless given --store.
  // For many processes on many hosts use postgresStore({ connectionString: process.env.DATABASE_URL! })
  // from 'ctrlrun-gen/runtime/postgres'; in a browser or an edge runtime, memoryStore() from
  // 'ctrlrun-gen/runtime' (or a store of your own behind your server).
  store: sqliteStore({ path: '.ctrlrun/state.db' }),
${identitySource(identity, 'run')}
});
`;
}
