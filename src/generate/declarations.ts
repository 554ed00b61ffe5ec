/**
 * Finds, for each mapped function tool name, every declaration of it in the repo: an SDK
 * `tool({ name })` call, or a `protectedTool('<action>', { name })` call the codemod left, and reads
 * their parameters. Synchronous (the generator is a pure function of the repo's files).
 */
import path from 'node:path';
import type { SourceLocation } from '../policy/types.js';
import { readSourceText, scanRepoSync, scanSource, treeOf } from '../scan/index.js';
import type { FileScan, ToolCallOptions, Span } from '../scan/types.js';
import { locationOf, parseSource, readToolParameters, type ReadParametersResult, type ToolParameter } from './params.js';
import { byCodeUnit } from './render.js';
import { computedKey, computedTools, siteMatches, type ComputedTool } from '../manifest/computed.js';
import { declarationNames } from '../manifest/function-tools.js';
import type { Manifest } from '../manifest/types.js';
import { doorDeclarationsIn, mayDeclareDoor } from './door-declarations.js';

export interface ToolDeclaration {
  name: string;
  /** Absolute path of the source file. */
  file: string;
  /** `door`: a shell, apply_patch or agent tool (SDK or protected), mapped by its SDK tool name; a handoff or a SandboxAgent (door-declarations.ts). */
  kind: 'sdk-tool' | 'protected-tool' | 'door';
  /** A SandboxAgent: its literal name, and the tools its capabilities give when known. */
  sandbox?: { agent?: string; tools?: string[] };
  /** Where the call is (its callee). */
  loc: SourceLocation;
  parameters: ReadParametersResult;
}

/** Every declaration of the given tool names, by name, in file then position order (the scanner's repo scan: barrels, aliases and `const` names followed). */
export function findToolDeclarations(
  root: string,
  names: ReadonlySet<string>,
  options: { generatedModule?: string; computed?: readonly ComputedTool[] } = {},
): Map<string, ToolDeclaration[]> {
  const computed = options.computed ?? [];
  if (names.size === 0 && computed.length === 0) return new Map();
  const repo = scanRepoSync({ root, ...(options.generatedModule ? { generatedModule: options.generatedModule } : {}) });
  return declarationsInScans(root, names, repo.files, (scan) => readSourceText(path.join(root, scan.file)), computed);
}

/** The declarations of every entry of a manifest: function tools by name, computed ones by their key (`@src/flows.ts`). */
export function manifestDeclarations(manifest: Manifest): Map<string, ToolDeclaration[]> {
  return findToolDeclarations(manifest.root, declarationNames(manifest), { generatedModule: manifest.output, computed: computedTools(manifest) });
}

/** The same, from files already scanned. */
export function manifestDeclarationsInScans(
  manifest: Manifest,
  root: string,
  scans: readonly FileScan[],
  text: (scan: FileScan) => string | undefined,
): Map<string, ToolDeclaration[]> {
  return declarationsInScans(root, declarationNames(manifest), scans, text, computedTools(manifest));
}

/**
 * The declarations of `names` in files already scanned (relative to `root`), in file then position
 * order; `text` gives a file's source, undefined when it cannot be read. The one walk `generate`,
 * `check` and its schema rules share.
 */
export function declarationsInScans(
  root: string,
  names: ReadonlySet<string>,
  scans: readonly FileScan[],
  text: (scan: FileScan) => string | undefined,
  computed: readonly ComputedTool[] = [],
): Map<string, ToolDeclaration[]> {
  const found = new Map<string, ToolDeclaration[]>([...names].map((n) => [n, []]));
  for (const c of computed) found.set(computedKey(c), []);
  if (names.size === 0 && computed.length === 0) return found;
  const candidates = scans
    .filter((s) => !s.parseError && (mayDeclare(s, names) || computed.some((c) => c.at.file === s.file)))
    .sort((a, b) => byCodeUnit(a.file, b.file));
  for (const scan of candidates) {
    // the scan's own tree holds the text it read: the file is neither read nor parsed again
    const source = treeOf(scan)?.text ?? text(scan);
    if (source === undefined) continue;
    for (const d of declarationsInScan(path.join(root, scan.file), source, scan, names, computed)) found.get(d.name)?.push(d);
  }
  return found;
}

