import { statSync } from 'node:fs';
import path from 'node:path';
import { isMap, type Node } from 'yaml';
import { type Diagnostic, UserError } from '../diagnostics.js';
import { loadPolicyFile, notCtrlrunFile, readTextFile } from '../policy/load.js';
import { gitRootOf, isInside } from '../safe-read.js';
import { didYouMean, nearest } from '../policy/suggest.js';
import type { Policy, SourceLocation } from '../policy/types.js';
import { sdkToolName } from '../runtime/tool-name.js';
import { NAME_PATTERN_CHARS } from '../runtime/name-pattern.js';
import { describeKind, type Entry, type LoadResult, readDocument, type YamlReader } from '../policy/yaml-reader.js';
import type { Manifest, ManifestTool, ToolSite } from './types.js';

import { findManifest, MANIFEST_FILE } from './find.js';

export { findManifest, MANIFEST_FILE };
export const MANIFEST_SCHEMA = 'ctrlrun.tools/v1';
/** Manifests larger than this are refused before parsing. */
export const MAX_MANIFEST_BYTES = 256 * 1024;

export const MANIFEST_DEFAULTS = { policy: 'ctrlrun.yaml', output: 'src/ctrlrun.generated.ts', control: 'src/ctrlrun.control.ts' } as const;

const TOP_KEYS = ['schema', 'policy', 'output', 'control', 'tools'];
const TOOL_KEYS = ['tool', 'mcp', 'hosted_mcp', 'sandbox', 'handoff', 'action'];
const TOOL_KINDS = ['tool', 'mcp', 'hosted_mcp', 'sandbox', 'handoff'] as const;
type ToolKind = (typeof TOOL_KINDS)[number];
const MCP_KEYS = ['server', 'tool'];
const HOSTED_MCP_KEYS = ['server_label'];
const COMPUTED_KEYS = ['at', 'in', 'names'];
const SANDBOX_KEYS = ['tool', 'agent'];
const HANDOFF_KEYS = ['to'];
/** What each mapping kind's value is, for messages. */
const REF_SHAPE: Record<Exclude<ToolKind, 'tool'>, string> = {
  mcp: 'a mapping `{ server: <name>, tool: <name> }`',
  hosted_mcp: 'a mapping `{ server_label: <label> }`',
  sandbox: 'a mapping `{ tool: <capability tool name> }` (and `agent: <SandboxAgent name>` for one agent only)',
  handoff: 'a mapping `{ to: <the name of the agent handed to> }`',
};
const REF_KEYS: Record<Exclude<ToolKind, 'tool'>, string[]> = { mcp: MCP_KEYS, hosted_mcp: HOSTED_MCP_KEYS, sandbox: SANDBOX_KEYS, handoff: HANDOFF_KEYS };
/** TypeScript, or JavaScript (with a `.d.ts` beside it) for projects without TypeScript. */
const OUTPUT_EXTENSIONS = ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs'];
const CONTROL_EXTENSIONS = ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs'];

/** Where things are in the manifest text, for cross-check diagnostics. */
interface ManifestLocations {
  policy?: SourceLocation;
  control?: SourceLocation;
  /** The policy path, when it could be read even though the manifest has other errors. */
  policyPath?: string;
  /** Location of each tool's `action:` value, by index in `tools`. */
  actions: SourceLocation[];
}

/** Pure: parses and checks manifest text (paths resolved against the file's directory). Never throws. */
export function parseManifest(text: string, file: string): LoadResult<Manifest> {
  const { result } = readManifest(text, file);
  return result;
}

function readManifest(text: string, file: string): { result: LoadResult<Manifest>; locs: ManifestLocations } {
  const locs: ManifestLocations = { actions: [] };
  const options = { maxBytes: MAX_MANIFEST_BYTES, what: 'manifest', firstKeyHint: `schema: ${MANIFEST_SCHEMA}` };
  const result = readDocument(text, file, options, (reader, root) => new ManifestReader(reader, path.resolve(file), locs).read(root));
  return { result, locs };
}

class ManifestReader {
  constructor(
    private readonly r: YamlReader,
    private readonly absFile: string,
    private readonly locs: ManifestLocations,
  ) {}

  private closed(entries: Entry[], keys: readonly string[], where: string): void {
    for (const e of entries) {
      if (!keys.includes(e.key)) this.r.errorAt(e.keyNode, e.path, 'unknown-key', `unknown key \`${e.key}\` in ${where}`, didYouMean(e.key, keys));
    }
  }

