import { diffChanges, diffPolicies } from '../../policy-test/diff.js';
import { formatDiff, type ReportFormat } from '../../policy-test/diff-report.js';
import { failCode, type FailOn } from '../../policy-test/oversight.js';
import type { CommandSpec } from '../context.js';
import { displayPath } from '../format-diagnostics.js';
import { loadPolicyInput } from '../policy-input.js';
import { loadPolicyVersion } from '../policy-revision.js';
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
  describe: 'List the calls whose decision a policy change alters (two files, or git revisions of the policy)',
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
    ['ctrlrun-gen diff main', "What this branch's policy changes against main's"],
    ['ctrlrun-gen diff old.yaml new.yaml --format markdown', 'Two files, as a pull-request comment'],
    ['ctrlrun-gen diff origin/main --fail-on any', 'Fail the build on any change of decision'],
  ],
  run: async (args, ctx) => {
    const needsWorking = args.head === undefined || args.policy !== undefined || args.manifest !== undefined;
    const working = needsWorking ? loadPolicyInput({ cwd: ctx.cwd, policy: args.policy, manifest: args.manifest }).policy : undefined;
    const workingFile = working?.file ?? tryWorkingFile(ctx.cwd);
    const base = loadPolicyVersion(args.base, ctx.cwd, workingFile);
    const head =
      args.head === undefined ? { policy: working!, label: displayPath(working!.file, ctx.cwd) } : loadPolicyVersion(args.head, ctx.cwd, workingFile);
    const diff = diffPolicies(base.policy, head.policy);
    ctx.stdout(formatDiff(diff, args.format, { base: base.label, head: head.label }));
    return failCode(args.failOn, diffChanges(diff));
  },
};

/** The working policy's file for the revision form, when there is one (two files need none). */
function tryWorkingFile(cwd: string): string | undefined {
  try {
    return loadPolicyInput({ cwd }).policy.file;
  } catch {
    return undefined;
  }
}
