import { readActionSchemas } from '../generate/project-schemas.js';
import { displayPath } from '../format-diagnostics.js';
import { MANIFEST_FILE } from '../manifest/load.js';
import { loadPolicyInput, tryPolicyInput } from '../manifest/policy-input.js';
import type { Manifest } from '../manifest/types.js';
import { diffPolicies, type PolicyDiff } from './diff.js';
import { loadPolicyVersion, readPolicyVersion } from './policy-revision.js';

/** What `diff` compares in one project: two policies named as files or git revisions. */
export interface DiffRequest {
  base: string;
  head?: string | undefined;
  policy?: string | undefined;
  manifest?: string | undefined;
}

/** One project's diff and the labels its report names the two sides by. */
export interface PlannedDiff {
  diff: PolicyDiff;
  labels: { base: string; head: string };
}

/** Loads both sides of one project's diff (the working tree's where a side is not named) and compares them. */
export function diffProject(request: DiffRequest, cwd: string): PlannedDiff {
  const needsWorking = request.head === undefined || request.policy !== undefined || request.manifest !== undefined;
  // the working policy (for the revision form) and project (for the schemas), when there is one (two
  // revisions need none); one that is there but does not load is an error, not "none": the diff
  // would otherwise drop the tools' schemas or look for the wrong file at the revisions without a word
  const input = needsWorking ? loadPolicyInput({ cwd, policy: request.policy, manifest: request.manifest }) : tryPolicyInput({ cwd });
  const working = { policy: input?.policy.file, manifest: request.policy === undefined ? input?.project?.manifest.file : undefined };
  // a revision with no counterpart of the policy is "no policy": every call denied there
  const base = readPolicyVersion(request.base, cwd, working);
  const head =
    request.head === undefined
      ? { policy: input!.policy, label: displayPath(input!.policy.file, cwd), manifest: working.manifest === undefined ? undefined : input?.project?.manifest }
      : loadPolicyVersion(request.head, cwd, working);
  // the tools' schemas as the working tree's code declares them: the calls considered stay within them
  const manifest = input?.project?.manifest;
  // both revisions' manifests, when both have one: a tool mapped to another action is compared too
  // (a base with none has no policy either: every call denied, each action reported as added)
  const manifests = base.manifest && head.manifest ? { manifests: [base.manifest, head.manifest] as [Manifest, Manifest] } : {};
  const diff = diffPolicies(
    base.policy,
    head.policy,
    manifest
      ? { schemas: readActionSchemas(manifest), ...manifests }
      : { unlimited: `no ${MANIFEST_FILE} found, so the calls are not limited to the tools' parameter schemas`, ...manifests },
  );
  return { diff, labels: { base: base.label, head: head.label } };
}
