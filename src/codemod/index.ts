import { hasHandDoors } from './hand-doors.js';
import { lstatSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import type { Manifest } from '../manifest/types.js';
import type { Policy } from '../policy/types.js';
import type { RootFiles } from '../fs/repo-files.js';
import { readSource, readSourceText, scanRepo } from '../scan/index.js';
import { crossCheck } from '../generate/crosscheck.js';
import { manifestDeclarationsInScans } from '../generate/declarations.js';
import type { FileScan } from '../scan/types.js';
import { rewriteFile, type FileContext } from './rewrite-file.js';
import { appAnswers } from './app-approvals.js';
import { dependentAnswers } from './dependent-answers.js';
import { assertImportLoads, createModuleSettingsLookup } from '../scan/specifier.js';
import type { CodemodFinding, CodemodResult, CodemodSummary, FileChange } from './types.js';
import { mappedDoorsOf, runsLackingContext } from '../scan/context-runs.js';
import { computedKey, computedTools, siteMatches } from '../manifest/computed.js';
import { IN_COMPONENT_HINT, isComponentFile } from '../scan/component-script.js';
import { UNLISTED_HINT } from '../scan/unlisted-imports.js';

export type { CodemodFinding, CodemodResult, CodemodSummary, FileChange } from './types.js';
export { writeChanges } from './write.js';
export { refuseDirtyTree } from './git.js';

export interface CodemodOptions {
  manifest: Manifest;
  policy: Policy;
  /** Files or directories (absolute, or relative to the manifest's root); default: the whole root. */
  paths?: string[];
  onProgress?: (done: number, total: number) => void;
  /** The root's files as the command listed them already: the scans of the root take them (another root's are not used). */
  rootFiles?: RootFiles;
}

/**
 * Analyses the repo (scanner output + manifest + policy) and computes the new text of every file
 * to edit. Pure with respect to the file system except for reading: nothing is written here.
 */
export async function runCodemod(options: CodemodOptions): Promise<CodemodResult> {
  const { manifest, policy } = options;
  const root = manifest.root;
  const scan = await scanRepo({
    root,
    ...(options.paths && options.paths.length > 0 ? { paths: options.paths } : {}),
    generatedModule: manifest.output,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.rootFiles ? { rootFiles: options.rootFiles } : {}),
  });
  // Given paths, the rest of the repo is read too: an app's own answers to its interruptions in a
  // file outside them authorize nothing once a tool is protected (issue 40 item 4), and generate
  // reads every declaration of a tool, wherever it is. Only the files within the paths are rewritten.
  const whole =
    options.paths && options.paths.length > 0
      ? await scanRepo({ root, generatedModule: manifest.output, ...(options.rootFiles ? { rootFiles: options.rootFiles } : {}) })
      : scan;
  // the tools generate leaves unprotected: left as they are (conflicts), the others rewritten
  const declared = manifestDeclarationsInScans(manifest, root, whole.files, (s) => readSourceText(path.join(root, s.file)));
  const { leftOut } = crossCheck(policy, manifest, declared);
  const answers = [...appAnswers(root, whole.files, path.resolve), ...(await dependentAnswers(manifest, whole.files))];
  const contextFor = fileContextFor(manifest, policy, leftOut, answers);

  const changes: FileChange[] = [];
  const findings: CodemodFinding[] = [];
  let alreadyProtected = 0;
  for (const fileScan of scan.files) {
    if (fileScan.sdkToolCalls.length === 0 && !fileScan.parseError && !hasDoors(fileScan) && !hasHandDoors(fileScan)) {
      alreadyProtected += fileScan.protectedToolCalls.length;
      continue;
    }
    const fileAbs = path.resolve(root, fileScan.file);
    if (fileScan.unlisted !== undefined) {
      // a module the listing leaves out, read because the package imports it: not the package's to rewrite
      if (!fileScan.parseError)
        findings.push(doorsLeft(fileScan, fileAbs, { where: UNLISTED_WHERE[fileScan.unlisted], object: 'it', hint: UNLISTED_HINT[fileScan.unlisted] }));
      continue;
    }
    if (isComponentFile(fileScan.file)) {
      // a component's code is read in place, but written back by its own compiler's rules: not rewritten here
      if (!fileScan.parseError)
        findings.push(
          doorsLeft(fileScan, fileAbs, {
            where: `a component (${path.extname(fileAbs)})`,
            object: 'code inside components',
            hint: `${IN_COMPONENT_HINT}, then run the codemod again`,
          }),
        );
      continue;
    }
    const link = linkTarget(fileAbs);
    if (link !== undefined) {
      // a link to a file outside the scan (one to a listed file is scanned under that file's name)
      findings.push({ ...FILE_START, kind: 'unreadable', file: fileAbs, message: `it is a symbolic link to ${link}`, hint: LINK_HINT });
      continue;
    }
    // decoded as the scanner decoded it (UTF-8, UTF-16 with a BOM), so its spans fit, and written back alike
    const source = readSource(fileAbs);
    if (!source) continue; // the scan reported it unreadable
    const { text, encoding } = source;
    const context = contextFor(fileAbs);
    const result = rewriteFile(fileScan, text, context);
    // the import it adds would name the module in a way Node, running this TypeScript as it is, cannot load
    if (result.after !== undefined && result.after !== text) assertImportLoads(context.settings, fileAbs, 'codemod', root);
    findings.push(...result.findings);
    alreadyProtected += result.alreadyProtected;
    if (result.after !== undefined && result.after !== text)
      changes.push({ file: fileAbs, before: text, after: result.after, ...(encoding === 'utf8' ? {} : { encoding }) });
  }
  // a file (or folder) the scan could not read may hold tools: never skipped without a word
  for (const u of scan.unreadable ?? []) {
    findings.push({ kind: 'unreadable', file: path.resolve(root, u.file), line: 1, column: 1, message: u.message });
  }
  const count = (kind: CodemodFinding['kind']) => findings.filter((f) => f.kind === kind || (f.kind === 'door-left' && f.reason === kind)).length;
  const summary: CodemodSummary = {
    filesScanned: scan.filesConsidered,
    filesParsed: scan.files.length,
    filesRewritten: changes.length,
    toolsRewritten: count('rewritten'),
    doorsRewritten: count('door-rewritten'),
    alreadyProtected,
    conflicts: count('conflict'),
    unmapped: count('unmapped'),
    noLiteralName: count('no-literal-name'),
    unanalysable: count('unanalysable'),
    unknownActions: count('unknown-action'),
    unparseable: count('parse-error') + count('unreadable'),
    errorFunction: count('error-function'),
  };
  const blocking = summary.conflicts + summary.unmapped + summary.noLiteralName + summary.unanalysable + summary.unknownActions + summary.unparseable;
  // runs whose protected calls would all be refused for want of a principal (issue 21): said, not left
  // to run time; the same runs check names (issue 40, item 3)
  const runsWithoutContext = runsLackingContext(scan.files, mappedDoorsOf(manifest.tools)).map((r) => ({
    ...r,
    file: path.resolve(root, r.file),
  }));
  return { root, changes, findings, summary, ...(runsWithoutContext.length > 0 ? { runsWithoutContext } : {}), exitCode: blocking > 0 ? 1 : 0 };
}

