import { readActionSchemas } from '../../generate/project-schemas.js';
import { MANIFEST_FILE } from '../../manifest/load.js';
import type { Manifest } from '../../manifest/types.js';
import { diffChanges, diffGone, diffPolicies } from '../../policy-test/diff.js';
import { formatDiff, joinReports, type ReportFormat } from '../../policy-test/diff-report.js';
import { failCode, type FailOn } from '../../policy-test/oversight.js';
import type { CommandSpec } from '../context.js';
import { displayPath } from '../../format-diagnostics.js';
import { loadPolicyInput, tryPolicyInput } from '../policy-input.js';
import { loadPolicyVersion, manifestsGone, readPolicyVersion } from '../policy-revision.js';
import { policyPackages } from '../policy-packages.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { withProjectOptions } from '../project-options.js';

interface DiffArgs {
  base: string;
  head?: string;
  policy?: string;
  manifest?: string;
  format: ReportFormat;
  failOn: FailOn;
}

export const diffCommand: CommandSpec<DiffArgs> = {
  command: 'diff <base> [head]',
  describe: 'List every region of calls whose decision, controls, grants or budgets a policy change alters (two files, or git revisions)',
  builder: (y) =>
    withProjectOptions(y)
      .positional('base', { type: 'string', describe: 'The old policy: a file, a git revision (`main`), or `<revision>:<path>`' })
      .positional('head', { type: 'string', describe: 'The new policy, the same forms (default: the working policy)' })
      .option('format', { choices: ['text', 'json', 'markdown'], default: 'text', describe: 'Report format (markdown: for a pull-request comment)' })
      .option('fail-on', {
        choices: ['looser', 'any', 'never'],
        default: 'looser',
        describe: 'Exit 1 when a call would get less oversight (looser), on any change, or never',
      }),
  examples: [
    ['ctrlrun-gen diff main', "What this branch's policy changes against main's (the policy followed through the manifest)"],
    ['ctrlrun-gen diff old.yaml new.yaml --format markdown', 'Two files, as a pull-request comment'],
    ['ctrlrun-gen diff origin/main --fail-on any', 'Fail the build on any change'],
  ],
  run: async (args, ctx) => {
    // At a workspace root, a git revision names each package's policy at that revision: one
    // report per package, one after another, and the worst exit code. Files name one policy.
    const bare = (ref: string | undefined) => ref === undefined || (!ref.includes(':') && !existsSync(path.resolve(ctx.cwd, ref)));
    const packages = bare(args.base) && bare(args.head) ? policyPackages(ctx.cwd, args) : undefined;
    const runs = (packages ?? [args.manifest]).map((manifest) => diffOne({ ...args, manifest }, ctx.cwd));
    // a package whose manifest the change deleted is no package any more at the head: found at the base
    if (packages)
      for (const gone of manifestsGone(args.base, ctx.cwd, args.head, packages)) {
        const diff = diffGone(gone.policy);
        runs.push({ report: formatDiff(diff, args.format, { base: gone.label, head: 'no manifest' }), code: failCode(args.failOn, diffChanges(diff)) });
      }
    ctx.stdout(
      joinReports(
        runs.map((r) => r.report),
        args.format,
      ),
    );
    return Math.max(...runs.map((r) => r.code));
  },
};

/** One project's diff: its report in the format asked, and its exit code. */
function diffOne(args: DiffArgs, cwd: string): { report: string; code: number } {
  const needsWorking = args.head === undefined || args.policy !== undefined || args.manifest !== undefined;
  // the working policy (for the revision form) and project (for the schemas), when there is one (two
  // revisions need none); one that is there but does not load is an error, not "none": the diff
  // would otherwise drop the tools' schemas or look for the wrong file at the revisions without a word
  const input = needsWorking ? loadPolicyInput({ cwd, policy: args.policy, manifest: args.manifest }) : tryPolicyInput({ cwd });
  const working = { policy: input?.policy.file, manifest: args.policy === undefined ? input?.project?.manifest.file : undefined };
  // a revision with no counterpart of the policy is "no policy": every call denied there
  const base = readPolicyVersion(args.base, cwd, working);
  const head =
    args.head === undefined
      ? { policy: input!.policy, label: displayPath(input!.policy.file, cwd), manifest: working.manifest === undefined ? undefined : input?.project?.manifest }
      : loadPolicyVersion(args.head, cwd, working);
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
  return { report: formatDiff(diff, args.format, { base: base.label, head: head.label }), code: failCode(args.failOn, diffChanges(diff)) };
}
