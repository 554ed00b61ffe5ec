import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../diagnostics.js';
import { certFilesBeside, loadPolicyOrThrow, MAX_POLICY_BYTES, parsePolicy } from '../policy/load.js';
import type { Policy } from '../policy/types.js';

/**
 * A version of the policy named on the command line: a file (`old.yaml`), a git revision of the
 * working policy (`main`, `HEAD~1`, `origin/main`), or a revision and a path (`main:ctrlrun.yaml`,
 * the path from the repository's root as git reads it). `workingFile` is the policy the revision
 * form reads an older version of.
 */
export function loadPolicyVersion(ref: string, cwd: string, workingFile: string | undefined): { policy: Policy; label: string } {
  const version = readPolicyVersion(ref, cwd, workingFile);
  if (version.policy === null) throw noPolicyAt(ref, workingFile!);
  return { policy: version.policy, label: version.label };
}

/**
 * As `loadPolicyVersion`, but a revision git knows that has no file at the working policy's path
 * gives `policy: null`: the policy is new since that revision (the pull request that adopts
 * ctrlrun-gen, or adds a package to a workspace), which is no error for `diff`.
 */
export function readPolicyVersion(ref: string, cwd: string, workingFile: string | undefined): { policy: Policy | null; label: string } {
  const asFile = path.resolve(cwd, ref);
  if (existsSync(asFile)) return { policy: loadPolicyOrThrow(asFile).policy, label: ref };
  const colon = ref.indexOf(':');
  if (colon > 0) {
    const text = gitShow(ref, cwd);
    if (text !== undefined) return { policy: parsed(text, ref, path.resolve(cwd, ref.slice(colon + 1))), label: ref };
  }
  if (workingFile === undefined) throw new UserError(`\`${ref}\` is neither a file nor a git revision with a path; name a file, or \`<revision>:<path>\``);
  const dir = path.dirname(workingFile);
  // the label names the policy as cwd sees it: `main:apps/web/ctrlrun.yaml` at a workspace root
  const shown = path.relative(cwd, workingFile);
  const label = `${ref}:${shown.startsWith('..') || path.isAbsolute(shown) ? path.basename(workingFile) : shown.split(path.sep).join('/')}`;
  const text = gitShow(`${ref}:./${path.basename(workingFile)}`, dir);
  if (text !== undefined) return { policy: parsed(text, label, workingFile), label };
  if (isRevision(ref, dir)) return { policy: null, label };
  throw noPolicyAt(ref, workingFile);
}

function noPolicyAt(ref: string, workingFile: string): UserError {
  const spec = `${ref}:./${path.basename(workingFile)}`;
  return new UserError(
    `\`${ref}\` is not a file, and git has no ${path.basename(workingFile)} at revision \`${ref}\` (\`git show ${spec}\` failed)\n` +
      `hint: name a policy file, a revision that has the policy (\`main\`, \`origin/main\`; fetch it first in CI: \`git fetch origin main\`), or \`<revision>:<path>\``,
  );
}

/** Whether git at `dir` knows `ref` as a commit (a branch not fetched is none). */
function isRevision(ref: string, dir: string): boolean {
  if (ref.startsWith('-')) return false;
  const r = spawnSync('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: dir, encoding: 'utf8' });
  return !r.error && r.status === 0;
}

function gitShow(spec: string, cwd: string): string | undefined {
  if (spec.startsWith('-')) return undefined;
  const r = spawnSync('git', ['show', spec], { cwd, encoding: 'utf8', maxBuffer: MAX_POLICY_BYTES * 2 });
  return r.error || r.status !== 0 ? undefined : r.stdout;
}

/** The policy text of a revision; its diagnostics are named `<revision>:<file>`, its certificate files read beside the working file. */
function parsed(text: string, label: string, besideFile: string): Policy {
  const loaded = parsePolicy(text, label, certFilesBeside(besideFile));
  const errors = loaded.diagnostics.filter((d) => d.severity === 'error');
  if (!loaded.value || errors.length > 0)
    throw new UserError(`the policy at ${label} does not load (${errors.length} error${errors.length === 1 ? '' : 's'})`, errors);
  return loaded.value;
}
