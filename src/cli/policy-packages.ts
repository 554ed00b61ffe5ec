import { findManifest } from '../manifest/find.js';
import { workspaceManifests } from './workspace.js';

/**
 * The manifests a policy command (`test`, `validate`, `diff`) goes through when started at a
 * workspace root with no manifest of its own: each package's, as `generate` and `check` do there.
 * Undefined (one run, as ever) in a package, or when the command names its policy, manifest or
 * test file: those pick one project. A package with nested examples keeps to its own policy.
 */
export function policyPackages(
  cwd: string,
  named: { manifest?: string | undefined; policy?: string | undefined; file?: string | undefined },
): string[] | undefined {
  if (named.manifest !== undefined || named.policy !== undefined || named.file !== undefined) return undefined;
  if (findManifest(cwd) !== undefined) return undefined;
  return workspaceManifests(cwd);
}
