import path from 'node:path';
import type { Manifest } from '../manifest/types.js';
import { dependentPackages } from '../manifest/workspace-dependencies.js';
import { scanRepo, scanRepoSync } from '../scan/index.js';
import { pathImporterAnswers, protectedToolModules } from '../scan/path-importers.js';
import type { FileScan } from '../scan/types.js';
import { appAnswers, type AppAnswer } from './app-approvals.js';

// The answers to interruptions written outside the manifest's package that reach its tools: in the
// workspace's packages that depend on it (by name in their package.json), and in the files of the
// repository whose imports reach a module declaring a protected tool (a relative path, a sibling of
// a root that is no workspace). Once the tools are protected they authorize nothing, so the codemod
// and ESLint's fix both keep such a tool as a conflict (issue 40 item 4).

/** The dependents' answers, as `codemod` reads them; `scans` are the package's own (relative to its root). */
export async function dependentAnswers(manifest: Manifest, scans: readonly FileScan[]): Promise<AppAnswer[]> {
  const dirs = dependentPackages(manifest.root);
  const out: AppAnswer[] = [];
  for (const dir of dirs) out.push(...appAnswers(dir, (await scanRepo({ root: dir })).files, path.resolve));
  return [...out, ...importerAnswers(manifest, scans, dirs)];
}

/** The same answers read synchronously, for ESLint's fix (its rules cannot wait). */
export function dependentAnswersSync(manifest: Manifest, scans: readonly FileScan[]): AppAnswer[] {
  const dirs = dependentPackages(manifest.root);
  return [...dirs.flatMap((dir) => appAnswers(dir, scanRepoSync({ root: dir }).files, path.resolve)), ...importerAnswers(manifest, scans, dirs)];
}

/** The answers of the files outside the package (and the dependents read by name) that import its protected tools by path. */
function importerAnswers(manifest: Manifest, scans: readonly FileScan[], dependents: readonly string[]): AppAnswer[] {
  if (!manifest.tools.some((t) => t.kind === 'function' || t.kind === 'computed')) return [];
  const found = pathImporterAnswers(manifest.root, () => protectedToolModules(manifest, scans), dependents);
  return found ? appAnswers(found.root, found.files, path.resolve) : [];
}
