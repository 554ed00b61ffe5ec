/**
 * What a manifest change does to the policy's reach: each tool decides through the action the
 * manifest maps it to, so a tool pointed at another action (the policy untouched) changes its
 * calls as much as a rule would. Per tool (function, MCP, hosted MCP, sandbox capability, handoff)
 * the action it maps to in each version; a sandbox entry of one agent falls back to the entry for
 * every agent, as the runtime reads it. Then the mappings added or gone, and a moved control
 * module. Pure: the regions of a remapped tool are diff.ts's to compute.
 */
import path from 'node:path';
import { siteLabel } from '../manifest/computed.js';
import type { Manifest, ManifestTool } from '../manifest/types.js';
import type { SettingChange } from './diff-settings.js';

/** A tool that maps to another action now. */
export interface Remap {
  /** `tool refund`, `tool at src/flows.ts#flowTools`, `mcp github/delete_repo`, `hosted_mcp docs`, `sandbox exec_command of ops`, `handoff to billing`. */
  tool: string;
  before: string;
  after: string;
}

function toolKey(t: ManifestTool): string {
  switch (t.kind) {
    case 'function':
      return `tool ${t.tool}`;
    case 'computed':
      return `tool at ${siteLabel(t.at)}`;
    case 'mcp':
      return `mcp ${t.server}/${t.tool}`;
    case 'hosted_mcp':
      return `hosted_mcp ${t.serverLabel}`;
    case 'sandbox':
      return `sandbox ${t.tool}${t.agent === undefined ? '' : ` of ${t.agent}`}`;
    case 'handoff':
      return `handoff to ${t.to}`;
  }
}

/** Each tool's action; a sandbox entry of one agent with none of its own falls back to every agent's. */
function mappings(m: Manifest | null, keys: Iterable<string>, sandboxOf: Map<string, string>): Map<string, string> {
  const own = new Map<string, string>();
  for (const t of m?.tools ?? []) if (!own.has(toolKey(t))) own.set(toolKey(t), t.action);
  const out = new Map<string, string>();
  for (const k of keys) {
    const action = own.get(k) ?? (sandboxOf.has(k) ? own.get(sandboxOf.get(k)!) : undefined);
    if (action !== undefined) out.set(k, action);
  }
  return out;
}

/**
 * The tools whose action changed, and the settings: a mapping added (other: a new tool, or one
 * that now goes through the policy), a mapping gone (looser: if the tool is still there, nothing
 * decides its calls), the control module moved (other: what the new one decides is code diff does
 * not read). `base` null: that revision had no manifest.
 */
export function manifestChanges(base: Manifest | null, head: Manifest): { remaps: Remap[]; settings: SettingChange[] } {
  const sandboxOf = new Map<string, string>();
  for (const t of [...(base?.tools ?? []), ...head.tools])
    if (t.kind === 'sandbox' && t.agent !== undefined) sandboxOf.set(toolKey(t), toolKey({ ...t, agent: undefined }));
  const keys = [...new Set([...(base?.tools ?? []), ...head.tools].map(toolKey))].sort();
  const before = mappings(base, keys, sandboxOf);
  const after = mappings(head, keys, sandboxOf);
  const remaps: Remap[] = [];
  const settings: SettingChange[] = [];
  for (const k of keys) {
    const a = before.get(k);
    const b = after.get(k);
    if (a !== undefined && b !== undefined && a !== b) remaps.push({ tool: k, before: a, after: b });
    else if (a === undefined && b !== undefined) settings.push({ field: k, before: 'not mapped', after: b, class: 'other', why: 'a new mapping' });
    else if (a !== undefined && b === undefined)
      settings.push({
        field: k,
        before: a,
        after: 'not mapped',
        class: 'looser',
        why: 'no action maps it any more: if the tool is still there, no policy decides its calls',
      });
  }
  if (base) {
    const control = (m: Manifest) => path.relative(m.root, m.control).split(path.sep).join('/');
    if (control(base) !== control(head))
      settings.push({ field: 'control module', before: control(base), after: control(head), class: 'other', why: 'another module answers the controls' });
  }
  return { remaps, settings };
}
