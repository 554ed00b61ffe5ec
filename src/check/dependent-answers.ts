import path from 'node:path';
import { displayPath } from '../format-diagnostics.js';
import { dependentPackages, type WorkspaceListings } from '../manifest/workspace-dependencies.js';
import { isInside } from '../safe-read.js';
import { scanRepo } from '../scan/index.js';
import { PackageFacts } from '../scan/package-facts.js';
import { sdkApprovalRule } from './rules/sdk-approval.js';
import { applySuppressions } from './suppressions.js';
import type { Finding, ProjectContext } from './types.js';

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
 * suppressions apply, as in its own check.
 */
export async function dependentAnswerFindings(project: ProjectContext, cwd: string, reached?: readonly string[]): Promise<Finding[]> {
  if (!mapsProtectedTool(project)) return [];
  const out: Finding[] = [];
  const workspaces: WorkspaceListings = new Map();
  // one listing of the workspace, for the dependents and for the rule's own lookup of their dependencies
  for (const dir of dependentPackages(project.manifest.root, workspaces)) {
    const files = (await scanRepo({ root: dir })).files.filter((scan) => (scan.sdkApprovals ?? []).length > 0);
    if (files.length === 0) continue;
    // no project: the rule asks the disk which of the dependent's dependencies are protected and names them
    const findings = sdkApprovalRule(
      files.map((scan) => ({ scan, text: () => '' })),
      undefined,
      { packages: new PackageFacts(dir), workspaces },
    );
    for (const scan of files) {
      const kept = applySuppressions(
        scan.file,
        findings.filter((f) => f.file === scan.file),
        scan.suppressions,
      ).kept;
      const file = path.resolve(dir, scan.file);
      if (reached ? reached.some((p) => p === file || isInside(p, file)) : isInside(cwd, file)) continue;
      out.push(...kept.map((f) => ({ ...f, file: displayPath(file, cwd) })));
    }
  }
  return out;
}