  read(root: Node): Manifest | undefined {
    const r = this.r;
    if (!isMap(root)) {
      r.errorAt(
        root,
        '',
        'not-a-mapping',
        `the manifest must be a mapping (\`schema:\`, \`tools:\`, ...), found ${describeKind(r.kindOf(root))}`,
        `start with \`schema: ${MANIFEST_SCHEMA}\``,
      );
      return undefined;
    }
    const entries = r.entries(root, '');
    this.closed(entries, TOP_KEYS, 'the manifest');
    const byKey = new Map(entries.map((e) => [e.key, e]));

    const schema = byKey.get('schema');
    if (schema === undefined) {
      r.errorAt(root, '', 'missing-key', 'the manifest has no `schema`', `add \`schema: ${MANIFEST_SCHEMA}\` as the first line`);
    } else {
      const value = r.string(schema.value, schema.at, schema.path, `\`${MANIFEST_SCHEMA}\``);
      if (value !== undefined && value !== MANIFEST_SCHEMA) {
        const hint = value.startsWith('ctrlrun.policy/')
          ? 'this is the policy schema; the manifest is `ctrlrun.tools.yaml`, the policy `ctrlrun.yaml`'
          : `write \`${MANIFEST_SCHEMA}\``;
        r.errorAt(schema.at, schema.path, 'bad-schema', `unsupported schema \`${value}\``, hint);
      }
    }

    const root_ = path.dirname(this.absFile);
    const policyEntry = byKey.get('policy');
    if (policyEntry) this.locs.policy = r.locOf(policyEntry.at);
    const controlEntry = byKey.get('control');
    if (controlEntry) this.locs.control = r.locOf(controlEntry.at);
    const policy = this.readPath(policyEntry, MANIFEST_DEFAULTS.policy, root_, { insideRoot: false });
    this.locs.policyPath = policy;
    const output = this.readPath(byKey.get('output'), MANIFEST_DEFAULTS.output, root_, {
      insideRoot: true,
      extensions: OUTPUT_EXTENSIONS,
      what: 'the generated module',
    });
    const control = this.readPath(byKey.get('control'), MANIFEST_DEFAULTS.control, root_, {
      insideRoot: true,
      extensions: CONTROL_EXTENSIONS,
      what: 'the control module',
    });
    if (output !== undefined && output === control) {
      const e = byKey.get('output') ?? byKey.get('control');
      r.errorAt(
        e?.at ?? root,
        e?.path ?? '',
        'same-path',
        '`output` and `control` are the same file',
        'the generated module is overwritten by `generate`; the control module is yours',
      );
    }

    const toolsEntry = byKey.get('tools');
    const tools: ManifestTool[] = [];
    if (toolsEntry === undefined) {
      r.errorAt(
        root,
        '',
        'missing-key',
        'the manifest has no `tools`',
        'add `tools:` with `- tool: <name>` / `action: <policy action>` entries (or `tools: []`)',
      );
    } else {
      const seq = r.seq(toolsEntry.value, toolsEntry.at, toolsEntry.path, 'a list of tool mappings');
      if (seq) this.readTools(r.items(seq, 'tools'), tools);
    }
    if (policy === undefined || output === undefined || control === undefined) return undefined;
    return { schemaVersion: 1, file: this.absFile, root: root_, policy, output, control, tools };
  }

