import path from 'node:path';
import { declarationsFromScan, lintScannedFile, loadProjectOrFindings, noManifestFindings, repoRuleFindings, staleOrConfigFindings } from '../check/engine.js';
import type { Finding, ProjectContext, RepoFacts } from '../check/types.js';
import { findManifest, MANIFEST_FILE, type Project } from '../manifest/load.js';
import { manifestsFor, packagesBelow } from '../manifest/workspace.js';
import {
  filesInFolder,
  generatedModuleIn,
  missingManifestFinding,
  opensRegion,
  reportedWhenClosed,
  packagesCheckedBelow,
  packagesWithoutManifest,
  rootFilesOutsidePackages,
  startsGenerated,
} from '../check/uncovered-packages.js';
import { gitRootOf, readRegularText } from '../safe-read.js';
import { listRepo, outsideOf } from '../scan/list.js';
import { scanRepoIndexed, scanSource, type RepoIndex } from '../scan/index.js';
import { PackageFacts, statKey } from '../scan/package-facts.js';
import type { FileScan } from '../scan/types.js';
import { appAnswers, type AppAnswer } from '../codemod/app-approvals.js';
import { dependentAnswersSync } from '../codemod/dependent-answers.js';
import { crossCheck, type CrossCheck } from '../generate/crosscheck.js';
import { DiskState } from './disk-state.js';

/**
 * What the ESLint front end asks of a repo: one file's findings, given the text ESLint holds for
 * it. `check` lints the whole repo at once; ESLint lints a file at a time (an editor: the same file
 * again and again), so a session keeps what is repo-wide (the project, the listing, barrels and
 * aliases, the other files' scans, the generated module's freshness) and answers per file.
 */
export interface LintSession {
  /** Absolute root the findings' `file` paths are relative to. */
  readonly root: string;
  /** The project the rules see (undefined: the manifest or policy did not load). */
  readonly project: Project | undefined;
  /** The findings of this file (scan path), the repo-wide ones located elsewhere included (`elsewhere`). */
  lint(abs: string, text: string): FileLint;
  /** What the codemod's rewrite of a file reads of the rest of the repo (see {@link CodemodInputs}); undefined: no repo. */
  codemodInputs?(): CodemodInputs | undefined;
}

/**
 * What a fix reads of the whole repo, as `codemod --write` does: the app's own answers to its
 * interruptions (a tool the policy can pause is then left as a conflict: issue 40 item 4) and the
 * tools `generate` leaves out of the module (read once per session, as `stale-generated` is).
 */
export interface CodemodInputs {
  answers: AppAnswer[];
  leftOut: CrossCheck['leftOut'];
}

export interface FileLint {
  /** The file's scan (undefined: the text test says nothing in it can matter, or it is the generated module). */
  scan: FileScan | undefined;
  /** Findings located in this file, suppressions applied: what `check` reports for it. */
  own: Finding[];
  /**
   * Findings `check` places in a file ESLint does not lint (the policy, the manifest, the generated
   * module) that this file depends on: reported at its first line, their location named.
   */
  elsewhere: Finding[];
  /**
   * Findings of a module the listing leaves out that this file imports (session 30): reported at
   * the import, their location named.
   */
  atImports?: Array<{ finding: Finding; line: number; column: number }>;
}

/** Whether a scanned file depends on the project (it uses the SDK or the generated module). */
function dependsOnProject(scan: FileScan): boolean {
  return scan.importsSdk || scan.generatedImports.length > 0 || scan.protectedToolCalls.length > 0 || scan.sdkToolCalls.length > 0;
}

/**
 * The session of one manifest on disk. Built on the first file linted; the manifest, the policy
 * (every file its load read), the generated module and the package.json / vite configs the repo
 * rules consulted (`facts`) are stat-ed on every file linted, and a
 * changed one rebuilds the session's project (and rescans the repo), so an editor sees an edited
 * manifest without a restart. Other files are seen as the repo scan read them, then as ESLint last
 * linted them (an editor's unsaved text included).
 */
