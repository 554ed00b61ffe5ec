import type { RepoScan } from '../scan/types.js';

/**
 * What init proposes for the doors the manifest maps by something other than a tool name:
 * SandboxAgent capability tools (`- sandbox: { tool }`) and handoffs (`- handoff: { to }`).
 *
 * A capability tool that writes or runs (the shell, a patch) starts at `decision: approve`, as
 * every tool init maps does; one that only reads into the model's context (`view_image`,
 * `load_skill`) at `allow`. A handoff cannot pause (the SDK has no approval for it), so it starts
 * at `allow`: the policy then decides who may be handed over, and a rule can deny the rest.
 */

/** A door found: a capability tool (name) or a handoff target (agent name), with where it is; `runsCode`: a handoff with onHandoff or inputType. */
export interface FoundDoor {
  name: string;
  places: Array<{ file: string; line: number }>;
  runsCode?: boolean;
}

export interface PlannedDoor extends FoundDoor {
  action: string;
  addAction: boolean;
  decision: 'allow' | 'approve';
}

/** Capability tools that only bring something into the model's context. */
const READS = new Set(['view_image', 'load_skill']);

export function findSandboxAndHandoffs(scan: RepoScan): {
  sandbox: FoundDoor[];
  handoffs: FoundDoor[];
  unlisted: Array<{ file: string; line: number; reason: string }>;
} {
  const sandbox = new Map<string, FoundDoor>();
  const handoffs = new Map<string, FoundDoor>();
  const unlisted: Array<{ file: string; line: number; reason: string }> = [];
  const add = (into: Map<string, FoundDoor>, name: string, place: { file: string; line: number }, runsCode = false) => {
    const found = into.get(name) ?? { name, places: [] };
    if (!found.places.some((p) => p.file === place.file && p.line === place.line)) found.places.push(place);
    if (runsCode) found.runsCode = true;
    into.set(name, found);
  };
  const files = [...scan.files].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  for (const file of files) {
    for (const site of file.sandboxAgents ?? []) {
      const place = { file: file.file, line: site.span.line };
      for (const tool of site.tools ?? []) add(sandbox, tool, place);
      if (!site.tools) unlisted.push({ ...place, reason: site.toolsUnknown ?? 'its capabilities cannot be read' });
    }
    for (const h of file.handoffs ?? []) {
      // `h.onInvokeHandoff = f` is no handoff to map: the codemod cannot rewrite it (init's notes name it, hand-door-notes.ts)
      if (h.to === undefined || h.form === 'protected' || h.constructed === 'assignment') continue;
      add(handoffs, h.to, { file: file.file, line: h.span.line }, h.onHandoff !== false || h.inputType !== false);
    }
  }
  return { sandbox: [...sandbox.values()], handoffs: [...handoffs.values()], unlisted };
}

/** The actions of the doors the manifest does not map yet; ids from `taken` get a numeric suffix. */
export function planDoors(
  found: { sandbox?: FoundDoor[]; handoffs?: FoundDoor[] },
  existing: { sandboxMapped?: ReadonlySet<string>; handoffMapped?: ReadonlySet<string> },
  taken: Set<string>,
  kept: string[],
): { sandbox: PlannedDoor[]; handoffs: PlannedDoor[] } {
  const plan = (door: FoundDoor, base: string, decision: PlannedDoor['decision']): PlannedDoor => {
    let action = base;
    for (let n = 2; taken.has(action); n++) action = `${base}_${n}`;
    taken.add(action);
    return { ...door, action, addAction: true, decision };
  };
  const sandbox: PlannedDoor[] = [];
  for (const door of found.sandbox ?? []) {
    if (existing.sandboxMapped?.has(door.name)) kept.push(`sandbox ${door.name}`);
    else sandbox.push(plan(door, `sandbox.${idPart(door.name)}`, READS.has(door.name) ? 'allow' : 'approve'));
  }
  const handoffs: PlannedDoor[] = [];
  for (const door of found.handoffs ?? []) {
    if (existing.handoffMapped?.has(door.name)) kept.push(`handoff ${door.name}`);
    else handoffs.push(plan(door, `handoff.${idPart(door.name)}`, 'allow'));
  }
  return { sandbox, handoffs };
}

