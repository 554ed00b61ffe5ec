import { isMap, isScalar, isSeq, parseDocument, YAMLMap, YAMLSeq, type Document } from 'yaml';
import { UserError } from '../diagnostics.js';
import { computedEntry, computedWhere, mcpToolKey, type ExistingSetup, type InitPlan, type PlannedTool } from './render.js';

/**
 * `init --force` on files that exist: the policy's actions and the manifest's mappings are kept
 * (comments and order too); only what is new is added: an action `decision: approve` per new
 * action, a `- tool:` entry per new mapping. Pure text in, text out.
 */

function parse(text: string, file: string): Document | undefined {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) {
    throw new UserError(
      `init --force: ${file} does not parse (${doc.errors[0]!.message.split('\n')[0]}); nothing was written. Fix it, or delete it to start over.`,
    );
  }
  if (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null)) return undefined; // empty: nothing to keep
  if (!isMap(doc.contents)) throw new UserError(`init --force: ${file} is not a mapping; nothing was written. Fix it, or delete it to start over.`);
  return doc;
}

const where = (tool: PlannedTool): string => tool.places.map((p) => `${p.file}:${p.line}`).join(', ');

/** What the existing files define; empty for a file that is missing or empty. */
export function readExisting(policyText: string | undefined, manifestText: string | undefined, files: { policy: string; manifest: string }): ExistingSetup {
  const actions = new Set<string>();
  const mapped = new Map<string, string>();
  const hostedMapped = new Map<string, string>();
  const mcpMapped = new Set<string>();
  const computedSites: Array<{ file: string; in?: string }> = [];
  const sandboxMapped = new Set<string>();
  const handoffMapped = new Set<string>();
  const mcpToolsMapped = new Set<string>();
  const policy = policyText === undefined ? undefined : parse(policyText, files.policy);
  const actionsNode = policy?.get('actions');
  if (isMap(actionsNode)) for (const pair of actionsNode.items) if (isScalar(pair.key)) actions.add(String(pair.key.value));
  const manifest = manifestText === undefined ? undefined : parse(manifestText, files.manifest);
  const toolsNode = manifest?.get('tools');
  if (isSeq(toolsNode)) {
    for (const item of toolsNode.items) {
      if (!isMap(item)) continue;
      const tool = item.get('tool');
      const action = item.get('action');
      if (typeof tool === 'string' && typeof action === 'string') mapped.set(tool, action);
      const hosted = item.get('hosted_mcp');
      const label = isMap(hosted) ? hosted.get('server_label') : undefined;
      if (typeof label === 'string' && typeof action === 'string') hostedMapped.set(label, action);
      const mcp = item.get('mcp');
      const server = isMap(mcp) ? mcp.get('server') : undefined;
      const mcpTool = isMap(mcp) ? mcp.get('tool') : undefined;
      if (typeof server === 'string') mcpMapped.add(server);
      if (typeof server === 'string' && typeof mcpTool === 'string') mcpToolsMapped.add(mcpToolKey(server, mcpTool));
      const sandbox = item.get('sandbox');
      const capabilityTool = isMap(sandbox) ? sandbox.get('tool') : undefined;
      if (typeof capabilityTool === 'string') sandboxMapped.add(capabilityTool);
      const handoff = item.get('handoff');
      const to = isMap(handoff) ? handoff.get('to') : undefined;
      if (typeof to === 'string') handoffMapped.add(to);
      // `tool: { at: src/flows.ts, in: flowTools }`: a place mapped already
      const at = isMap(tool) ? tool.get('at') : undefined;
      const within = isMap(tool) ? tool.get('in') : undefined;
      if (typeof at === 'string') computedSites.push({ file: at.trim(), ...(typeof within === 'string' ? { in: within } : {}) });
    }
  }
  return { actions, mapped, hostedMapped, mcpMapped, mcpToolsMapped, sandboxMapped, handoffMapped, computedSites };
}