export class DiskSession implements LintSession {
  readonly root: string;
  readonly project: Project | undefined;
  readonly key: string;
  private readonly projectFindings: Finding[];
  private readonly index: RepoIndex;
  private readonly generated: string | undefined;
  /** Scans by absolute path: the repo scan's, replaced by what ESLint linted since. */
  private readonly scans = new Map<string, FileScan>();
  private readonly texts = new Map<string, string>();
  private repoFindings: { byFile: Map<string, Finding[]>; elsewhere: Finding[] } | undefined;
  /** The file `onceFile` names, found on first use (null: not yet). */
  private firstUser: string | undefined | null = null;
  private codemod: CodemodInputs | undefined;
  /** generate's left-out tools, as of the repo scan (as `stale-generated` is: once per session). */
  private leftOut: CrossCheck['leftOut'] | undefined;
  /** The answers of the workspace packages that depend on this one, read once per session (their files are not this session's). */
  private dependentAnswers: AppAnswer[] | undefined;
  private stale: Finding[] | undefined;
  /** The package folders and builds the repo rules asked of the disk, kept while they are unchanged. */
  readonly facts: RepoFacts;
  /** The listed files and their folders as the repo scan found them on disk. */
  private readonly disk: DiskState;

  /** `paths`: the files to scan (absolute; all of the root's when none), as check's region of a root's own files. */
  constructor(manifest: string | undefined, cwd: string, paths?: readonly string[]) {
    const dir = manifest !== undefined ? path.dirname(manifest) : cwd;
    const toDir = (file: string): string => path.relative(dir, path.resolve(dir, file)).split(path.sep).join('/');
    const loaded = manifest === undefined ? { findings: noManifestFindings(dir) } : loadProjectOrFindings(dir, { manifest }, toDir);
    this.project = loaded.project;
    this.root = loaded.project ? loaded.project.manifest.root : dir;
    this.projectFindings = loaded.findings;
    this.generated = loaded.project?.manifest.output;
    this.key = sessionKey(manifest, loaded.project);
    this.facts = { packages: new PackageFacts(this.root), workspaces: new Map() };
    const { scan, index } = scanRepoIndexed({
      root: this.root,
      ...(this.generated ? { generatedModule: this.generated } : {}),
      ...(paths ? { paths: [...paths] } : {}),
    });
    this.index = index;
    for (const s of scan.files) this.scans.set(path.resolve(this.root, s.file), s);
    this.disk = new DiskState(this.root, index.files);
  }

  /**
   * Takes in what moved on disk since the session read it (a `git checkout`, another tool's write):
   * a changed file is read again as an edit; false when files were created or deleted, so the
   * listing is stale and the caller builds a new session.
   */
  syncDisk(): boolean {
    const moved = this.disk.changes();
    if (moved.listing) return false;
    for (const abs of moved.files) {
      let text: string;
      try {
        text = readRegularText(abs);
      } catch {
        return false; // unreadable now: let a new session's listing say what it is
      }
      this.scanOf(abs, text);
    }
    return true;
  }

  private get context(): ProjectContext | undefined {
    return this.project ? { manifest: this.project.manifest, policy: this.project.policy } : undefined;
  }

  lint(abs: string, text: string): FileLint {
    if (this.generated !== undefined && isGeneratedFile(abs, this.generated)) {
      // never scanned, as in check; its own staleness is reported in it
      const rel = this.relative(abs);
      return { scan: undefined, own: this.staleFindings().filter((f) => f.file === rel), elsewhere: [] };
    }
    const scan = this.scanOf(abs, text);
    if (!scan) return { scan, own: [], elsewhere: [] };
    const repo = this.repoRuleFindings();
    // the project's and the generator's findings (unsuppressible) located in this file are its own,
    // at check's line (a zod `.default()` the generator refuses); the others are shown at line 1
    const project = [...this.projectFindings, ...this.staleFindings()];
    const here = (f: Finding): boolean => f.file === scan.file;
    const own = [...lintScannedFile(scan, this.context, repo.byFile.get(scan.file) ?? []), ...project.filter(here)];
    const unlisted = this.unlistedFindings(scan, text, repo.byFile);
    if (!dependsOnProject(scan)) return { scan, own, elsewhere: [], atImports: unlisted.atImports };
    const elsewhere = [...this.projectFindings.filter((f) => !here(f)), ...repo.elsewhere, ...unlisted.once, ...this.staleFindings().filter((f) => !here(f))];
    return { scan, own, elsewhere, atImports: unlisted.atImports };
  }