function idPart(name: string): string {
  const id = name
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return id === '' ? 'agent' : id;
}

const where = (door: FoundDoor): string => door.places.map((p) => `${p.file}:${p.line}`).join(', ');

/** The policy's lines for the planned doors (under `actions:`). */
export function doorPolicyLines(plan: { sandbox?: PlannedDoor[]; handoffs?: PlannedDoor[] }, yamlString: (v: string) => string): string[] {
  const lines: string[] = [];
  for (const door of (plan.sandbox ?? []).filter((d) => d.addAction)) {
    lines.push(
      `  # sandbox tool ${JSON.stringify(door.name)} of the SandboxAgent at ${where(door)}${door.decision === 'allow' ? ": it reads into the model's context only" : ''}`,
      `  ${yamlString(door.action)}:`,
      `    decision: ${door.decision}`,
    );
  }
  for (const door of (plan.handoffs ?? []).filter((d) => d.addAction)) {
    lines.push(
      `  # handoff to agent ${JSON.stringify(door.name)} at ${where(door)}${door.runsCode ? " (runs onHandoff on the model's input)" : ''}: a handoff cannot pause, so allow or deny (rules on its input)`,
      `  ${yamlString(door.action)}:`,
      `    decision: ${door.decision}`,
    );
  }
  return lines;
}

/** The manifest's entries for the planned doors (under `tools:`), and notes for SandboxAgents whose tools cannot be listed. */
export function doorManifestLines(
  plan: { sandbox?: PlannedDoor[]; handoffs?: PlannedDoor[]; sandboxUnlisted?: Array<{ file: string; line: number; reason: string }> },
  yamlString: (v: string) => string,
): string[] {
  const lines: string[] = [];
  for (const door of plan.sandbox ?? []) {
    lines.push(
      `  # a SandboxAgent's capability tool (${where(door)})`,
      `  - sandbox: { tool: ${yamlString(door.name)} }`,
      `    action: ${yamlString(door.action)}`,
    );
  }
  for (const door of plan.handoffs ?? []) {
    lines.push(`  # handoff at ${where(door)}`, `  - handoff: { to: ${yamlString(door.name)} }`, `    action: ${yamlString(door.action)}`);
  }
  for (const u of plan.sandboxUnlisted ?? []) {
    lines.push(
      `  # the SandboxAgent at ${u.file}:${u.line}: ${u.reason}; map each tool it gives the model as \`- sandbox: { tool: <name> }\` (an unmapped tool is denied)`,
    );
  }
  return lines;
}

/** What init says of the doors it mapped (one line each), and of SandboxAgents whose tools it cannot list. */
export function doorNotes(
  plan: { sandbox?: PlannedDoor[]; handoffs?: PlannedDoor[]; sandboxUnlisted?: Array<{ file: string; line: number; reason: string }> },
  manifest: string,
): string[] {
  const lines: string[] = [];
  if ((plan.sandbox ?? []).length > 0) {
    lines.push(
      `note: sandbox tools ${(plan.sandbox ?? []).map((d) => `${d.name} (${d.action}, ${d.decision})`).join(', ')} are mapped; protect each SandboxAgent with protectSandboxAgent (the codemod wraps them)\n`,
    );
  }
  for (const door of plan.handoffs ?? []) {
    lines.push(
      `note: the handoff to agent ${JSON.stringify(door.name)} is action ${door.action} (decision: allow: the SDK cannot pause a handoff); protect it with protectHandoff (the codemod rewrites it)\n`,
    );
  }
  for (const u of plan.sandboxUnlisted ?? []) {
    lines.push(
      `note: ${u.file}:${u.line}: the tools of this SandboxAgent cannot be listed (${u.reason}); map each in ${manifest} as \`- sandbox: { tool: <name> }\` (an unmapped tool is denied)\n`,
    );
  }
  return lines;
}
