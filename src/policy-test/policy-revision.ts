import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../diagnostics.js';
import { MANIFEST_FILE, parseManifest } from '../manifest/load.js';
import type { Manifest } from '../manifest/types.js';
import { certFilesBeside, loadPolicyOrThrow, MAX_POLICY_BYTES, parsePolicy } from '../policy/load.js';
import type { Policy } from '../policy/types.js';

/** The working project a revision's policy is the counterpart of: its policy file, and its manifest when it has one. */
export interface WorkingPolicy {
  policy: string | undefined;
  manifest?: string | undefined;
}

/** A version of the policy; `policy` null: that revision has none (every call denied there). */
export interface PolicyVersion {
  policy: Policy | null;
  label: string;
  /**
   * The project's manifest at that revision (null: it had none), read when the working project has
   * one: the tools decide through its mappings. Absent for a file or `<revision>:<path>`.
   */
  manifest?: Manifest | null;
}

/**
 * A version of the policy named on the command line: a file (`old.yaml`), a git revision (`main`,
 * `HEAD~1`, `origin/main`), or a revision and a path (`main:ctrlrun.yaml`, from the repository's
 * root as git reads it). A revision is followed as the project is, not by the working policy's
 * path: the project's manifest at that revision (where the working one is, or where git says it
 * was before a rename) names the policy there, so a policy moved in the change is compared with
 * its old self. A revision git knows with no counterpart (the change adds the project or the
 * policy) gives `policy: null`; one git does not know is an error.
 */
export function readPolicyVersion(ref: string, cwd: string, working: WorkingPolicy): PolicyVersion {
  const asFile = path.resolve(cwd, ref);
  if (existsSync(asFile)) return { policy: loadPolicyOrThrow(asFile).policy, label: ref };
  const colon = ref.indexOf(':');
  if (colon > 0) {
    const text = gitShow(ref, cwd);
    if (text !== undefined) return { policy: parsed(text, ref, path.resolve(cwd, ref.slice(colon + 1))), label: ref };
  }
  if (working.policy === undefined) throw new UserError(`\`${ref}\` is neither a file nor a git revision with a path; name a file, or \`<revision>:<path>\``);
  const dir = path.dirname(working.manifest ?? working.policy);
  const top = gitTop(dir);
  if (top === undefined || !isRevision(ref, top)) throw noRevision(ref, working.policy);
  const shown = (rel: string) => {
    const p = path.relative(cwd, path.join(top, rel));
    return `${ref}:${p.startsWith('..') || path.isAbsolute(p) ? rel : p.split(path.sep).join('/')}`;
  };
  const counterpart = working.manifest === undefined ? undefined : counterpartOf(ref, top, rel(top, working.manifest));
  let policyRel: string;
  if (counterpart) {
    const manifest = parseManifest(counterpart.text, path.join(top, counterpart.rel)).value;
    if (!manifest) throw new UserError(`the manifest at ${shown(counterpart.rel)} does not load, so its policy cannot be found`);
    policyRel = rel(top, manifest.policy);
    const text = gitShow(`${ref}:${policyRel}`, top);
    return { policy: text === undefined ? null : parsed(text, shown(policyRel), working.policy), label: shown(policyRel), manifest };
  }
  const noManifest = working.manifest === undefined ? {} : { manifest: null };
  // no manifest at that revision: the policy itself, where it is or was before a rename
  policyRel = rel(top, working.policy);
  const own = counterpartOf(ref, top, policyRel);
  if (own) return { policy: parsed(own.text, shown(own.rel), working.policy), label: shown(own.rel), ...noManifest };
  return { policy: null, label: shown(policyRel), ...noManifest };
}

/** As `readPolicyVersion`, but the version must have a policy (the head side of a diff). */
export function loadPolicyVersion(ref: string, cwd: string, working: WorkingPolicy): PolicyVersion & { policy: Policy } {
  const version = readPolicyVersion(ref, cwd, working);
  if (version.policy === null) throw new UserError(`there is no policy at ${version.label}\nhint: name a revision that has the policy, or a file`);
  return { ...version, policy: version.policy };
}