  /**
   * The findings in the modules the listing leaves out that the scan read (session 28): ESLint is
   * not given such a module (another package's, or one git ignores). Each module's findings are
   * shown in the scanned files that import it, at the import (session 30); a module no scanned file
   * is known to import shows them once, in the first listed file that uses the SDK. check reports
   * them in the module, once.
   */
  private unlistedFindings(
    scan: FileScan,
    text: string,
    repoByFile: ReadonlyMap<string, Finding[]>,
  ): { atImports: Array<{ finding: Finding; line: number; column: number }>; once: Finding[] } {
    const atImports: Array<{ finding: Finding; line: number; column: number }> = [];
    const once: Finding[] = [];
    for (const module of this.scans.values()) {
      if (module.unlisted === undefined || module === scan) continue;
      const importers = module.importedBy ?? [];
      const mine = importers.filter((i) => i.file === scan.file);
      const shown = mine.length > 0 || (importers.length === 0 && this.onceFile() === scan.file);
      if (!shown) continue;
      const found = lintScannedFile(module, this.context, repoByFile.get(module.file) ?? []).filter((f) => f.file !== scan.file);
      if (mine.length === 0) once.push(...found);
      else for (const finding of found) atImports.push({ finding, ...importPlace(scan, text, mine[0]!.specifier) });
    }
    return { atImports, once };
  }

  /** The first listed file (by name) that uses the SDK: where the findings of an unlisted module no file is known to import are shown. */
  private onceFile(): string | undefined {
    if (this.firstUser === null) {
      const users = [...this.scans.values()].filter((s) => s.unlisted === undefined && dependsOnProject(s)).map((s) => s.file);
      this.firstUser = users.sort()[0];
    }
    return this.firstUser;
  }

  private relative(abs: string): string {
    return path.relative(this.root, abs).split(path.sep).join('/');
  }

  /** Whether a scanned file `keep` admits has an error finding (the project's own findings are not the files'): a package without a manifest is open. */
  hasErrors(keep: (abs: string) => boolean = () => true, counts: (f: Finding) => boolean = (f) => f.severity === 'error'): boolean {
    const repo = this.repoRuleFindings();
    for (const [abs, scan] of this.scans) {
      if (!keep(abs)) continue;
      const found = lintScannedFile(scan, this.context, repo.byFile.get(scan.file) ?? []);
      if (found.some(counts)) return true;
    }
    return false;
  }

  /** The scan of this text of the file: the repo scan's when the text is the one it read, else a new one. */
  private scanOf(abs: string, text: string): FileScan | undefined {
    const known = this.scans.get(abs);
    const seen = this.texts.get(abs) ?? this.index.textOf(abs);
    if (known && seen === text) return known;
    if (!known && seen === text) return undefined;
    const scan = this.index.scanText(abs, text);
    this.texts.set(abs, text);
    if (scan) this.scans.set(abs, scan);
    else this.scans.delete(abs);
    if (scan !== known) {
      this.repoFindings = undefined;
      this.firstUser = null;
      this.codemod = undefined;
    }
    // the files that read this one as a module (its constants, its own types) are scanned again with its new text
    for (const reader of this.index.edited(abs, text)) this.rescan(reader);
    return scan;
  }

  /** Scans a file again with the text last seen, after a module it reads changed. */
  private rescan(abs: string): void {
    const text = this.texts.get(abs) ?? this.index.textOf(abs);
    if (text === undefined) return;
    const scan = this.index.scanText(abs, text);
    if (scan) this.scans.set(abs, scan);
    else this.scans.delete(abs);
    this.repoFindings = undefined;
    this.firstUser = null;
    this.codemod = undefined;
  }