/**
 * The `tool()` (or `protectedTool()`) calls of a scanned file whose name is computed, at the sites
 * of the manifest's `tool: { at }` entries, keyed by the entry (issue 40, item 5).
 */
function computedCalls(
  scan: FileScan,
  computed: readonly ComputedTool[],
): Array<{ kind: ToolDeclaration['kind']; name: string; span: Span; callee: Span; options: ToolCallOptions }> {
  const out: Array<{ kind: ToolDeclaration['kind']; name: string; span: Span; callee: Span; options: ToolCallOptions }> = [];
  const entryAt = (container: string | undefined) => computed.find((c) => siteMatches(c.at, scan.file, container));
  for (const c of scan.sdkToolCalls) {
    const entry = c.name === undefined ? entryAt(c.container) : undefined;
    if (entry) out.push({ kind: 'sdk-tool', name: computedKey(entry), span: c.span, callee: c.callee, options: c.options });
  }
  for (const c of scan.protectedToolCalls) {
    const entry = c.name === undefined ? entryAt(c.container) : undefined;
    if (entry) out.push({ kind: 'protected-tool', name: computedKey(entry), span: c.span, callee: c.callee, options: c.options });
  }
  return out;
}

/** Whether a scanned file holds a call declaring one of the names. */
export function mayDeclare(scan: FileScan, names: ReadonlySet<string>): boolean {
  return (
    scan.sdkToolCalls.some((c) => c.name !== undefined && names.has(c.name)) ||
    scan.protectedToolCalls.some((c) => c.name !== undefined && names.has(c.name)) ||
    doorCalls(scan).some((d) => names.has(d.name)) ||
    mayDeclareDoor(scan, names)
  );
}

type DoorParameters = 'shell' | 'apply_patch' | 'computer' | 'agent';
const LOCAL_FACTORIES: Record<string, { name: string; params: DoorParameters } | undefined> = {
  shellTool: { name: 'shell', params: 'shell' },
  applyPatchTool: { name: 'apply_patch', params: 'apply_patch' },
  protectShellTool: { name: 'shell', params: 'shell' },
  protectApplyPatchTool: { name: 'apply_patch', params: 'apply_patch' },
  computerTool: { name: 'computer_use_preview', params: 'computer' },
  protectComputerTool: { name: 'computer_use_preview', params: 'computer' },
};

/**
 * The other doors a function-tool entry can map by the tool's SDK name: `shellTool` /
 * `applyPatchTool` / `computerTool` (default names `shell`, `apply_patch`, `computer_use_preview`), `agent.asTool()` (its `toolName`, or the
 * agent's name as the SDK derives it), and their protected variants.
 */
function doorCalls(scan: FileScan): Array<{ name: string; span: Span; callee: Span; options: ToolCallOptions; params: DoorParameters }> {
  const out: Array<{ name: string; span: Span; callee: Span; options: ToolCallOptions; params: DoorParameters }> = [];
  for (const c of scan.sdkFactoryCalls ?? []) {
    const door = LOCAL_FACTORIES[c.factory];
    if (!door || c.factory.startsWith('protect')) continue;
    const name = c.options.properties.name ? c.options.properties.name.stringValue : door.name;
    if (name !== undefined) out.push({ name, span: c.span, callee: c.callee, options: c.options, params: door.params });
  }
  for (const c of scan.agentAsToolCalls ?? [])
    if (c.toolName !== undefined) out.push({ name: c.toolName, span: c.span, callee: c.callee, options: c.options, params: 'agent' });
  for (const c of scan.generatedDoorCalls ?? []) {
    if (c.toolName === undefined || !c.options) continue;
    const door = LOCAL_FACTORIES[c.door];
    if (door) out.push({ name: c.toolName, span: c.span, callee: c.callee, options: c.options, params: door.params });
    else if (c.door === 'protectAgentTool') out.push({ name: c.toolName, span: c.span, callee: c.callee, options: c.options, params: 'agent' });
  }
  return out;
}

