import path from 'node:path';
import { protectedDependencies, type ProtectedDependency } from '../manifest/workspace-dependencies.js';
import { answersImportingByPath } from '../scan/path-importers.js';
import type { FileScan } from '../scan/types.js';
import { hasOwnProtectedTools } from './own-protected-tools.js';
import type { ProjectContext, RepoFacts } from './types.js';

/*
 * What `sdk-approval` needs to know of other packages before it runs (issue 40): which package a
 * file's package depends on has protected tools, and which protected tools a file with no such tie
 * imports by path. Both are read from the disk here, once per run of the repo rules (check's, an
 * ESLint session's, a dependent's), so the rule only reads facts.
 */

/**
 * `facts` with what sdk-approval reads of the answering files it does not know of yet: each one's
 * protected dependencies (`protectedDependencies`, by its package's folder, one walk a folder),
 * and, for those with none, the package whose protected tools it imports by path
 * (`importsProtected`: the importers' search, only when such a file answers). Nothing is read in a
 * repo with protected tools of its own, nor for a file `importsProtected` already names.
 */
export function withAnswerFacts(files: readonly FileScan[], project: ProjectContext | undefined, facts: RepoFacts): RepoFacts {
  if (hasOwnProtectedTools(files, project)) return facts;
  const answering = files.filter((s) => (s.sdkApprovals ?? []).length > 0 && !facts.importsProtected?.has(s.file));
  if (answering.length === 0) return facts;
  const root = project?.manifest.root ?? facts.packages.root;
  const listings = facts.workspaces ?? new Map();
  const byDir = new Map<string, ProtectedDependency[]>();
  const dependencies = new Map<string, readonly ProtectedDependency[]>();
  const untied: string[] = [];
  for (const scan of answering) {
    const dir = facts.packages.packageDirOf(path.resolve(root, scan.file));
    if (!byDir.has(dir)) byDir.set(dir, protectedDependencies(dir, listings));
    const deps = byDir.get(dir)!;
    if (deps.length > 0) dependencies.set(scan.file, deps);
    else untied.push(scan.file);
  }
  const importsProtected = new Map(facts.importsProtected ?? []);
  // no package.json ties them to one: a module of the check may import another package's tools by path
  if (untied.length > 0) {
    const byPath = answersImportingByPath(root, files);
    for (const file of untied) {
      const via = byPath.get(file);
      if (via !== undefined) importsProtected.set(file, via);
    }
  }
  return { ...facts, protectedDependencies: dependencies, importsProtected };
}