  private readPath(
    entry: Entry | undefined,
    fallback: string,
    root: string,
    opts: { insideRoot: boolean; extensions?: readonly string[]; what?: string },
  ): string | undefined {
    const r = this.r;
    if (entry === undefined) return path.resolve(root, fallback);
    const value = r.string(entry.value, entry.at, entry.path, 'a path relative to the manifest');
    if (value === undefined) return undefined;
    if (value.includes('\0')) {
      r.errorAt(entry.at, entry.path, 'bad-path', 'the path contains a NUL character', 'remove it');
      return undefined;
    }
    if (/[\u0001-\u001f\u007f-\u009f\u2028\u2029]/.test(value)) {
      // a newline in `output:` became a broken import line in every file the codemod rewrote
      r.errorAt(
        entry.at,
        entry.path,
        'bad-path',
        'the path contains a control character (a newline, a tab, …)',
        'write the path on one line, without control characters',
      );
      return undefined;
    }
    const resolved = path.resolve(root, value);
    let ok = true;
    if (opts.insideRoot) {
      const rel = path.relative(root, resolved);
      if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) {
        r.errorAt(
          entry.at,
          entry.path,
          'outside-root',
          `\`${value}\` is outside the repository (the manifest's directory)`,
          `keep ${opts.what ?? 'it'} inside the repository, e.g. \`src/${path.basename(value) || 'file.ts'}\``,
        );
        ok = false;
      }
    }
    if (opts.extensions && !opts.extensions.includes(path.extname(value))) {
      r.errorAt(
        entry.at,
        entry.path,
        'bad-extension',
        `\`${value}\` does not end in ${opts.extensions.join(', ')}`,
        `${opts.what ?? 'the file'} is a TypeScript/JavaScript module`,
      );
      ok = false;
    }
    return ok ? resolved : undefined;
  }

  private readTools(items: Array<{ node: Node | null; at: Node; path: string; index: number }>, out: ManifestTool[]): void {
    const r = this.r;
    const seen = new Map<string, { loc: SourceLocation; what: string }>();
    const sanitized = new Map<string, { loc: SourceLocation; name: string }>();
    const computedSites: Array<{ site: ToolSite; loc: SourceLocation }> = [];
    for (const item of items) {
      const body = r.map(item.node, item.at, item.path, 'a mapping (`tool:`, `mcp:`, `hosted_mcp:`, `sandbox:` or `handoff:`, and `action:`)');
      if (body === undefined) continue;
      const fields = r.entries(body, item.path);
      this.closed(fields, TOOL_KEYS, 'a tool entry');
      const byKey = new Map(fields.map((f) => [f.key, f]));
      const kinds = TOOL_KINDS.filter((k) => byKey.has(k));
      if (kinds.length === 0) {
        r.errorAt(
          item.at,
          item.path,
          'missing-tool',
          'the entry names no tool',
          'add `tool: <name>` (an SDK tool), `mcp: { server, tool }`, `hosted_mcp: { server_label }`, `sandbox: { tool }` or `handoff: { to }`',
        );
      } else if (kinds.length > 1) {
        const second = byKey.get(kinds[1]!)!;
        r.errorAt(
          second.keyNode,
          second.path,
          'several-tools',
          `the entry has both \`${kinds[0]}\` and \`${kinds[1]}\``,
          'one entry maps one tool; split it in two',
        );
      }
      const actionEntry = byKey.get('action');
      let action: string | undefined;
      if (actionEntry === undefined) {
        r.errorAt(item.at, item.path, 'missing-key', 'the entry has no `action`', 'add `action: <an action of the policy>`');
      } else {
        // Any non-empty string, as CTRLRun names actions; `generate` checks it is in the policy.
        action = r.string(actionEntry.value, actionEntry.at, actionEntry.path, 'a policy action id');
      }
      if (kinds.length !== 1) continue;
      const kindEntry = byKey.get(kinds[0]!)!;
      const tool = this.readToolRef(kinds[0]!, kindEntry);
      if (tool === undefined) continue;
      const loc = r.locOf(kindEntry.at);
      const previous = seen.get(tool.key);
      if (previous !== undefined) {
        r.errorAt(
          kindEntry.at,
          kindEntry.path,
          'duplicate-tool',
          `${tool.what} is mapped twice (first at line ${previous.loc.line})`,
          'a tool maps to exactly one action; remove one of the entries',
          { ...previous.loc, message: `${previous.what} first mapped here` },
        );
        continue;
      }
      seen.set(tool.key, { loc, what: tool.what });
      if (kinds[0] === 'tool' && tool.value.kind === 'function') {
        const name = (tool.value as { tool: string }).tool;
        const s = sdkToolName(name);
        const clash = sanitized.get(s);
        if (clash !== undefined) {
          r.errorAt(
            kindEntry.at,
            kindEntry.path,
            'tool-name-clash',
            `tools \`${clash.name}\` and \`${name}\` look the same to the model (\`${s}\`)`,
            'the SDK replaces every non-alphanumeric character with `_`; rename one of the tools',
            { ...clash.loc, message: `\`${clash.name}\` is here` },
          );
          continue;
        }
        sanitized.set(s, { loc, name });
      }
      if (kinds[0] === 'tool' && tool.value.kind === 'computed' && this.overlaps(tool.value.at as ToolSite, kindEntry, loc, computedSites)) continue;
      if (action === undefined) continue;
      this.locs.actions[out.length] = r.locOf(actionEntry!.at);
      out.push({ ...tool.value, action, loc: r.locOf(item.at) } as ManifestTool);
    }
  }

  /**
   * Two entries for one call: `at: src/flows.ts` and `{ at: src/flows.ts, in: flowTools }` both
   * name the calls in `flowTools`, so which action decides them would be a matter of order.
   * Refused (a call maps to one action).
   */
  private overlaps(site: ToolSite, e: Entry, loc: SourceLocation, sites: Array<{ site: ToolSite; loc: SourceLocation }>): boolean {
    const other = sites.find((s) => s.site.file === site.file && (s.site.in === undefined || site.in === undefined));
    sites.push({ site, loc });
    if (!other) return false;
    this.r.errorAt(
      e.at,
      e.path,
      'duplicate-tool',
      `the tool() calls at \`${site.file}\` are mapped twice (first at line ${other.loc.line}): an entry for the whole file and one for a declaration of it`,
      'a call maps to exactly one action: give each entry its own declaration (`in: <name>`), or keep the one for the whole file',
      { ...other.loc, message: 'first mapped here' },
    );
    return true;
  }

  private readComputed(e: Entry): { key: string; what: string; value: Record<string, unknown> } | undefined {
    return readComputedTool(this.r, e, path.dirname(this.absFile));
  }

  private readToolRef(kind: ToolKind, e: Entry): { key: string; what: string; value: Record<string, unknown> } | undefined {
    const r = this.r;
    if (kind === 'tool' && e.value !== null && isMap(e.value)) return this.readComputed(e);
    if (kind === 'tool') {
      const name = r.string(e.value, e.at, e.path, 'the SDK tool name, as in `tool({ name })`');
      if (name === undefined) return undefined;
      return { key: `tool\0${name}`, what: `tool \`${name}\``, value: { kind: 'function', tool: name } };
    }
    const map = r.map(e.value, e.at, e.path, REF_SHAPE[kind]);
    if (map === undefined) return undefined;
    const fields = r.entries(map, e.path);
    this.closed(fields, REF_KEYS[kind], `\`${kind}\``);
    const byKey = new Map(fields.map((f) => [f.key, f]));
    const need = (key: string, what: string): string | undefined => {
      const f = byKey.get(key);
      if (f === undefined) {
        r.errorAt(e.at, e.path, 'missing-key', `\`${kind}\` has no \`${key}\``, `add \`${key}: <${what}>\``);
        return undefined;
      }
      return r.string(f.value, f.at, f.path, `the ${what} (a string)`);
    };
    if (kind === 'mcp') {
      const server = need('server', 'MCP server name');
      const tool = need('tool', 'MCP tool name');
      if (server === undefined || tool === undefined) return undefined;
      return { key: `mcp\0${server}\0${tool}`, what: `MCP tool \`${tool}\` of server \`${server}\``, value: { kind: 'mcp', server, tool } };
    }
    if (kind === 'sandbox') {
      const tool = need('tool', 'capability tool name');
      const agent = byKey.has('agent') ? need('agent', 'SandboxAgent name') : undefined;
      if (tool === undefined || (byKey.has('agent') && agent === undefined)) return undefined;
      const of = agent === undefined ? 'of every SandboxAgent' : `of SandboxAgent \`${agent}\``;
      return {
        key: `sandbox\0${agent === undefined ? '*' : `=${agent}`}\0${tool}`,
        what: `sandbox tool \`${tool}\` ${of}`,
        value: agent === undefined ? { kind: 'sandbox', tool } : { kind: 'sandbox', tool, agent },
      };
    }
    if (kind === 'handoff') {
      const to = need('to', 'name of the agent handed to');
      if (to === undefined) return undefined;
      return { key: `handoff\0${to}`, what: `the handoff to agent \`${to}\``, value: { kind: 'handoff', to } };
    }
    const label = need('server_label', 'hosted MCP server label');
    if (label === undefined) return undefined;
    return { key: `hosted\0${label}`, what: `hosted MCP server \`${label}\``, value: { kind: 'hosted_mcp', serverLabel: label } };
  }
}