/** A project's manifest at the base revision that the head no longer has, and the policy it named there. */
export interface GoneProject {
  /** `<revision>:<manifest path>`. */
  label: string;
  policy: Policy | null;
}

/**
 * The manifests under `cwd` at revision `ref` that the head (the working tree, or revision `head`)
 * no longer has, neither where they were nor moved to a manifest the head has (`kept`): a package
 * that dropped its manifest, whose tools no policy decides any more. Empty outside git.
 */
export function manifestsGone(ref: string, cwd: string, head: string | undefined, kept: readonly string[]): GoneProject[] {
  const top = gitTop(cwd);
  if (top === undefined || !isRevision(ref, top) || (head !== undefined && !isRevision(head, top))) return [];
  const under = rel(top, cwd);
  const r = spawnSync('git', ['ls-tree', '-r', '--name-only', ref, '--', under === '' ? '.' : under], { cwd: top, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.error || r.status !== 0) return [];
  const moved = new Set(kept.map((m) => counterpartOf(ref, top, rel(top, m))?.rel));
  const atHead = (file: string) => (head === undefined ? existsSync(path.join(top, file)) : gitShow(`${head}:${file}`, top) !== undefined);
  const out: GoneProject[] = [];
  for (const file of r.stdout.split('\n')) {
    if (path.posix.basename(file) !== MANIFEST_FILE || atHead(file) || moved.has(file)) continue;
    const label = `${ref}:${file}`;
    const manifest = parseManifest(gitShow(label, top) ?? '', path.join(top, file)).value;
    if (!manifest) throw new UserError(`the manifest at ${label} does not load, so the policy it named cannot be compared`);
    const policyRel = rel(top, manifest.policy);
    const text = gitShow(`${ref}:${policyRel}`, top);
    out.push({ label, policy: text === undefined ? null : parsed(text, `${ref}:${policyRel}`, manifest.policy) });
  }
  return out;
}

/** A path from the repository's root, as git names it (symlinks resolved, as git's root is). */
function rel(top: string, file: string): string {
  const real = (p: string): string | undefined => {
    try {
      return realpathSync(p);
    } catch {
      return undefined;
    }
  };
  // a file not on disk (a manifest's policy at a revision) is resolved by its directory, if that is
  const dir = real(path.dirname(file));
  const resolved = real(file) ?? (dir === undefined ? file : path.join(dir, path.basename(file)));
  return path.relative(top, resolved).split(path.sep).join('/');
}

/** The file at `ref` where the working one is, else where git's rename detection says it was. */
function counterpartOf(ref: string, top: string, file: string): { rel: string; text: string } | undefined {
  const text = gitShow(`${ref}:${file}`, top);
  if (text !== undefined) return { rel: file, text };
  const before = renamedFrom(ref, top, file);
  if (before === undefined) return undefined;
  const moved = gitShow(`${ref}:${before}`, top);
  return moved === undefined ? undefined : { rel: before, text: moved };
}

/** The path `file` had at `ref`, when git sees the change since then as a rename of it. */
function renamedFrom(ref: string, top: string, file: string): string | undefined {
  const r = spawnSync('git', ['diff', '--name-status', '-M', '--diff-filter=R', ref, '--'], { cwd: top, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.error || r.status !== 0) return undefined;
  for (const line of r.stdout.split('\n')) {
    const [status, from, to] = line.split('\t');
    if (status?.startsWith('R') && to === file && from !== undefined) return from;
  }
  return undefined;
}

function noRevision(ref: string, workingFile: string): UserError {
  const spec = `${ref}:./${path.basename(workingFile)}`;
  return new UserError(
    `\`${ref}\` is not a file, and git has no ${path.basename(workingFile)} at revision \`${ref}\` (\`git show ${spec}\` failed)\n` +
      `hint: name a policy file, a revision that has the policy (\`main\`, \`origin/main\`; fetch it first in CI: \`git fetch origin main\`), or \`<revision>:<path>\``,
  );
}

function gitTop(dir: string): string | undefined {
  const r = spawnSync('git', ['rev-parse', '--show-toplevel'], { cwd: dir, encoding: 'utf8' });
  return r.error || r.status !== 0 ? undefined : r.stdout.trim();
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
