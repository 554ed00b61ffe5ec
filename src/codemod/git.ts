import { spawnSync } from 'node:child_process';

export type TreeState = { kind: 'clean' } | { kind: 'dirty'; files: string[] } | { kind: 'not-a-repo' };

/**
 * Tracked changes under `dir` (`git status --porcelain --untracked-files=no -- .`). Untracked files
 * do not count: the codemod only edits tracked sources a reviewer can diff. No git, or not a
 * work tree: `not-a-repo`.
 */
export function treeState(dir: string): TreeState {
  const r = spawnSync('git', ['status', '--porcelain', '--untracked-files=no', '--', '.'], { cwd: dir, encoding: 'utf8' });
  if (r.error || r.status !== 0) return { kind: 'not-a-repo' };
  const files = r.stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.slice(3));
  return files.length === 0 ? { kind: 'clean' } : { kind: 'dirty', files };
}