/**
 * `tool: { at: src/flows.ts, in: flowTools, names: "flow_*" }`: the tools `tool()` calls with a
 * computed name make, by the place of the calls (issue 40, item 5): the file, and the top-level
 * declaration they are written in when the file has several. The file stays inside the
 * repository; the names keep to the SDK's sanitized alphabet (what the model calls).
 */
function readComputedTool(r: YamlReader, e: Entry, root: string): { key: string; what: string; value: Record<string, unknown> } | undefined {
  const map = r.map(e.value, e.at, e.path, 'a mapping `{ at: <file>, in: <declaration>, names: <pattern> }`')!;
  const fields = r.entries(map, e.path);
  for (const f of fields) {
    if (!COMPUTED_KEYS.includes(f.key)) r.errorAt(f.keyNode, f.path, 'unknown-key', `unknown key \`${f.key}\` in \`tool\``, didYouMean(f.key, COMPUTED_KEYS));
  }
  const byKey = new Map(fields.map((f) => [f.key, f]));
  const atEntry = byKey.get('at');
  if (atEntry === undefined) {
    r.errorAt(e.at, e.path, 'missing-key', '`tool` as a mapping has no `at`', 'add `at: <file>`: the file the `tool()` call that computes the name is in');
    return undefined;
  }
  const file = r.string(atEntry.value, atEntry.at, atEntry.path, 'a file of the repository (`src/flows.ts`)');
  const inEntry = byKey.get('in');
  const container = inEntry !== undefined ? r.string(inEntry.value, inEntry.at, inEntry.path, 'the name of a top-level declaration (`flowTools`)') : undefined;
  if (inEntry !== undefined && container !== undefined && !/^[A-Za-z_$][\w$]*$/.test(container)) {
    r.errorAt(
      inEntry.at,
      inEntry.path,
      'bad-site',
      `\`${container}\` is not the name of a declaration`,
      'write the name of the top-level `const`, `function` or `class` the call is in, or `default`',
    );
    return undefined;
  }
  const names = readNamePattern(r, byKey.get('names'));
  if (file === undefined || names === undefined || (inEntry !== undefined && container === undefined)) return undefined;
  const rel = path.relative(root, path.resolve(root, file));
  if (file.includes('\0') || rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) {
    r.errorAt(
      atEntry.at,
      atEntry.path,
      'outside-root',
      `\`${file}\` is not a file inside the repository (the manifest's directory)`,
      'name a file of the repository, relative to this manifest',
    );
    return undefined;
  }
  const at = { file: rel.split(path.sep).join('/'), ...(container !== undefined ? { in: container } : {}) };
  const where = at.in !== undefined ? `${at.file}#${at.in}` : at.file;
  return { key: `computed\0${at.file}\0${at.in ?? '*'}`, what: `the tool() calls at \`${where}\``, value: { kind: 'computed', at, names } };
}