/** The policy text with the plan's new actions appended under `actions:`. */
export function mergePolicy(text: string, plan: InitPlan, file: string): string {
  const added = plan.tools.filter((t) => t.addAction);
  const hosted = (plan.hosted ?? []).filter((h) => h.addAction);
  const computed = (plan.computed ?? []).filter((c) => c.addAction);
  const doors = [...(plan.sandbox ?? []), ...(plan.handoffs ?? [])].filter((d) => d.addAction);
  const mcpTools = (plan.mcpTools ?? []).filter((t) => t.addAction);
  const doc = parse(text, file);
  if (!doc || added.length + hosted.length + computed.length + doors.length + mcpTools.length === 0) return text;
  let actions = doc.get('actions');
  if (!isMap(actions)) {
    actions = new YAMLMap();
    doc.set('actions', actions);
  }
  const map = actions as YAMLMap;
  if (map.items.length === 0) map.flow = false;
  for (const tool of added) {
    const value = doc.createNode({ decision: 'approve' }) as YAMLMap;
    const key = doc.createNode(tool.action);
    key.commentBefore = `${tool.kind === 'agent' ? ' agent tool' : ' tool'} ${JSON.stringify(tool.name)} ${tool.kind === 'agent' ? `(asTool at ${where(tool)})` : `at ${where(tool)}`} (added by init --force)`;
    map.add(doc.createPair(key, value));
  }
  for (const server of hosted) {
    const value = doc.createNode({ decision: 'approve' }) as YAMLMap;
    const key = doc.createNode(server.action);
    key.commentBefore = ` hosted MCP server ${JSON.stringify(server.name)} (hostedMcpTool at ${server.places.map((p) => `${p.file}:${p.line}`).join(', ')}; added by init --force)`;
    map.add(doc.createPair(key, value));
  }
  for (const c of computed) {
    const value = doc.createNode({ decision: 'approve' }) as YAMLMap;
    const key = doc.createNode(c.action);
    key.commentBefore = ` the tools the tool() at ${computedWhere(c)} makes (their names computed; added by init --force)`;
    map.add(doc.createPair(key, value));
  }
  for (const door of doors) {
    const value = doc.createNode({ decision: door.decision }) as YAMLMap;
    const key = doc.createNode(door.action);
    const what = (plan.sandbox ?? []).includes(door) ? `sandbox tool ${JSON.stringify(door.name)}` : `handoff to agent ${JSON.stringify(door.name)}`;
    key.commentBefore = ` ${what} at ${door.places.map((p) => `${p.file}:${p.line}`).join(', ')} (added by init --force)`;
    map.add(doc.createPair(key, value));
  }
  for (const t of mcpTools) {
    const value = doc.createNode({ decision: 'approve' }) as YAMLMap;
    const key = doc.createNode(t.action);
    key.commentBefore = ` tool ${JSON.stringify(t.tool)} of MCP server ${JSON.stringify(t.server)} (${t.source}; added by init --force)`;
    map.add(doc.createPair(key, value));
  }
  return doc.toString();
}

/** The manifest text with the plan's new mappings appended under `tools:`. */
export function mergeManifest(text: string, plan: InitPlan, file: string): string {
  const doc = parse(text, file);
  const hosted = plan.hosted ?? [];
  const computed = plan.computed ?? [];
  const sandbox = plan.sandbox ?? [];
  const handoffs = plan.handoffs ?? [];
  const mcpTools = plan.mcpTools ?? [];
  if (!doc || plan.tools.length + hosted.length + computed.length + sandbox.length + handoffs.length + mcpTools.length === 0) return text;
  let tools = doc.get('tools');
  if (!isSeq(tools)) {
    tools = new YAMLSeq();
    doc.set('tools', tools);
  }
  const seq = tools as YAMLSeq;
  if (seq.items.length === 0) seq.flow = false;
  for (const tool of plan.tools) {
    const entry = doc.createNode({ tool: tool.name, action: tool.action }) as YAMLMap;
    entry.commentBefore = ` ${where(tool)} (added by init --force)`;
    seq.add(entry);
  }
  for (const server of hosted) {
    const entry = doc.createNode({ hosted_mcp: { server_label: server.name }, action: server.action }) as YAMLMap;
    (entry.get('hosted_mcp') as YAMLMap).flow = true;
    entry.commentBefore = ` hostedMcpTool at ${server.places.map((p) => `${p.file}:${p.line}`).join(', ')} (added by init --force)`;
    seq.add(entry);
  }
  for (const c of computed) {
    const entry = doc.createNode({ tool: { at: c.file, ...(c.in !== undefined ? { in: c.in } : {}), names: '*' }, action: c.action }) as YAMLMap;
    (entry.get('tool') as YAMLMap).flow = true;
    entry.commentBefore = ` ${computedEntry(c).comment} (added by init --force)`;
    seq.add(entry);
  }
  for (const [kind, doors] of [
    ['sandbox', sandbox],
    ['handoff', handoffs],
  ] as const) {
    for (const door of doors) {
      const ref = kind === 'sandbox' ? { tool: door.name } : { to: door.name };
      const entry = doc.createNode({ [kind]: ref, action: door.action }) as YAMLMap;
      (entry.get(kind) as YAMLMap).flow = true;
      entry.commentBefore = ` ${kind === 'sandbox' ? 'a SandboxAgent capability tool' : 'a handoff'} at ${door.places.map((p) => `${p.file}:${p.line}`).join(', ')} (added by init --force)`;
      seq.add(entry);
    }
  }
  for (const t of mcpTools) {
    const entry = doc.createNode({ mcp: { server: t.server, tool: t.tool }, action: t.action }) as YAMLMap;
    (entry.get('mcp') as YAMLMap).flow = true;
    entry.commentBefore = ` MCP server ${JSON.stringify(t.server)}: ${t.source} (added by init --force)`;
    seq.add(entry);
  }
  return doc.toString();
}
