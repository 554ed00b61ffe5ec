import { UserError } from '../diagnostics.js';

export type TreeState = { kind: 'clean' } | { kind: 'dirty'; files: string[] } | { kind: 'not-a-repo' } | { kind: 'dubious-ownership'; message: string };

/**
 * Tracked changes under `dir` (`git status --porcelain --untracked-files=no -- .`). Untracked files
 * do not count: the codemod only edits tracked sources a reviewer can diff. No git, or not a
 * work tree: `not-a-repo`.
 */
export function treeState(dir: string): TreeState {
  // node:child_process loaded here, not when check's bundle loads (start-up)
  const r = process
    .getBuiltinModule('node:child_process')
    .spawnSync('git', ['status', '--porcelain', '--untracked-files=no', '--', '.'], { cwd: dir, encoding: 'utf8' });
  // git refuses a repository another user owns (CI containers): that is a work tree it will not
  // read, not the absence of one, so the dirty-tree guard must not be skipped.
  if (!r.error && r.status !== 0 && /dubious ownership/i.test(r.stderr ?? ''))
    return { kind: 'dubious-ownership', message: (r.stderr ?? '').trim().split('\n')[0]! };
  if (r.error || r.status !== 0) return { kind: 'not-a-repo' };
  const files = r.stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.slice(3));
  return files.length === 0 ? { kind: 'clean' } : { kind: 'dirty', files };
}

/**
 * `--write` without `--allow-dirty`: throws a UserError (exit 2) naming the first changed files
 * when `dir` has tracked changes; otherwise returns the state (`not-a-repo` included).
 * `command` starts the message (`codemod`, `check --fix`); `work` names what is being protected.
 */
export function refuseDirtyTree(dir: string, command: string, work: string): TreeState {
  const state = treeState(dir);
  if (state.kind === 'dubious-ownership') {
    throw new UserError(
      `${command}: git refuses to read this repository (${state.message.replace(/^fatal:\s*/, '')}): it is owned by another user, so whether the tree has uncommitted changes cannot be told; nothing was written.\n` +
        `Mark it safe with \`git config --global --add safe.directory '${dir}'\` (as the user that runs this), or pass --allow-dirty.`,
    );
  }
  if (state.kind === 'dirty') {
    const shown = state.files.slice(0, 10).join(', ') + (state.files.length > 10 ? `, and ${state.files.length - 10} more` : '');
    throw new UserError(
      `${command}: the git tree has uncommitted changes to tracked files (${shown}).\n` +
        `Commit or stash them first so the ${work} can be reviewed and reverted on its own, or pass --allow-dirty.`,
    );
  }
  return state;
}
