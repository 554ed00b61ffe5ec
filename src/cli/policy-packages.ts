import { workspaceManifests } from './workspace.js';

/**
 * The manifests a policy command (`test`, `validate`, `diff`) goes through, as `generate` and
 * `check` do: at a workspace root with no manifest of its own, each package's; at a package with
 * packages of their own below it (a library's `examples/agent`), its own and theirs, or a CI job
 * there would pass a loosened nested policy unseen. Undefined (one run, as ever) when there is one
 * project, or when the command names its policy, manifest or test file: those pick one.
 */
export function policyPackages(
  cwd: string,
  named: { manifest?: string | undefined; policy?: string | undefined; file?: string | undefined },
): string[] | undefined {
  if (named.manifest !== undefined || named.policy !== undefined || named.file !== undefined) return undefined;
  return workspaceManifests(cwd);
}