const FILE_START = { line: 1, column: 1 } as const;

/**
 * The doors of a file the codemod reads but does not rewrite, located at its first tool (else the
 * file's start): a component's code is written back by its own compiler's rules; a module the
 * package imports from outside it, or from a folder git ignores, is another package's to protect or
 * written again by its generator (issue 40 item 4). Counted as unparseable: it blocks.
 */
function doorsLeft(fileScan: FileScan, fileAbs: string, place: { where: string; object: string; hint: string }): CodemodFinding {
  const first = fileScan.sdkToolCalls[0];
  const at = first ? { line: first.span.line, column: first.span.column } : FILE_START;
  const what = first ? `the tool${first.name !== undefined ? ` '${first.name}'` : ''}` : 'a door (an MCP server, a hosted or local tool, an agent as a tool)';
  return { ...at, kind: 'unreadable', file: fileAbs, message: `${what} is in ${place.where}: the codemod does not rewrite ${place.object}`, hint: place.hint };
}

/** Where an unlisted module is, for the codemod's finding. */
const UNLISTED_WHERE = { outside: 'a module outside this package', ignored: 'a module git ignores (generated at build time?)' } as const;

const LINK_HINT = 'rewrite the file it points to: writing through the link would replace it with a copy';

/** Where a symbolic link points (as written in the link), or undefined when the file is no link. */
function linkTarget(fileAbs: string): string | undefined {
  try {
    return lstatSync(fileAbs).isSymbolicLink() ? readlinkSync(fileAbs) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What the rewrite of one file needs from the manifest and policy, for any file of the repo (the
 * codemod and the ESLint plugin's fixes rewrite through the same `rewriteFile`).
 */
export function fileContextFor(
  manifest: Manifest,
  policy: Policy,
  leftOut?: FileContext['leftOut'],
  answers?: FileContext['appAnswers'],
): (fileAbs: string) => FileContext {
  const actions = new Map<string, string>();
  for (const t of manifest.tools) if (t.kind === 'function') actions.set(t.tool, t.action);
  const hostedLabels = new Set(manifest.tools.flatMap((t) => (t.kind === 'hosted_mcp' ? [t.serverLabel] : [])));
  const mcpServers = new Set(manifest.tools.flatMap((t) => (t.kind === 'mcp' ? [t.server] : [])));
  const pinnedMcpServers = new Set(
    manifest.tools.flatMap((t) => {
      const pin = t.kind === 'mcp' ? policy.actions[t.action]?.upstream : undefined;
      return t.kind === 'mcp' && ((pin?.tlsCertSha256?.length ?? 0) > 0 || (pin?.tlsCertPems?.length ?? 0) > 0) ? [t.server] : [];
    }),
  );
  const settingsFor = createModuleSettingsLookup(manifest.root);
  const computed = computedTools(manifest);
  const sandboxMapped = manifest.tools.some((t) => t.kind === 'sandbox');
  const handoffActions = new Map(manifest.tools.flatMap((t) => (t.kind === 'handoff' ? [[t.to, t.action] as const] : [])));
  return (fileAbs) => ({
    fileAbs,
    actions,
    computedAt: (container) => {
      const file = path.relative(manifest.root, fileAbs).split(path.sep).join('/');
      const entry = computed.find((t) => siteMatches(t.at, file, container));
      return entry && { action: entry.action, key: computedKey(entry) };
    },
    hostedLabels,
    mcpServers,
    pinnedMcpServers,
    sandboxMapped,
    handoffActions,
    policy,
    generatedModule: manifest.output,
    settings: settingsFor(path.dirname(fileAbs)),
    ...(leftOut && leftOut.size > 0 ? { leftOut } : {}),
    ...(answers && answers.length > 0 ? { appAnswers: answers } : {}),
  });
}

/** Whether a file holds a door the codemod may rewrite besides `tool()`. */
export function hasDoors(scan: FileScan): boolean {
  return (
    scan.hostedMcpCalls.length > 0 ||
    (scan.sdkFactoryCalls ?? []).some((c) => ['shellTool', 'applyPatchTool', 'computerTool', 'getAllMcpTools', 'mcpToFunctionTool'].includes(c.factory)) ||
    (scan.agentAsToolCalls ?? []).length > 0 ||
    (scan.sandboxAgents ?? []).some((s) => !s.guarded) ||
    (scan.handoffs ?? []).some((h) => h.form !== 'protected') ||
    (scan.mcpServerLists ?? []).some((l) => !l.agentProtected && l.elements.some((e) => e.status !== 'protected')) ||
    // a door's part written after it is made: left as a conflict (door-write-conflicts.ts)
    (scan.doorWrites ?? []).length > 0 ||
    (scan.invokeReplacements ?? []).length > 0
  );
}