  codemodInputs(): CodemodInputs | undefined {
    const project = this.project;
    if (!project) return undefined;
    if (this.codemod) return this.codemod;
    const scans = [...this.scans.values()];
    // the answers again after an edit (a walk of the scans); the declarations' check once
    this.leftOut ??= crossCheck(project.policy, project.manifest, declarationsFromScan(project, scans)).leftOut;
    // and the answers of the packages that depend on this one, as the codemod reads them (issue 40)
    this.dependentAnswers ??= dependentAnswersSync(project.manifest, scans);
    this.codemod = { answers: [...appAnswers(this.root, scans, path.resolve), ...this.dependentAnswers], leftOut: this.leftOut };
    return this.codemod;
  }

  /** The repo rules' findings, by file, and those in files that are not scanned sources (the policy: observe-mode). */
  private repoRuleFindings(): { byFile: Map<string, Finding[]>; elsewhere: Finding[] } {
    if (this.repoFindings) return this.repoFindings;
    const scans = [...this.scans.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    // a rescanned file's runs, and the runs of agents it exports, are followed again across the repo
    this.index.resolveRuns(scans);
    const textOf = (scan: FileScan): string => {
      const abs = path.resolve(this.root, scan.file);
      return this.texts.get(abs) ?? this.index.textOf(abs) ?? '';
    };
    const byFile = repoRuleFindings(scans, this.context, textOf, this.facts);
    const sources = new Set(scans.map((scan) => scan.file));
    this.repoFindings = { byFile, elsewhere: [...byFile.entries()].flatMap(([file, found]) => (sources.has(file) ? [] : found)) };
    return this.repoFindings;
  }

  /** `stale-generated` (or the generator's refusal, as `policy-invalid`), computed once per session. */
  private staleFindings(): Finding[] {
    if (this.stale) return this.stale;
    const project = this.project;
    if (!project) {
      this.stale = [];
      return this.stale;
    }
    const scans = [...this.scans.values()];
    const toRoot = (file: string): string => this.relative(path.resolve(file));
    this.stale = staleOrConfigFindings(project, toRoot, declarationsFromScan(project, scans));
    return this.stale;
  }
}

function isGeneratedFile(abs: string, generated: string): boolean {
  return abs === generated || abs === generated.replace(/\.(m|c)?js$/, '.d.$1ts');
}

/** The stat of every file the session's project depends on: the manifest, what its load read, the generated module. */
function sessionKey(manifest: string | undefined, project: Project | undefined): string {
  if (manifest === undefined) return 'none';
  const files = new Set<string>([manifest]);
  if (project) {
    files.add(project.manifest.policy);
    for (const f of project.sources.keys()) files.add(f);
    files.add(project.manifest.output);
    files.add(project.manifest.output.replace(/\.(m|c)?js$/, '.d.$1ts'));
  }
  return [...files]
    .sort()
    .map((f) => `${f}=${statKey(f)}`)
    .join('\n');
}

/** The stat key a session of this manifest would have now (cheap: a few stats). */
function currentKey(session: DiskSession, manifest: string | undefined): string {
  if (manifest === undefined) return 'none';
  return session.key
    .split('\n')
    .map((line) => line.slice(0, line.lastIndexOf('=')))
    .map((f) => `${f}=${statKey(f)}`)
    .join('\n');
}

/** How long a session goes at most without comparing its files with the disk (ms), while new files are linted. */
const DISK_COMPARE_MS = 1000;

/**
 * The sessions of one ESLint process, by manifest: one per repo (a monorepo's packages each have
 * theirs), rebuilt when a file it depends on changed on disk. Owned by the plugin object, not the
 * module, so two plugins (two tests) share nothing.
 */
export class DiskSessions {
  private readonly byManifest = new Map<string, DiskSession>();
  /** Per session: when its disk was last compared, and the files linted since it was built. */
  private readonly diskSeen = new WeakMap<DiskSession, { at: number; linted: Set<string> }>();

  /** `now`: the clock the disk comparisons are spaced by (tests pass their own). */
  constructor(private readonly now: () => number = Date.now) {}
  /** The git work tree's root of each folder linted in, asked once (it bounds the manifest's search). */
  private readonly gitRoots = new Map<string, string | undefined>();
  private readonly rootsWithPackages = new Map<string, boolean>();
  private readonly uncoveredAt = new Map<string, { dirs: string[]; checkedBelow: Map<string, string[]>; own: Set<string>; files: string[] }>();
  private readonly uncovered = new Map<string, UncoveredPackage>();

