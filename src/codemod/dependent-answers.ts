import path from 'node:path';
import { dependentPackages } from '../manifest/workspace-dependencies.js';
import { scanRepo, scanRepoSync } from '../scan/index.js';
import { appAnswers, type AppAnswer } from './app-approvals.js';

// The answers to interruptions written in the workspace's packages that depend on a package (by
// name in their package.json): once that package's tools are protected they authorize nothing, so
// the codemod and ESLint's fix both keep such a tool as a conflict (issue 40 item 4).

/** The dependents' answers, as `codemod` reads them. */
export async function dependentAnswers(root: string): Promise<AppAnswer[]> {
  const out: AppAnswer[] = [];
  for (const dir of dependentPackages(root)) out.push(...appAnswers(dir, (await scanRepo({ root: dir })).files, path.resolve));
  return out;
}

/** The same answers read synchronously, for ESLint's fix (its rules cannot wait). */
export function dependentAnswersSync(root: string): AppAnswer[] {
  return dependentPackages(root).flatMap((dir) => appAnswers(dir, scanRepoSync({ root: dir }).files, path.resolve));
}
