import type { FileScan } from '../scan/types.js';
import type { ProjectContext } from './types.js';

/*
 * Below the rules and the facts they read: `sdk-approval` asks it of the files it judges, and
 * check/answer-facts.ts asks it first to read nothing of other packages when the answer is known.
 */

/** Whether the repo has protected tools of its own: a mapped function or computed tool, or a protectedTool call. */
export function hasOwnProtectedTools(files: readonly FileScan[], project: ProjectContext | undefined): boolean {
  return (project?.manifest.tools.some((t) => t.kind === 'function' || t.kind === 'computed') ?? false) || files.some((f) => f.protectedToolCalls.length > 0);
}
