import { UserError } from '../../diagnostics.js';
import { compareFindings } from '../../check/sort.js';
import { assertPathsExist, runCheck } from '../../check/engine.js';
import { buildReport, formatReport, FORMATS, type Format } from '../../check/report/index.js';
import type { Finding } from '../../check/types.js';
import { sourceOf } from '../../format-diagnostics.js';
import { progressLine } from '../progress.js';
import type { CliContext, CommandSpec } from '../context.js';
import { withProjectOptions } from '../project-options.js';
import { applyFixes, type FixWriter } from '../../check/fix.js';
import { writeChanges } from '../../codemod/index.js';
import path from 'node:path';
import { pathsInPackage } from '../../manifest/workspace.js';
import { workspaceManifestsListed } from '../workspace.js';
import type { CheckResult } from '../../check/engine.js';
import { checkPackagesWithoutManifest, noManifestReached } from '../../check/uncovered-packages.js';
import { refusePlainFolder } from '../plain-folder.js';

export interface CheckArgs {
  paths?: string[];
  format: Format;
  failOn: 'error' | 'warning';
  fix: boolean;
  maxFindings?: number;
  manifest?: string;
  policy?: string;
  allowDirty: boolean;
}

export const checkCommand: CommandSpec<CheckArgs> = {
  command: 'check [paths..]',
  describe: 'Lint the repo for open doors (CI): unprotected tools, sticky approvals, stale generated code',
  builder: (y) =>
    withProjectOptions(y)
      .positional('paths', { type: 'string', array: true, describe: 'Files or directories to check (default: the whole repo)' })
      .option('format', { type: 'string', choices: FORMATS, default: 'text', describe: 'Output format' })
      .option('fail-on', {
        type: 'string',
        choices: ['error', 'warning'],
        default: 'error',
        describe: 'Exit 1 when a finding of this severity or above remains',
      })
      .option('fix', { type: 'boolean', default: false, describe: 'Apply the codemod (protect mapped tools) before checking' })
      .option('allow-dirty', { type: 'boolean', default: false, describe: 'With --fix: write even if the git tree has uncommitted changes' })
      .option('max-findings', { type: 'number', describe: 'Report at most N findings (the exit code still counts all)' }),
  examples: [
    ['ctrlrun-gen check', 'Lint the whole repo; exit 1 on an error finding'],
    ['ctrlrun-gen check --format sarif > ctrlrun.sarif', 'SARIF 2.1.0 for GitHub code scanning'],
    ['ctrlrun-gen check --format github --fail-on warning', 'Annotations on a pull request; warnings fail too'],
    ['ctrlrun-gen check --fix', 'Protect the mapped tools with the codemod, then lint'],
  ],
  run: async (args, ctx) => runCheckCommand(args, ctx),
};

/** `write` is `check --fix`'s write set's writer (tests hand in one that fails or changes a file between the plan and the write). */
export async function runCheckCommand(args: CheckArgs, ctx: CliContext, write: FixWriter = writeChanges): Promise<number> {
  const maxFindings = args.maxFindings;
  if (maxFindings !== undefined && (!Number.isInteger(maxFindings) || maxFindings < 0)) {
    throw new UserError(`check: --max-findings must be a whole number of 0 or more (got ${String(maxFindings)}).`);
  }
  // a path that is not there is an error, also beside paths that reach a package (which checks only its own)
  assertPathsExist(ctx.cwd, args.paths);
  // At a workspace root with no manifest of its own: every package's manifest, one report (issue 21).
  const listed = args.manifest === undefined ? workspaceManifestsListed(ctx.cwd, args.paths) : undefined;
  const manifests = listed ? (listed.manifests ?? noManifestReached(ctx.cwd, args.paths)) : undefined;
  if (args.manifest === undefined && manifests === undefined) refusePlainFolder(ctx.cwd, 'check');
  // the manifest's folder, listed to find the packages below it: the check's scan of it takes that
  // listing (not after --fix, which writes files)
  const rootFiles = args.fix ? undefined : listed?.rootFiles;
  // every package planned, then one write set: a failure in any package leaves every file as it was
  if (args.fix) {
    const each = (manifest: string | undefined) => ({ cwd: ctx.cwd, paths: args.paths, manifest, policy: args.policy, allowDirty: args.allowDirty });
    await applyFixes((manifests ?? [args.manifest]).map(each), ctx, write);
  }
  const progress = progressLine(ctx, 'checking');
  const check = (manifest: string | undefined) => {
    const paths = manifests && manifest !== undefined ? pathsInPackage(ctx.cwd, path.dirname(manifest), args.paths) : args.paths;
    return runCheck({
      cwd: ctx.cwd,
      ...(paths && paths.length > 0 ? { paths } : {}),
      // a package's check at a root: what the command's other checks cover, for its dependents' answers
      ...(manifests && args.paths && args.paths.length > 0 ? { commandPaths: args.paths } : {}),
      // every package's check, the regions without a manifest too: together they cover the paths
      ...(manifests ? { covered: args.paths && args.paths.length > 0 ? args.paths : ['.'] } : {}),
      ...(manifest !== undefined ? { manifest } : {}),
      ...(args.policy !== undefined ? { policy: args.policy } : {}),
      ...(progress ? { onProgress: progress.update } : {}),
      ...(ctx.debug ? { onDebug: (line: string) => ctx.stderr(`debug: ${line}\n`) } : {}),
      ...(rootFiles ? { rootFiles } : {}),
    });
  };
  let result: CheckResult;
  if (manifests) {
    const each: CheckResult[] = [];
    for (const m of manifests) each.push(await check(m));
    // the packages no manifest covers are checked too: never skipped as if they had no doors
    each.push(...(await checkPackagesWithoutManifest(ctx.cwd, manifests, args.paths)));
    result = mergeResults(each);
  } else result = await check(args.manifest);
  progress?.clear();
  const report = buildReport(result.findings, result, maxFindings);
  const sources = new Map<string, string>();
  ctx.stdout(formatReport(args.format, report, { color: ctx.color, readSource: (file) => sourceOf(file, ctx.cwd, sources) }));
  return exitCode(result.findings, result.configError, args.failOn);
}

/** The packages' results as one: their findings (paths relative to the root) in stable order, counts summed. */
function mergeResults(results: CheckResult[]): CheckResult {
  return {
    findings: results.flatMap((r) => r.findings).sort(compareFindings),
    configError: results.some((r) => r.configError),
    filesConsidered: results.reduce((n, r) => n + r.filesConsidered, 0),
    filesParsed: results.reduce((n, r) => n + r.filesParsed, 0),
  };
}

/** 2 on a configuration error; 1 when a finding at or above `failOn` remains; else 0. */
export function exitCode(findings: Finding[], configError: boolean, failOn: 'error' | 'warning'): number {
  if (configError) return 2;
  return findings.some((f) => f.severity === 'error' || failOn === 'warning') ? 1 : 0;
}