  /** The session for a file: its manifest is found upward from the file's folder (on every file: a new manifest is seen). */
  sessionFor(abs: string, cwd: string): LintSession {
    const manifest = findManifest(path.dirname(abs), this.gitRootOf(path.dirname(abs)));
    // at a root whose packages have manifests, `check` goes through those packages, and checks the
    // packages without one and the root's own files as regions of their own: ESLint run there the same
    if (manifest === undefined && this.packagesAt(cwd)) return this.uncoveredSession(abs, cwd) ?? new OutsidePackages(cwd);
    const id = manifest ?? `none:${cwd}`;
    const known = this.byManifest.get(id);
    if (known && currentKey(known, manifest) === known.key && !known.facts.packages.changed() && this.diskKept(known, abs)) return known;
    const fresh = new DiskSession(manifest, cwd);
    this.byManifest.set(id, fresh);
    this.diskSeen.set(fresh, { at: this.now(), linted: new Set([abs]) });
    return fresh;
  }

  /**
   * Whether the session still stands for the disk: its files compared with the disk (a changed one
   * read again) when a file is linted again (an editor) or a while after the last comparison, so a
   * run over a whole repo does not stat it for every file. False: files were created or deleted.
   */
  private diskKept(session: DiskSession, abs: string): boolean {
    const seen = this.diskSeen.get(session) ?? { at: this.now(), linted: new Set<string>() };
    this.diskSeen.set(session, seen);
    const due = seen.linted.has(abs) || this.now() - seen.at >= DISK_COMPARE_MS;
    seen.linted.add(abs);
    if (!due) return true;
    seen.at = this.now();
    return session.syncDisk();
  }

  /**
   * The session of the package without a manifest that holds `abs` (the innermost), as check at
   * that root checks it (check/uncovered-packages.ts): quiet unless it has an error or a generated
   * module left behind. Built once per package for the process; undefined in no such package.
   */
  private uncoveredSession(abs: string, cwd: string): LintSession | undefined {
    let at = this.uncoveredAt.get(cwd);
    if (at === undefined) {
      const manifests = manifestsFor(cwd);
      // the root listed once for its packages, its own files and each package's (as check lists it)
      const { files, configs } = listRepo({ root: path.resolve(cwd) });
      const below = packagesBelow(cwd, configs);
      const own = new Set(rootFilesOutsidePackages(cwd, manifests, undefined, files, below).map((f) => path.resolve(cwd, f)));
      const dirs = packagesWithoutManifest(cwd, manifests, undefined, below).sort((a, b) => b.length - a.length);
      at = { dirs, checkedBelow: packagesCheckedBelow(dirs, manifests), own, files };
      this.uncoveredAt.set(cwd, at);
    }
    if (at.own.has(abs)) return this.rootRegion(cwd, [...at.own]);
    const dir = at.dirs.find((d) => !path.relative(d, abs).startsWith('..'));
    if (dir === undefined) return undefined;
    const known = this.uncovered.get(dir);
    if (known) return known;
    const inner = new DiskSession(undefined, dir);
    // the packages below it are linted on their own, as check leaves them out of this one
    const mine = outsideOf(at.checkedBelow.get(dir) ?? []);
    const generated = generatedModuleIn(dir, ['.'], mine, filesInFolder(at.files, dir));
    const session = new UncoveredPackage(inner, generated !== undefined || inner.hasErrors(mine, opensRegion), generated, (f) =>
      missingManifestFinding(f, cwd, dir, generated),
    );
    this.uncovered.set(dir, session);
    return session;
  }

  /**
   * The root's own files outside every package (a workspace's `scripts/`), as check at that root
   * checks them: one region without a manifest, those files alone scanned, quiet unless one of
   * them has an error or is a generated module left behind. Built once per root for the process.
   */
  private rootRegion(cwd: string, own: readonly string[]): LintSession {
    const key = `root:${cwd}`;
    const known = this.uncovered.get(key);
    if (known) return known;
    const inner = new DiskSession(undefined, cwd, own);
    const generated = own.find(startsGenerated);
    const session = new UncoveredPackage(inner, generated !== undefined || inner.hasErrors(undefined, opensRegion), generated, (f) =>
      missingManifestFinding(f, cwd, cwd, generated),
    );
    this.uncovered.set(key, session);
    return session;
  }