/** `names:`, a pattern of the sanitized alphabet (`*` for any run of characters); `*` when absent. */
function readNamePattern(r: YamlReader, e: Entry | undefined): string | undefined {
  if (e === undefined) return '*';
  const written = r.string(e.value, e.at, e.path, 'a tool-name pattern (`flow_*`)');
  if (written === undefined) return undefined;
  if (NAME_PATTERN_CHARS.test(written)) return written;
  r.errorAt(
    e.at,
    e.path,
    'bad-name-pattern',
    `\`${written}\` is not a tool-name pattern: only letters, digits, \`_\` and \`*\` (any run of characters)`,
    `the model sees tool names with every other character made \`_\`; write \`${written.split('*').map(sdkToolName).join('*')}\``,
  );
  return undefined;
}

export interface Project {
  manifest: Manifest;
  policy: Policy;
  /** File text by absolute path, for code frames. */
  sources: Map<string, string>;
  /** Warnings found while loading (nothing that stops the project from loading). */
  warnings?: Diagnostic[];
}

/**
 * Loads the manifest (found upward from cwd unless given) and its policy (the manifest's `policy`
 * unless overridden), and cross-checks them (every mapped action exists; a tool name maps to one
 * action; output and control inside the repo). Throws `UserError` carrying EVERY diagnostic found.
 */
