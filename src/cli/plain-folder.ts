import { existsSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../diagnostics.js';
import { MANIFEST_FILE } from '../manifest/find.js';
import { manifestsBelowPlainFolder } from '../manifest/plain-folder.js';
import { gitRootOf } from '../safe-read.js';

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
  const shown = below.map((m) => path.relative(cwd, m).split(path.sep).join('/'));
  const first = path.relative(cwd, path.dirname(below[0]!)).split(path.sep).join('/');
  // a folder inside a repository, below its top, is in a git work tree: `git init` there would nest a second one
  const top = gitRootOf(cwd);
  const what = top === undefined ? 'no git work tree' : `a folder of the git work tree at ${top}, not its top`;
  const make = top === undefined ? 'a package.json or `git init` here' : 'a package.json here';
  throw new UserError(
    `${command}: no ${MANIFEST_FILE} in ${cwd} or above, and this folder is no project (no package.json, no workspace, ${what}); the manifests below it: ${shown.join(', ')}.\n` +
      `hint: run ${command} in each project's own folder (\`npx ctrlrun-gen ${invocation} --cwd ${first}\`), or make this folder their project (${make}) to run ${command} over them together.`,
  );
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
