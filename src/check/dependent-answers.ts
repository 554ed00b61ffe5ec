import path from 'node:path';
import { displayPath } from '../format-diagnostics.js';
import { dependentPackages, type WorkspaceListings } from '../manifest/workspace-dependencies.js';
import { isInside } from '../safe-read.js';
import { scanRepo, scanRepoSync } from '../scan/index.js';
import { pathImporterAnswers, protectedToolModules } from '../scan/path-importers.js';
import type { FileScan } from '../scan/types.js';
import { PackageFacts } from '../scan/package-facts.js';
import { withAnswerFacts } from './answer-facts.js';
import { sdkApprovalRule } from './rules/sdk-approval.js';
import { applySuppressions } from './suppressions.js';
import type { Finding, ProjectContext, RepoFacts } from './types.js';

/*
 * A monorepo's CI often runs check only where the manifest is (`check --cwd packages/agents`). A
 * `server` package that depends on `agents` by name and answers its interruptions with
 * `state.approve(item)` authorizes nothing, yet that check was green: the server's files are not
 * its own. check in the package with the manifest now reads its dependents' SDK answers (issue 40),
 * only those: the dependents' other files are theirs to lint.
 */

/** Whether the manifest maps a tool whose calls pause through the Control (a function or computed tool). */
function mapsProtectedTool(project: ProjectContext): boolean {
  return project.manifest.tools.some((t) => t.kind === 'function' || t.kind === 'computed');
}

/**
 * The `sdk-approval` findings of the workspace packages that depend by name on the package of the
 * project's manifest, paths relative to `cwd` (`../server/src/app.ts`). They are the package's own
 * (its protected tools are what the answers break), so a check given paths reports them as the
 * whole check does (issue 40). A file the command checks anyway is left out, since its answers are
 * reported there: without `reached` (the command's paths, absolute), a file below `cwd` (a check at
 * a workspace root checks that package on its own); with them, a file they reach (this check, or at
 * a root the check of the package without a manifest they reach, scans it). Each dependent's own
 * suppressions apply, as in its own check. Then the files outside the package whose imports reach
 * its protected tools by path (`importerFindings`); `own` is this check's paths (absolute), or,
 * without paths, its scan of the whole package.
 */
export async function dependentAnswerFindings(
  project: ProjectContext,
  cwd: string,
  reached?: readonly string[],
  own: { paths?: readonly string[]; scans?: readonly FileScan[] } = {},
): Promise<Finding[]> {
  if (!mapsProtectedTool(project)) return [];
  const out: Finding[] = [];
  const workspaces: WorkspaceListings = new Map();
  const keep = (file: string) => !(reached ? reached.some((p) => p === file || isInside(p, file)) : isInside(cwd, file));
  // one listing of the workspace, for the dependents and for the rule's own lookup of their dependencies
  const dependents = dependentPackages(project.manifest.root, workspaces);
  for (const dir of dependents) {
    const files = (await scanRepo({ root: dir })).files.filter((scan) => (scan.sdkApprovals ?? []).length > 0);
    // no project: which of the dependent's dependencies are protected is asked of the disk, and named
    out.push(...placed(dir, files, { packages: new PackageFacts(dir), workspaces }, cwd, keep));
  }
  // no other check of the command reports an importer's answers (no package.json ties it to the
  // package): left out only where this check's own paths reach it (scanned with the project there)
  const ownPaths = own.paths ?? [];
  const keepImporter = (file: string) => !ownPaths.some((p) => p === file || isInside(p, file));
  out.push(...importerFindings(project, cwd, keepImporter, dependents, own.scans));
  return out;
}

/**
 * The `sdk-approval` findings of the files of the repository outside the package (and its dependents
 * by name) whose imports reach a module declaring one of its protected tools (issue 40): a relative
 * path into the package, a sibling of a root that is no workspace. `packageScans`: the package's
 * whole scan when the check made one (scanned here otherwise, only when a file outside the package answers).
 * `keep` leaves out the files this check's own paths reach.
 */
function importerFindings(
  project: ProjectContext,
  cwd: string,
  keep: (file: string) => boolean,
  dependents: readonly string[],
  packageScans: readonly FileScan[] | undefined,
): Finding[] {
  const { manifest } = project;
  const scans = () => packageScans ?? scanRepoSync({ root: manifest.root, generatedModule: manifest.output }).files;
  const found = pathImporterAnswers(manifest.root, () => protectedToolModules(manifest, scans()), dependents);
  if (!found || found.files.length === 0) return [];
  const name = path.relative(found.root, manifest.root).split(path.sep).join('/');
  const importsProtected = new Map(found.files.map((scan) => [scan.file, name]));
  return placed(found.root, found.files, { packages: new PackageFacts(found.root), importsProtected }, cwd, keep);
}

/** The rule's findings on `files` (scanned relative to `dir`) with their own suppressions, those `keep` takes, relative to `cwd`. */
function placed(dir: string, files: readonly FileScan[], facts: RepoFacts, cwd: string, keep: (file: string) => boolean): Finding[] {
  const answering = files.filter((scan) => (scan.sdkApprovals ?? []).length > 0);
  if (answering.length === 0) return [];
  const findings = sdkApprovalRule(
    answering.map((scan) => ({ scan, text: () => '' })),
    undefined,
    withAnswerFacts(answering, undefined, facts),
  );
  const out: Finding[] = [];
  for (const scan of answering) {
    const kept = applySuppressions(
      scan.file,
      findings.filter((f) => f.file === scan.file),
      scan.suppressions,
    ).kept;
    const file = path.resolve(dir, scan.file);
    if (keep(file)) out.push(...kept.map((f) => ({ ...f, file: displayPath(file, cwd) })));
  }
  return out;
}
