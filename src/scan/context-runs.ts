import type { ManifestTool, ToolSite } from '../manifest/types.js';
import { siteMatches } from '../manifest/computed.js';
import type { DoorLeaf, FileScan, RunCall } from './types.js';

/** A run whose context lacks what the control's identity reads: every protected call of it is refused. */
export interface RunLackingContext {
  file: string;
  run: RunCall;
  /** The context keys the identity reads that this run does not pass. */
  missing: string[];
}

/**
 * What the repo's identities read of the run context: the keys (`['user']`), `[]` when some
 * identity reads the context in a way check cannot follow (then only runs with no context at all
 * are named), or undefined when no identity needs a context (or none was found).
 */
export function identityNeeds(scans: readonly FileScan[]): string[] | undefined {
  const reads = scans.flatMap((s) => s.identityReads ?? []);
  if (reads.length === 0 || reads.some((r) => r.reads.kind === 'none')) return undefined;
  const keys = new Set(reads.flatMap((r) => (r.reads.kind === 'keys' ? r.reads.keys : [])));
  return [...keys];
}

/**
 * What the manifest maps (or init is about to map): the doors the codemod protects. A run of an
 * agent that reaches none of them and no protected door calls nothing the control decides.
 */
export interface MappedDoors {
  /** Function tool names (`- tool: refund`; agent tools and local SDK tools are mapped by name too). */
  functions: ReadonlySet<string>;
  hostedLabels: ReadonlySet<string>;
  mcpServers: ReadonlySet<string>;
  /** Places of `tool()` calls whose names the code computes (`tool: { at }`). */
  sites?: readonly ToolSite[];
}

export function mappedDoorsOf(tools: readonly ManifestTool[]): MappedDoors {
  return {
    functions: new Set(tools.flatMap((t) => (t.kind === 'function' ? [t.tool] : []))),
    hostedLabels: new Set(tools.flatMap((t) => (t.kind === 'hosted_mcp' ? [t.serverLabel] : []))),
    mcpServers: new Set(tools.flatMap((t) => (t.kind === 'mcp' ? [t.server] : []))),
    sites: tools.flatMap((t) => (t.kind === 'computed' ? [t.at] : [])),
  };
}

/**
 * Whether a door is protected, or mapped so the codemod protects it: one reader per door kind (a
 * new kind adds its reader here). A door whose name the code does not show is mapped only when
 * the manifest could map it: an MCP server of unknown name when any server is mapped.
 */
const PROTECTED_BY: { [K in DoorLeaf['door']]: (leaf: Extract<DoorLeaf, { door: K }>, mapped: MappedDoors) => boolean } = {
  protected: () => true,
  tool: (leaf, mapped) =>
    leaf.name !== undefined
      ? mapped.functions.has(leaf.name)
      : leaf.site !== undefined && (mapped.sites ?? []).some((s) => siteMatches(s, leaf.site!.file, leaf.site!.container)),
  hosted_mcp: (leaf, mapped) => (leaf.labels ?? []).some((l) => mapped.hostedLabels.has(l)),
  mcp: (leaf, mapped) => (leaf.server !== undefined ? mapped.mcpServers.has(leaf.server) : mapped.mcpServers.size > 0),
};

export function isProtectedDoor(leaf: DoorLeaf, mapped: MappedDoors): boolean {
  return (PROTECTED_BY[leaf.door] as (l: DoorLeaf, m: MappedDoors) => boolean)(leaf, mapped);
}

/** Whether the repo protects any door: the manifest maps one, or the code calls the generated module. */
export function protectsAnything(scans: readonly FileScan[], mapped: MappedDoors): boolean {
  if (mapped.functions.size + mapped.hostedLabels.size + mapped.mcpServers.size + (mapped.sites?.length ?? 0) > 0) return true;
  return scans.some((s) => s.protectedToolCalls.length > 0 || (s.generatedDoorCalls ?? []).length > 0);
}

/**
 * Whether a run's agent can reach a protected tool (issue 40, item 3): one of the doors it reaches
 * is protected or mapped. When the code does not show them all (`unknown`: a parameter, a package's
 * agent), or the run was not followed, yes: the run stays named (fail safe).
 */
export function reachesProtected(run: RunCall, mapped: MappedDoors): boolean {
  const reach = run.reach;
  if (reach === undefined || reach.kind === 'unknown') return true;
  return reach.leaves.some((leaf) => isProtectedDoor(leaf, mapped));
}

/**
 * The runs that pass no context the identity needs (issue 21, item 4): no context at all, or an
 * object literal without any key the identity reads. A resumed run (its input a RunState) keeps the
 * context it started with; a context check cannot read is not named. With `mapped` (what the
 * manifest maps), only runs whose agent can reach a protected tool. `needs`: the keys the identity
 * reads, when known otherwise (init, before it writes the control); by default read from the scans.
 * check, the codemod's summary and init's note all ask this one function (issue 40, item 3).
 */
export function runsLackingContext(scans: readonly FileScan[], mapped?: MappedDoors, needs: string[] | undefined = identityNeeds(scans)): RunLackingContext[] {
  if (needs === undefined) return [];
  // nothing mapped and nothing protected: no call of any run can be refused for want of a principal
  if (mapped !== undefined && !protectsAnything(scans, mapped)) return [];
  const out: RunLackingContext[] = [];
  for (const scan of scans) {
    for (const run of scan.runCalls ?? []) {
      if (run.resumes || run.context.kind === 'opaque') continue;
      if (mapped !== undefined && !reachesProtected(run, mapped)) continue;
      if (run.context.kind === 'none') out.push({ file: scan.file, run, missing: needs });
      else if (needs.length > 0 && !needs.some((k) => (run.context as { keys: string[] }).keys.includes(k))) out.push({ file: scan.file, run, missing: needs });
    }
  }
  return out;
}