  /** The ESLint process's cwd is a root with packages that have manifests (asked once per cwd). */
  private packagesAt(cwd: string): boolean {
    let known = this.rootsWithPackages.get(cwd);
    if (known === undefined) {
      known = manifestsFor(cwd).length > 0;
      this.rootsWithPackages.set(cwd, known);
    }
    return known;
  }

  private gitRootOf(dir: string): string | undefined {
    if (!this.gitRoots.has(dir)) this.gitRoots.set(dir, gitRootOf(dir));
    return this.gitRoots.get(dir);
  }
}

/** A package without a manifest at such a root: what check reports of it, nothing when it is not open. */
class UncoveredPackage implements LintSession {
  readonly project = undefined;
  readonly root: string;
  constructor(
    private readonly inner: DiskSession,
    private readonly open: boolean,
    private readonly generated: string | undefined,
    /** check's finding of the region's missing manifest, from the session's own (no manifest upward). */
    private readonly missing: (noManifest: Finding) => Finding,
  ) {
    this.root = inner.root;
  }
  lint(abs: string, text: string): FileLint {
    // the generated module left behind is named by the missing manifest; its binders are no door
    if (abs === this.generated) return { scan: undefined, own: [], elsewhere: [] };
    const lint = this.inner.lint(abs, text);
    // closed: only its SDK answers to another package's protected tools, as check reports it
    if (!this.open)
      return {
        ...lint,
        own: lint.own.filter(reportedWhenClosed),
        elsewhere: lint.elsewhere.filter(reportedWhenClosed),
        atImports: (lint.atImports ?? []).filter((r) => reportedWhenClosed(r.finding)),
      };
    // the missing manifest said as check says it at this root: where the package's own would be, and why
    const asCheck = (f: Finding): Finding => (f.ruleId === 'policy-invalid' && f.file === MANIFEST_FILE ? this.missing(f) : f);
    return { ...lint, own: lint.own.map(asCheck), elsewhere: lint.elsewhere.map(asCheck) };
  }
}

/** A file in no region of a root whose packages have manifests (a root's test file): nothing to report, as `check` at that root. */
class OutsidePackages implements LintSession {
  readonly project = undefined;
  constructor(readonly root: string) {}
  lint(): FileLint {
    return { scan: undefined, own: [], elsewhere: [] };
  }
}

/**
 * A session over one file alone, with a given project (the rule tests share their cases between
 * `check` and ESLint through it): the repo is that file, as `check`'s rule tester lints it.
 */
export class SingleFileSession implements LintSession {
  readonly root: string;
  constructor(
    readonly project: Project | undefined,
    root = project?.manifest.root ?? process.cwd(),
  ) {
    this.root = root;
  }

  lint(abs: string, text: string): FileLint {
    const file = path.relative(this.root, abs).split(path.sep).join('/');
    // as check's rule tester scans a case: no repo around it, `protectedTool` from any relative module
    const scan = scanSource(file, text);
    const context = this.project ? { manifest: this.project.manifest, policy: this.project.policy } : undefined;
    const repo = repoRuleFindings([scan], context, () => text);
    return { scan, own: lintScannedFile(scan, context, repo.get(file) ?? []), elsewhere: [...repo.values()].flat().filter((f) => f.file !== file) };
  }
}

/** Where a file imports `specifier`: its import statement, else the quoted specifier in the text (a `require`, an `import()`), else line 1. */
function importPlace(scan: FileScan, text: string, specifier: string): { line: number; column: number } {
  const imp = (scan.moduleImports ?? []).find((i) => i.module === specifier);
  if (imp) return { line: imp.span.line, column: imp.span.column };
  const at = [`'${specifier}'`, `"${specifier}"`, `\`${specifier}\``].map((q) => text.indexOf(q)).filter((i) => i >= 0);
  if (at.length === 0) return { line: 1, column: 1 };
  const before = text.slice(0, Math.min(...at)).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}