export function loadProject(options: { cwd: string; manifest?: string; policy?: string }): Project {
  const manifestFile = options.manifest !== undefined ? path.resolve(options.cwd, options.manifest) : findManifest(options.cwd);
  if (manifestFile === undefined) {
    throw new UserError(`no ${MANIFEST_FILE} found in ${options.cwd} or any directory above it; run \`ctrlrun-gen init\` to create one, or pass --manifest`);
  }
  const sources = new Map<string, string>();
  const diagnostics: Diagnostic[] = [];

  const read = readTextFile(manifestFile, 'manifest', MAX_MANIFEST_BYTES);
  let manifest: Manifest | undefined;
  let locs: ManifestLocations = { actions: [] };
  const foreign = 'diagnostic' in read ? undefined : notCtrlrunFile(read.text, manifestFile, 'manifest', `schema: ${MANIFEST_SCHEMA}`);
  if ('diagnostic' in read) {
    diagnostics.push(read.diagnostic);
  } else if (foreign !== undefined) {
    diagnostics.push(foreign);
  } else {
    sources.set(manifestFile, read.text);
    const parsed = readManifest(read.text, manifestFile);
    diagnostics.push(...parsed.result.diagnostics);
    manifest = parsed.result.value;
    locs = parsed.locs;
  }

  const policyFile = options.policy !== undefined ? path.resolve(options.cwd, options.policy) : (manifest?.policy ?? locs.policyPath);
  let policy: Policy | undefined;
  const repo = gitRootOf(path.dirname(manifestFile)) ?? path.dirname(manifestFile);
  if (policyFile !== undefined && options.policy === undefined && !isInside(repo, policyFile)) {
    // The manifest is the repository's (a pull request may change it); the file it names is read
    // only when it is the repository's too, symlinks followed. `--policy` is the caller's choice.
    const at = locs.policy ?? { line: 1, column: 1 };
    diagnostics.push({
      severity: 'error',
      file: manifestFile,
      line: at.line,
      column: at.column,
      path: 'policy',
      code: 'outside-repo',
      message: 'the policy path leads outside the repository (after symlinks); it was not read',
      hint: 'keep the policy inside the repository (next to the manifest), or pass --policy',
    });
  } else if (policyFile !== undefined) {
    const loaded = loadPolicyFile(policyFile);
    if (loaded.source !== '') sources.set(policyFile, loaded.source);
    const missing = loaded.diagnostics.find((d) => d.code === 'file-not-found');
    if (missing && options.policy === undefined && locs.policy) {
      diagnostics.push({
        ...missing,
        ...locs.policy,
        file: manifestFile,
        message: `the policy \`${path.relative(path.dirname(manifestFile), policyFile)}\` does not exist`,
        path: 'policy',
        hint: 'create it with `ctrlrun-gen init`, or fix the path',
      });
    } else {
      diagnostics.push(...loaded.diagnostics);
    }
    policy = loaded.value;
  }

  if (manifest !== undefined && policy !== undefined) {
    const actionIds = Object.keys(policy.actions);
    manifest.tools.forEach((tool, i) => {
      if (Object.hasOwn(policy.actions, tool.action)) return;
      const at = locs.actions[i] ?? tool.loc;
      const best = nearest(tool.action, actionIds);
      const relatedAction = best !== undefined ? policy.actions[best] : undefined;
      const related = relatedAction
        ? { ...relatedAction.loc, message: `\`${best}\` is defined here` }
        : {
            file: policyFile!,
            line: 1,
            column: 1,
            message: `the policy defines ${actionIds.length === 0 ? 'no actions' : actionIds.map((a) => `\`${a}\``).join(', ')}`,
          };
      diagnostics.push({
        severity: 'error',
        file: manifestFile,
        line: at.line,
        column: at.column,
        path: `tools[${i}].action`,
        code: 'unknown-action',
        message: `action \`${tool.action}\` is not in the policy`,
        hint: best !== undefined ? `did you mean \`${best}\`?` : `add \`${tool.action}:\` under \`actions:\` in the policy`,
        related,
      });
    });
    try {
      if (!statSync(manifest.control).isFile()) throw new Error('not a file');
    } catch {
      const at = locs.control ?? { line: 1, column: 1 };
      diagnostics.push({
        severity: 'warning',
        file: manifestFile,
        line: at.line,
        column: at.column,
        path: 'control',
        code: 'missing-control',
        message: `the control module \`${path.relative(manifest.root, manifest.control)}\` does not exist yet`,
        hint: '`ctrlrun-gen init` writes one; `generate` imports it',
      });
    }
  }

  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0 || manifest === undefined || policy === undefined) {
    const n = errors.length;
    throw new UserError(`${n} error${n === 1 ? '' : 's'} in the policy and manifest`, diagnostics);
  }
  return { manifest, policy, sources, warnings: diagnostics.filter((d) => d.severity === 'warning') };
}
