import { diffChanges, diffGone } from '../../policy-test/diff.js';
import { diffProject } from '../../policy-test/diff-plan.js';
import { formatDiff, joinReports, type ReportFormat } from '../../policy-test/diff-report.js';
import { failCode, type FailOn } from '../../policy-test/oversight.js';
import type { CommandSpec } from '../context.js';
import { manifestsGone } from '../../policy-test/policy-revision.js';
import { policyPackages } from '../policy-packages.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { withProjectOptions } from '../project-options.js';
import { refusePlainFolderWithoutPolicy } from '../plain-folder.js';

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
    // in a plain folder of projects: the manifests below it, rather than "no manifest found" (two
    // policies named as files or `<revision>:<path>` need no project; a bare revision or the
    // working policy (no head) is the project's)
    if (packages === undefined && (bare(args.base) || bare(args.head))) refusePlainFolderWithoutPolicy(ctx.cwd, args, 'diff', diffInvocation(args));
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

/** The diff the hint runs in a project's folder: the revisions as given. */
function diffInvocation(args: DiffArgs): string {
  return ['diff', args.base, ...(args.head !== undefined ? [args.head] : [])].join(' ');
}

/** One project's diff: its report in the format asked, and its exit code. */
function diffOne(args: DiffArgs, cwd: string): { report: string; code: number } {
  const { diff, labels } = diffProject(args, cwd);
  return { report: formatDiff(diff, args.format, labels), code: failCode(args.failOn, diffChanges(diff)) };
}