/** What the policy's `when` sees of a door's call (docs/doors): fixed for shell and apply_patch; `{ input }` for an agent tool without `parameters`. */
function doorParameters(kind: DoorParameters, loc: SourceLocation): ToolParameter[] {
  const p = (name: string, type: ToolParameter['type'], required: boolean, extra: Partial<ToolParameter> = {}): ToolParameter => ({
    name,
    type,
    required,
    nullable: false,
    loc,
    ...extra,
  });
  if (kind === 'shell') return [p('command', 'string', true), p('commands', 'unknown', true, { note: 'a list of strings' })];
  if (kind === 'computer')
    return [
      p('action', 'string', true),
      p('actions', 'unknown', true, { note: 'a list of computer actions' }),
      p('text', 'string', false),
      p('keys', 'string', false),
    ];
  if (kind === 'apply_patch')
    return [
      p('operation', 'enum', true, { enumValues: ['create_file', 'delete_file', 'update_file'] }),
      p('path', 'string', true),
      p('diff', 'string', false),
      p('move_to', 'string', false),
    ];
  return [p('input', 'string', true)];
}

/** The declarations of the given names in one file's text (pure). */
export function declarationsInSource(file: string, text: string, names: ReadonlySet<string>): ToolDeclaration[] {
  return declarationsInScan(file, text, scanSource(file, text), names);
}

/** The declarations of the given names in one scanned file (its scan made with the repo's links). */
export function declarationsInScan(
  file: string,
  text: string,
  scan: FileScan,
  names: ReadonlySet<string>,
  computed: readonly ComputedTool[] = [],
): ToolDeclaration[] {
  if (scan.parseError) return [];
  const calls: Array<{ kind: ToolDeclaration['kind']; name: string; span: Span; callee: Span; options: ToolCallOptions }> = computedCalls(scan, computed);
  for (const c of scan.sdkToolCalls)
    if (c.name !== undefined && names.has(c.name)) calls.push({ kind: 'sdk-tool', name: c.name, span: c.span, callee: c.callee, options: c.options });
  for (const c of scan.protectedToolCalls) {
    const name = c.name;
    if (name !== undefined && names.has(name)) calls.push({ kind: 'protected-tool', name, span: c.span, callee: c.callee, options: c.options });
  }
  const doors = doorCalls(scan).filter((d) => names.has(d.name));
  if (calls.length === 0 && doors.length === 0 && !mayDeclareDoor(scan, names)) return [];
  const tree = treeOf(scan);
  // the scan's tree has no parent pointers: the parameter reader needs none
  const sourceFile = tree && tree.text === text ? tree : parseSource(file, text);
  const out: Array<ToolDeclaration & { start: number }> = calls.map((c) => ({
    name: c.name,
    file,
    kind: c.kind,
    loc: locationOf(sourceFile, file, c.callee.start),
    parameters: readToolParameters({ file, text, sourceFile }, c),
    start: c.span.start,
  }));
  for (const d of doors) {
    const loc = locationOf(sourceFile, file, d.callee.start);
    // an agent tool with its own `parameters` is read like a tool()'s
    const parameters: ReadParametersResult =
      d.params === 'agent' && d.options.properties.parameters
        ? readToolParameters({ file, text, sourceFile }, d)
        : { readable: true, form: 'json-schema', parameters: doorParameters(d.params, loc), loc };
    out.push({ name: d.name, file, kind: 'door', loc, parameters, start: d.span.start });
  }
  for (const d of doorDeclarationsIn(file, { file, text, sourceFile }, scan, names)) out.push({ ...d, file, kind: 'door' });
  out.sort((a, b) => a.start - b.start);
  return out.map(({ start: _start, ...d }) => d);
}
