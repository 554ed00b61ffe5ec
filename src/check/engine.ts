import { existsSync } from 'node:fs';
import path from 'node:path';
import { displayPath } from '../format-diagnostics.js';
import { UserError } from '../diagnostics.js';
import { manifestDeclarationsInScans, type ToolDeclaration } from '../generate/declarations.js';
import { generatedFiles, renderGeneratedModule, type GeneratedModule } from '../generate/index.js';
import { findManifest, loadProject, MANIFEST_FILE, type Project } from '../manifest/load.js';
import { dependsOnProtected } from '../manifest/workspace-dependencies.js';
import { listedTextReader, readSourceText, scanRepo, treeOf, type PendingRepoRead, type RepoRead } from '../scan/index.js';
import { readAheadFor, readsSame } from './read-ahead.js';
import type { RootFiles } from '../fs/repo-files.js';
import { readRepoHere } from '../scan/read-here.js';
import type { ListedRoot } from '../scan/read.js';
import type { CompiledScript } from '../scan/code-cache.js';
import { compileTypeScriptSteps, loadTypeScript } from '../scan/typescript.js';
import type { FileScan } from '../scan/types.js';
import { PackageFacts } from '../scan/package-facts.js';
import { controlMissingRule, FILE_RULES, PARSE_ERROR_RULE, policyInvalidFindings, REPO_RULES, staleGeneratedRule, unreadableFindings } from './rules/index.js';
import { compareFindings } from './sort.js';
import { dependentAnswerFindings } from './dependent-answers.js';
import { applySuppressions } from './suppressions.js';
import type { Finding, ProjectContext, RepoFacts, ScannedFile } from './types.js';
import { withAnswerFacts } from './answer-facts.js';
import { isInside, readRegularText } from '../safe-read.js';
import { IN_COMPONENT_HINT, isComponentFile } from '../scan/component-script.js';
import { inUnlistedModule } from './rules/unlisted-hint.js';

export interface CheckOptions {
  /** Absolute working directory; finding paths are relative to it. */
  cwd: string;
  /** Files or directories to check, relative to cwd; default: the whole repo. */
  paths?: string[];
  /**
   * The paths the command was given, when `paths` are their part in one package of several (a
   * workspace root's check): the files other checks of the command cover. Default: `paths`.
   */
  commandPaths?: readonly string[];
  /**
   * What the command's checks cover together (relative to cwd), when this check is one of several (a
   * workspace root's): a module outside the package that it imports (unlisted-imports.ts) is then
   * reported by the check that covers it, not again here. Default: this check covers only its own.
   */
  covered?: readonly string[];
  /** Manifest path (relative to cwd); default: found upward from cwd. */
  manifest?: string;
  /** Policy path (relative to cwd); default: the manifest's `policy`. */
  policy?: string;
  onProgress?: (done: number, total: number) => void;
  /**
   * List and read the repo on a worker thread while this thread loads the compiler (start-up,
   * issue 10): less wall time on an idle second core, more CPU (a second Node bootstrap), so the
   * CLI reads on its own thread (issue 40, item 8). Findings are the same either way.
   */
  parallelRead?: boolean;
  /** That read, already started by the caller (`readAheadFor`); used when it reads what the check scans. */
  ahead?: PendingRepoRead;
  /** Told how the repo was read (`--debug`). */
  onDebug?: (line: string) => void;
  /**
   * `cwd` listed once and its configs read (`listRoot`), the listing's files narrowed to `paths`:
   * a region of a root whose regions are checked one by one (check/uncovered-packages.ts). Used
   * when no manifest moves the check's root away from `cwd`; nothing is listed or read again then.
   */
  listed?: ListedRoot;
  /** The manifest's folder's files as the command listed them (`listRootFiles`): read when the check's root is that folder. */
  rootFiles?: RootFiles;
}

export interface CheckResult {
  /** Every finding, in stable order (file, line, column, ruleId). */
  findings: Finding[];
  /** The policy or manifest did not load (or the generator refused them): exit 2. */
  configError: boolean;
  filesConsidered: number;
  filesParsed: number;
}

/** Every path named (relative to `cwd`) is there: one that is not is a usage error, never a quiet pass. */
export function assertPathsExist(cwd: string, paths: readonly string[] | undefined): void {
  for (const p of paths ?? []) {
    if (!existsSync(path.resolve(cwd, p))) throw new UserError(`check: no such file or directory: ${p}`);
  }
}

