import { existsSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../diagnostics.js';
import { findManifest, loadProject, MANIFEST_FILE, type Project } from './load.js';
import { loadPolicyOrThrow } from '../policy/load.js';
import type { Policy } from '../policy/types.js';

/**
 * The policy a policy-as-code command works on (`test`, `diff`, `replay`): `--policy`, else the
 * project's (the manifest named or found upward), else `ctrlrun.yaml` in the working directory.
 * The project comes along when there is one (its tools' parameter schemas, its store).
 */
export function loadPolicyInput(options: PolicyInputOptions): PolicyInput {
  const found = tryPolicyInput(options);
  if (found) return found;
  throw new UserError(`no ${MANIFEST_FILE} found in ${options.cwd} or any directory above it, and no ctrlrun.yaml here; pass --policy or --manifest`);
}

/**
 * `loadPolicyInput`, or undefined when there is no policy to load (none named, no manifest upward,
 * no ctrlrun.yaml here). One that is there but does not load is an error, not "none".
 */
export function tryPolicyInput(options: PolicyInputOptions): PolicyInput | undefined {
  const { cwd } = options;
  if (options.manifest !== undefined || findManifest(cwd) !== undefined) {
    const project = loadProject({ cwd, manifest: options.manifest, policy: options.policy });
    return { policy: project.policy, project };
  }
  if (options.policy !== undefined) return { policy: loadPolicyOrThrow(path.resolve(cwd, options.policy)).policy };
  const here = path.join(cwd, 'ctrlrun.yaml');
  return existsSync(here) ? { policy: loadPolicyOrThrow(here).policy } : undefined;
}

export interface PolicyInputOptions {
  cwd: string;
  policy?: string | undefined;
  manifest?: string | undefined;
}

export interface PolicyInput {
  policy: Policy;
  project?: Project;
}
