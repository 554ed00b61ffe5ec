import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../../diagnostics.js';
import { loadPolicyOrThrow } from '../../policy/load.js';
import { TEST_FILE } from '../../policy-test/cases.js';
import { createDecider } from '../../policy-test/decider.js';
import { loadTestSuite } from '../../policy-test/load-suite.js';
import { runTests, type TestRun } from '../../policy-test/run-tests.js';
import { toolGate } from '../../policy-test/tool-gate.js';
import { readActionSchemas } from '../../generate/project-schemas.js';
import { formatTestRuns, type TestFormat } from '../../policy-test/test-report.js';
import type { CommandSpec } from '../context.js';
import { displayPath } from '../../format-diagnostics.js';
import { loadPolicyInput } from '../../manifest/policy-input.js';
import { withProjectOptions } from '../project-options.js';
import { policyPackages } from '../policy-packages.js';
import { refusePlainFolderWithoutPolicy } from '../plain-folder.js';

interface TestArgs {
  file?: string;
  policy?: string;
  manifest?: string;
  format: TestFormat;
  coverage: boolean;
  minCoverage?: number;
  output?: string;
}

export const testCommand: CommandSpec<TestArgs> = {
  command: 'test [file]',
  describe: `Run the policy's tests (${TEST_FILE}) through the runtime's own decision`,
  builder: (y) =>
    withProjectOptions(y)
      .positional('file', { type: 'string', describe: `The test file (default: ${TEST_FILE} beside the policy)` })
      .option('format', { choices: ['text', 'json', 'junit'], default: 'text', describe: 'Report format (junit: JUnit XML for CI test reports)' })
      .option('coverage', { type: 'boolean', default: false, describe: 'List the actions and rules no case reaches' })
      .option('min-coverage', { type: 'number', describe: 'Fail (exit 1) when fewer than N% of the rules are reached (implies --coverage)' })
      .option('output', { type: 'string', describe: 'Write the report to this file (stdout: a one-line summary)' }),
  examples: [
    ['ctrlrun-gen test', `Run ${TEST_FILE} beside the project's policy`],
    ['ctrlrun-gen test --coverage --min-coverage 90', 'Fail when a tenth of the rules have no case'],
    ['ctrlrun-gen test --format junit --output policy-tests.xml', 'A JUnit report for the CI'],
  ],
  run: async (args, ctx) => {
    const min = args.minCoverage;
    if (min !== undefined && (!Number.isFinite(min) || min < 0 || min > 100))
      throw new UserError(`--min-coverage must be a percentage from 0 to 100, got ${String(min)}`);
    // At a workspace root: each package's test file, one report (a JUnit suite per file).
    const packages = policyPackages(ctx.cwd, args);
    // in a plain folder of projects: the manifests below it, rather than "no manifest found" (a
    // test file may name its policy)
    if (packages === undefined && args.file === undefined) refusePlainFolderWithoutPolicy(ctx.cwd, args, 'test');
    const manifests = packages ?? [args.manifest];
    const runs = manifests.map((manifest) => testRun({ ...args, manifest }, ctx.cwd));
    const coverage = args.coverage || min !== undefined;
    const display = (f: string) => displayPath(f, ctx.cwd);
    const report = formatTestRuns(runs, args.format, display, { coverage });
    const below = min === undefined ? [] : runs.filter((r) => r.coverage.percent < min);
    if (args.output !== undefined) {
      writeFileSync(path.resolve(ctx.cwd, args.output), report);
      const shownOutput = display(path.resolve(ctx.cwd, args.output));
      for (const run of runs) {
        const of = runs.length > 1 ? `${display(run.suite.file)}: ` : '';
        const covered = coverage ? `; coverage ${run.coverage.percent}%` : '';
        // The same count as the text report's last line: "1 case", never "1 cases".
        const n = run.results.length;
        ctx.stdout(`${of}${n} case${n === 1 ? '' : 's'}: ${run.passed} passed, ${run.failed} failed${covered} (report: ${shownOutput})\n`);
      }
    } else ctx.stdout(report);
    for (const run of below) {
      const of = runs.length > 1 ? `${display(run.suite.file)}: ` : '';
      ctx.stderr(`${of}coverage ${run.coverage.percent}% is below --min-coverage ${min}\n`);
    }
    return runs.some((r) => r.failed > 0) || below.length > 0 ? 1 : 0;
  },
};

/** One project's test file run through the runtime's decision: `file` (which may name its policy), else the one beside the policy. */
function testRun(args: Pick<TestArgs, 'file' | 'policy' | 'manifest'>, cwd: string): TestRun {
  const explicit = args.file !== undefined ? path.resolve(cwd, args.file) : undefined;
  // the test file may name its policy; otherwise the project's (or --policy)
  const input = explicit === undefined || args.policy !== undefined ? loadPolicyInput({ cwd, policy: args.policy, manifest: args.manifest }) : undefined;
  const file = explicit ?? path.join(path.dirname(input!.policy.file), TEST_FILE);
  const { suite } = loadTestSuite(file);
  const project = input ?? projectOf(cwd, args.manifest);
  const policy =
    args.policy === undefined && suite.policy !== undefined ? loadPolicyOrThrow(suite.policy).policy : (project ?? loadPolicyInput({ cwd })).policy;
  // the tools' own check of the arguments, as the runtime makes it before any rule
  const manifest = project?.project?.manifest;
  return runTests(suite, createDecider(policy), { gate: manifest ? toolGate(readActionSchemas(manifest)) : undefined });
}

/** The project the tests run in (its tools' schemas), when there is one that loads. */
function projectOf(cwd: string, manifest: string | undefined): ReturnType<typeof loadPolicyInput> | undefined {
  try {
    return loadPolicyInput({ cwd, manifest });
  } catch (error) {
    if (manifest !== undefined) throw error;
    return undefined;
  }
}