/** The lint, in-process: loads the project, scans the repo, runs every rule, applies suppressions. */
export async function runCheck(options: CheckOptions): Promise<CheckResult> {
  const cwd = path.resolve(options.cwd);
  const relative = (file: string): string => displayPath(file, cwd);
  const paths = options.paths && options.paths.length > 0 ? options.paths.map((p) => path.resolve(cwd, p)) : undefined;
  // The files can be listed and read on another thread while this one loads the project and the compiler.
  const ahead =
    options.ahead ??
    (options.parallelRead
      ? readAheadFor({ cwd, ...(options.paths ? { paths: options.paths } : {}), ...(options.manifest !== undefined ? { manifest: options.manifest } : {}) })
      : undefined);
  let read: RepoRead | undefined;
  const findings: Finding[] = [];
  let project: Project | undefined;
  let root: string;
  try {
    assertPathsExist(cwd, options.paths);
    const loaded = loadProjectOrFindings(cwd, options, relative);
    findings.push(...loaded.findings);
    project = loaded.project;
    root = project ? project.manifest.root : cwd;
    if (ahead && readsSame(ahead, root, paths)) {
      // A file the scan will parse is found: loading the compiler now overlaps the rest of the reading.
      const generated = project ? path.resolve(project.manifest.output) : undefined;
      const waited = await compileWhileWaiting(ahead);
      if (waited.answer?.some((file) => file !== generated)) loadTypeScript(waited.compiled());
      read = await ahead.result();
      options.onDebug?.(
        read
          ? `the repo was listed and read on a second thread (${read.listing.files.length} files)`
          : `the reading thread failed (${ahead.failure() ?? 'no answer'}); the files are read on the main thread`,
      );
    } else if (ahead) options.onDebug?.('the read started ahead covers other files than the check scans; the files are read on the main thread');
  } finally {
    if (!read) ahead?.cancel();
  }
  if (!read) {
    // read here, as the thread would: the same bytes and verdicts, and the listing for stale-generated
    const listed = options.listed && !project && root === cwd ? options.listed : undefined;
    read = readRepoHere({ root, ...(paths ? { paths } : {}), ...(options.rootFiles ? { rootFiles: options.rootFiles } : {}) }, listed);
    if (!ahead) options.onDebug?.(`the repo was listed and read on the main thread (${read.listing.files.length} files)`);
  }
  const context: ProjectContext | undefined = project ? { manifest: project.manifest, policy: project.policy } : undefined;

  const repo = await scanRepo({
    root,
    ...(paths ? { paths } : {}),
    ...(project ? { generatedModule: project.manifest.output } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(read ? { read } : {}),
  });

  const elsewhere = coveredElsewhere(cwd, root, options.covered, repo.files);
  findings.push(
    // the scan's tree holds the text it read: no file is read twice
    // the repo rules ask the disk through one PackageFacts of the check's root (sdk-approval: the
    // packages a package without protected tools depends on)
    ...lintFiles(
      elsewhere.size > 0 ? repo.files.filter((s) => !elsewhere.has(s.file)) : repo.files,
      context,
      (scan) => treeOf(scan)?.text ?? readSourceText(path.resolve(root, scan.file)) ?? '',
      {
        packages: new PackageFacts(root),
      },
    ).map((f) => ({
      ...f,
      file: relative(path.resolve(root, f.file)),
    })),
  );
  findings.push(...unreadableFindings(repo.unreadable ?? []).map((f) => ({ ...f, file: relative(path.resolve(root, f.file)) })));
  // the SDK answers of the workspace packages that depend on it, with or without paths (issue 40)
  if (context) {
    const reached = options.commandPaths && options.commandPaths.length > 0 ? options.commandPaths.map((p) => path.resolve(cwd, p)) : paths;
    findings.push(...(await dependentAnswerFindings(context, cwd, reached, paths ? { paths } : { scans: repo.files })));
  }

  if (project) {
    // The whole repo was scanned: hand the generator the tool declarations from this scan instead
    // of letting it walk and read the repo a second time (its text test is a subset of the scanner's,
    // so the files it would read are among those scanned).
    const declarations = options.paths && options.paths.length > 0 ? undefined : declarationsFromScan(project, repo.files);
    // the listing read ahead for the whole manifest root is `listSourceFilesSync({ root })`'s (the
    // generated module included): rendering the module reuses it instead of listing the repo again
    const listing = read && !paths && root === project.manifest.root ? read.listing.files : undefined;
    // and the files it reads to learn how a repo without a tsconfig writes its imports, from the bytes read
    findings.push(...staleOrConfigFindings(project, relative, declarations, listing, listing && read ? listedTextReader(read) : undefined));
  }

  findings.sort(compareFindings);
  return {
    findings,
    configError: findings.some((f) => f.ruleId === 'policy-invalid'),
    filesConsidered: repo.filesConsidered,
    filesParsed: repo.files.length,
  };
}

/**
 * The scans (by their path) of modules outside the package that another check of the command covers
 * (`covered`, relative to `cwd`): a package's tool module a sibling imports is linted by the
 * sibling's own region, once.
 */
function coveredElsewhere(cwd: string, root: string, covered: readonly string[] | undefined, scans: readonly FileScan[]): Set<string> {
  const out = new Set<string>();
  if (!covered || covered.length === 0) return out;
  const dirs = covered.map((p) => path.resolve(cwd, p));
  for (const scan of scans) {
    if (scan.unlisted !== 'outside') continue;
    const abs = path.resolve(root, scan.file);
    if (dirs.some((d) => abs === d || isInside(d, abs))) out.add(scan.file);
  }
  return out;
}

/**
 * Waits for the reading thread's first answer, compiling the compiler meanwhile (from its code
 * cache, in steps; not run, so nothing is loaded): the main thread has nothing else to do until the
 * thread says whether any file needs the compiler. `compiled()` finishes the compiling, for a caller
 * that needs it; one that does not has only read a file.
 */
async function compileWhileWaiting(ahead: PendingRepoRead): Promise<{ answer: string[] | undefined; compiled: () => CompiledScript | undefined }> {
  let answered = false;
  const answer = ahead.candidates().finally(() => {
    answered = true;
  });
  const steps = compileTypeScriptSteps();
  let compiled: CompiledScript | undefined;
  let done = false;
  while (!done) {
    // let the thread's message in between the steps
    await new Promise((resolve) => setImmediate(resolve));
    if (answered) break;
    const step = steps.next();
    if (step.done) {
      compiled = step.value;
      done = true;
    }
  }
  const finish = (): CompiledScript | undefined => {
    while (!done) {
      const step = steps.next();
      if (step.done) {
        compiled = step.value;
        done = true;
      }
    }
    return compiled;
  };
  return { answer: await answer, compiled: finish };
}

/**
 * The pure core: every file rule, the repo rules, then each file's suppressions. Paths in the
 * findings are the scans' own paths.
 */
export function lintFiles(scans: FileScan[], project: ProjectContext | undefined, readText: (scan: FileScan) => string, facts?: RepoFacts): Finding[] {
  const byFile = repoRuleFindings(scans, project, readText, facts);
  const out: Finding[] = [];
  for (const scan of scans) {
    out.push(...lintScannedFile(scan, project, byFile.get(scan.file) ?? []));
    byFile.delete(scan.file);
  }
  for (const rest of byFile.values()) out.push(...rest);
  return out.sort(compareFindings);
}

/**
 * One file's findings: its file rules, the repo rules' findings in it (`repoFindings`), then its
 * suppressions. `check` and the ESLint plugin both lint a file through here.
 */
export function lintScannedFile(scan: FileScan, project: ProjectContext | undefined, repoFindings: readonly Finding[]): Finding[] {
  const rules = scan.parseError ? [PARSE_ERROR_RULE] : FILE_RULES;
  const own: Finding[] = [];
  for (const rule of rules) own.push(...rule(scan, project));
  own.push(...repoFindings);
  if (scan.parseError) return own;
  const fitted = scan.unlisted !== undefined ? own.map((f) => inUnlistedModule(scan, f)) : isComponentFile(scan.file) ? own.map(inComponent) : own;
  const { kept, own: about } = applySuppressions(scan.file, fitted, scan.suppressions);
  return [...kept, ...about];
}

/**
 * A component's findings whose fix is the codemod's: the codemod does not rewrite inside a
 * component, so the hint says first to move the door to a module (where that fix applies).
 */
function inComponent(f: Finding): Finding {
  return /codemod|--fix/.test(f.hint) ? { ...f, hint: `${IN_COMPONENT_HINT[0]!.toUpperCase()}${IN_COMPONENT_HINT.slice(1)}; there: ${f.hint}` } : f;
}

/** The repo rules' findings (before suppressions), by the scan path of the file they are in. */
export function repoRuleFindings(
  scans: FileScan[],
  project: ProjectContext | undefined,
  readText: (scan: FileScan) => string,
  facts?: RepoFacts,
): Map<string, Finding[]> {
  const byFile = new Map<string, Finding[]>();
  const files: ScannedFile[] = scans.map((scan) => ({ scan, text: () => readText(scan) }));
  // what the rules read of other packages, read here once: the rules themselves read no disk
  const known = facts ? withAnswerFacts(scans, project, facts) : undefined;
  for (const rule of REPO_RULES) {
    for (const f of rule(files, project, known)) {
      const list = byFile.get(f.file);
      if (list) list.push(f);
      else byFile.set(f.file, [f]);
    }
  }
  return byFile;
}

export function loadProjectOrFindings(
  cwd: string,
  options: Pick<CheckOptions, 'manifest' | 'policy'>,
  relative: (file: string) => string,
): { project?: Project; findings: Finding[] } {
  if (options.manifest === undefined && findManifest(cwd) === undefined) return { findings: noManifestFindings(cwd) };
  try {
    return {
      project: loadProject({
        cwd,
        ...(options.manifest !== undefined ? { manifest: path.resolve(cwd, options.manifest) } : {}),
        ...(options.policy !== undefined ? { policy: path.resolve(cwd, options.policy) } : {}),
      }),
      findings: [],
    };
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    return { findings: userErrorFindings(error, options.manifest ?? MANIFEST_FILE, cwd, relative) };
  }
}

/**
 * The finding of a repo with no manifest in its folder or above; none when its package depends on a
 * package whose manifest maps its tools (a `server` beside `agents`: its check reports its SDK
 * answers to those tools, issue 40).
 */
export function noManifestFindings(cwd: string): Finding[] {
  if (dependsOnProtected(cwd)) return [];
  return [
    {
      ruleId: 'policy-invalid',
      severity: 'error',
      file: MANIFEST_FILE,
      line: 1,
      column: 1,
      message: `No ${MANIFEST_FILE} in this directory or any directory above it: nothing maps the tools to policy actions.`,
      hint: 'Create the policy and manifest with `npx ctrlrun-gen init`, or point at them with `--manifest`.',
    },
  ];
}

/** A loader's UserError as findings; one with no located diagnostic is placed at the manifest. */
function userErrorFindings(error: UserError, manifest: string, cwd: string, relative: (file: string) => string): Finding[] {
  const located = policyInvalidFindings(error.diagnostics, (f) => relative(path.resolve(cwd, f)));
  if (located.length > 0) return located;
  return [
    {
      ruleId: 'policy-invalid',
      severity: 'error',
      file: relative(path.resolve(cwd, manifest)),
      line: 1,
      column: 1,
      message: error.message,
      hint: 'Create the policy and manifest with `npx ctrlrun-gen init`, or point at them with `--manifest`.',
    },
  ];
}

/** The declarations of the manifest's tool names, as the generator would find them, from scanned files. */
export function declarationsFromScan(project: Project, scans: FileScan[]): Map<string, ToolDeclaration[]> {
  const root = project.manifest.root;
  return manifestDeclarationsInScans(project.manifest, root, scans, (scan) => readSourceText(path.join(root, scan.file)));
}

export function staleOrConfigFindings(
  project: Project,
  relative: (file: string) => string,
  declarations?: Map<string, ToolDeclaration[]>,
  listing?: readonly string[],
  readListed?: (file: string) => string,
): Finding[] {
  let generated: GeneratedModule;
  try {
    generated = renderGeneratedModule(project, {
      ...(declarations ? { declarations } : {}),
      ...(listing ? { listing } : {}),
      ...(readListed ? { readListed } : {}),
    });
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    return userErrorFindings(error, project.manifest.file, project.manifest.root, relative);
  }
  // a tool generate leaves unprotected (issue 40): its errors, as when they stopped generate
  const leftOut = policyInvalidFindings(generated.diagnostics, (f) => relative(path.resolve(project.manifest.root, f)));
  // A JavaScript module's declaration file is generated too, and goes stale with it.
  const stale = generatedFiles(generated).flatMap((expected) => {
    let actual: string | undefined;
    try {
      actual = readRegularText(expected.path);
    } catch {
      actual = undefined;
    }
    return staleGeneratedRule(relative(expected.path), expected.text, actual);
  });
  // the module imports the control: without it the app does not build or start (issue 40)
  const at = project.warnings?.find((w) => w.code === 'missing-control');
  const control = controlMissingRule(project.manifest, relative, at && { line: Math.max(1, at.line), column: Math.max(1, at.column) });
  return [...leftOut, ...stale, ...control];
}
