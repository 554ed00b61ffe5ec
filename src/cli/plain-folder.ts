import { existsSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../diagnostics.js';
import { MANIFEST_FILE } from '../manifest/find.js';
import { manifestsBelowPlainFolder } from '../manifest/plain-folder.js';
import { workspaceRootAbove } from '../manifest/workspace.js';
import { gitRootOf } from '../safe-read.js';
import { shellWord } from '../shell-word.js';

/**
 * In a plain folder (no project, no manifest here or above) holding projects with manifests: a
 * refusal naming them, rather than a report that there is no manifest at all (the folder may be a
 * home folder or a folder of unrelated projects; a command goes through them one by one).
 * `command` names the command in the message; `invocation` is what the hint runs in a project's
 * folder (`diff main`), the command by default. Every command that reads the working folder's
 * manifest calls it when nothing it was given names the files it reads.
 */
export function refusePlainFolder(cwd: string, command: string, invocation = command): void {
  const below = manifestsBelowPlainFolder(cwd);
  if (below.length === 0) return;
  const shown = below.map((m) => slashed(path.relative(cwd, m)));
  const first = shellWord(slashed(path.relative(cwd, path.dirname(below[0]!))));
  const each = `run ${command} in each project's own folder (\`npx ctrlrun-gen ${invocation} --cwd ${first}\`)`;
  const head = `${command}: no ${MANIFEST_FILE} in ${cwd} or above, and this folder is no project`;
  // a folder of a workspace below its root: a package.json or `git init` here would nest a second project in it
  const top = gitRootOf(cwd);
  const workspace = workspaceRootAbove(path.resolve(cwd));
  // a workspace above the folder's own git top belongs to another repository (a clone kept inside it)
  if (workspace !== undefined && (top === undefined || workspace.length >= top.length)) {
    const up = shellWord(slashed(path.relative(cwd, workspace)));
    throw new UserError(
      `${head} of its own (no package.json; a folder inside the workspace at ${workspace}, not its root); the manifests below it: ${shown.join(', ')}.\n` +
        `hint: ${each}, or run it at the workspace root (\`npx ctrlrun-gen ${invocation} --cwd ${up}\`) to go through the workspace's packages together.`,
    );
  }
  // a folder inside a repository, below its top, is in a git work tree: `git init` there would nest a second one
  const what = top === undefined ? 'no git work tree' : `a folder of the git work tree at ${top}, not its top`;
  const make = top === undefined ? 'a package.json or `git init` here' : 'a package.json here';
  throw new UserError(
    `${head} (no package.json, no workspace, ${what}); the manifests below it: ${shown.join(', ')}.\n` +
      `hint: ${each}, or make this folder their project (${make}) to run ${command} over them together.`,
  );
}

/** A relative path with `/` between its folders, as the user types it. */
function slashed(rel: string): string {
  return rel.split(path.sep).join('/');
}

/**
 * `refusePlainFolder` for a policy command (`test`, `diff`, `explain`), which also reads a policy
 * named on the command line or a `ctrlrun.yaml` in the working folder without any manifest: only
 * when none of those is there.
 */
export function refusePlainFolderWithoutPolicy(
  cwd: string,
  named: { manifest?: string | undefined; policy?: string | undefined },
  command: string,
  invocation = command,
): void {
  if (named.manifest !== undefined || named.policy !== undefined || existsSync(path.join(cwd, 'ctrlrun.yaml'))) return;
  refusePlainFolder(cwd, command, invocation);
}
