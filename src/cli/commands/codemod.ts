import { existsSync } from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import pc from 'picocolors';
import { refuseDirtyTree, runCodemod, writeChanges, type CodemodFinding, type CodemodResult } from '../../codemod/index.js';
import { writeChangeSet, type WriteOutcome } from '../../codemod/write.js';
import { UserError, type Diagnostic } from '../../diagnostics.js';
import { renderGeneratedModule } from '../../generate/index.js';
import { loadProject, type Project } from '../../manifest/load.js';
import { progressLine } from '../progress.js';
import type { CliContext, CommandSpec } from '../context.js';
import { withProjectOptions } from '../project-options.js';
import { displayPath } from '../../format-diagnostics.js';
import { unresolvedNameMessage } from '../../scan/names.js';
import { outcomeOf, type ExitReason, type Outcome, type OutcomeEntry } from '../../codemod/outcome.js';
import { DOOR_WORDS, doorLeftText } from '../../codemod/door-words.js';
import { pathsInPackage } from '../../manifest/workspace.js';
import type { RootFiles } from '../../fs/repo-files.js';
import { workspaceManifestsListed } from '../workspace.js';
import { refusePlainFolder } from '../plain-folder.js';

export interface CodemodArgs {
  paths?: string[];
  write: boolean;
  allowDirty: boolean;
  /** `--format json` or its older spelling `--json`. */
  json: boolean;
  format?: 'text' | 'json';
  manifest?: string;
  policy?: string;
}

/** Progress is shown on a terminal when more files than this are scanned. */
const PROGRESS_THRESHOLD = 300;

export const codemodCommand: CommandSpec<CodemodArgs> = {
  command: 'codemod [paths..]',
  describe: "Rewrite the repo's SDK tool() calls to protectedTool() (a diff unless --write)",
  builder: (y) =>
    withProjectOptions(y)
      .positional('paths', { type: 'string', array: true, describe: 'Files or directories to rewrite (default: the whole repo)' })
      .option('write', { type: 'boolean', default: false, describe: 'Write the files (atomically) instead of printing a diff' })
      .option('allow-dirty', { type: 'boolean', default: false, describe: 'With --write: proceed although the git tree has uncommitted changes' })
      .option('format', { choices: ['text', 'json'], default: 'text', describe: 'text: the diff and a summary; json: the outcome for scripts' })
      .option('json', { type: 'boolean', default: false, describe: 'The same as --format json' }),
  examples: [
    ['ctrlrun-gen codemod', 'Show the diff that would protect every mapped tool; nothing is written'],
    ['ctrlrun-gen codemod --write', 'Rewrite the files (the git tree must be clean)'],
    ['ctrlrun-gen codemod src/agents --write --allow-dirty', 'Rewrite one directory over uncommitted changes'],
    ['ctrlrun-gen codemod --write --format json', 'What was rewritten and what is left, and why the exit is 1, as JSON for scripts'],
  ],
  run: async (given, ctx) => {
    const args = { ...given, json: given.json || given.format === 'json' };
    // At a workspace root with no manifest of its own: each package's manifest in turn (issue 21).
    const { manifests, rootFiles } =
      args.manifest === undefined ? workspaceManifestsListed(ctx.cwd, args.paths) : { manifests: undefined, rootFiles: undefined };
    // in a plain folder of projects: the manifests below it, rather than "no manifest found"
    if (args.manifest === undefined && manifests === undefined) refusePlainFolder(ctx.cwd, 'codemod');
    return manifests ? runWorkspaceCodemod(manifests, args, ctx) : runCodemodCommand(args, ctx, rootFiles);
  },
};

/**
 * The codemod over several packages' manifests: every package is planned first, then all their
 * rewrites are written as one set (all or nothing: writeChanges checks every file of every package
 * against the text it analysed, at the moment of writing), and only then is each package's report
 * printed, so that what it says was written is what is on disk. `write` is the set's writer
 * (tests hand in one that changes a file between the plan and the write).
 */
export async function runWorkspaceCodemod(manifests: readonly string[], args: CodemodArgs, ctx: CliContext, write = writeChanges): Promise<number> {
  const plans: Array<{ dir: string; args: CodemodArgs; plan: CodemodPlan }> = [];
  for (const manifest of manifests) {
    const dir = path.dirname(manifest);
    const paths = pathsInPackage(ctx.cwd, dir, args.paths);
    const one = { ...args, manifest, ...(paths ? { paths } : { paths: [] }) };
    plans.push({ dir, args: one, plan: await planCodemod(one, ctx) });
  }
  const changes = plans.flatMap((p) => p.plan.result.changes);
  const set = args.write && changes.length > 0 ? writeChangeSet(changes, ctx.cwd, 'codemod --write', write) : NOTHING_WRITTEN;
  let code = 0;
  const reports: unknown[] = [];
  let shown = '';
  for (const { dir, args: one, plan } of plans) {
    let out = '';
    const stdout = (t: string): void => {
      out += t;
    };
    code = Math.max(code, reportCodemod(plan, one, { ...ctx, stdout }, set));
    if (args.json) reports.push({ package: displayPath(dir, ctx.cwd), ...(JSON.parse(out) as object) });
    else shown += `${displayPath(dir, ctx.cwd)}:\n${out}`;
  }
  ctx.stdout(args.json ? `${JSON.stringify({ packages: reports }, null, 2)}\n` : shown);
  if (!args.json) reportChangedOnDisk(set.changedOnDisk, ctx);
  return code;
}

const NOTHING_WRITTEN: WriteOutcome = { written: [], changedOnDisk: [] };

/** The codemod as the CLI runs it (`check --fix` shares its pieces: src/check/fix.ts); resolves to the exit code (SPEC §6). */
export async function runCodemodCommand(args: CodemodArgs, ctx: CliContext, rootFiles?: RootFiles): Promise<number> {
  const plan = await planCodemod(args, ctx, rootFiles);
  const set = args.write ? writeChangeSet(plan.result.changes, ctx.cwd, 'codemod --write') : NOTHING_WRITTEN;
  const code = reportCodemod(plan, args, ctx, set);
  if (!args.json) reportChangedOnDisk(set.changedOnDisk, ctx);
  return code;
}

/** One package's codemod, planned: nothing written yet. */
interface CodemodPlan {
  project: Project;
  result: CodemodResult;
}

/**
 * Loads the project, runs the codemod and refuses a write whose imports would not resolve (a
 * UserError: nothing written). `rootFiles`: the files of the folder the command found its manifest
 * in, listed already (used when that folder is the manifest's root).
 */
async function planCodemod(args: CodemodArgs, ctx: CliContext, rootFiles?: RootFiles): Promise<CodemodPlan> {
  const project = loadProject({
    cwd: ctx.cwd,
    ...(args.manifest !== undefined ? { manifest: path.resolve(ctx.cwd, args.manifest) } : {}),
    ...(args.policy !== undefined ? { policy: path.resolve(ctx.cwd, args.policy) } : {}),
  });
  const { manifest } = project;
  const paths = (args.paths ?? []).map((p) => path.resolve(ctx.cwd, p));
  const missing = paths.filter((p) => !existsSync(p));
  if (missing.length > 0) {
    throw new UserError(`codemod: no such file or directory: ${missing.map((p) => displayPath(p, ctx.cwd)).join(', ')}`);
  }
  if (args.write && !args.allowDirty) {
    const state = refuseDirtyTree(manifest.root, 'codemod', 'rewrite');
    if (state.kind === 'not-a-repo' && !args.json) {
      ctx.stderr(`note: ${displayPath(manifest.root, ctx.cwd)} is not in a git work tree; the rewrite cannot be reviewed with git diff.\n`);
    }
  }

  const progress = progressLine(ctx, 'scanning', PROGRESS_THRESHOLD);
  const result = await runCodemod({
    manifest,
    policy: project.policy,
    ...(paths.length > 0 ? { paths } : {}),
    ...(progress ? { onProgress: progress.update } : {}),
    ...(rootFiles ? { rootFiles } : {}),
  });
  progress?.clear();
  if (args.write && result.changes.length > 0) refuseWithoutGeneratedModule(project, ctx.cwd);
  return { project, result };
}

/**
 * One package's report (text or JSON on ctx.stdout) of what the write set did; resolves to its
 * exit code. A file is said written only when the set wrote it; when files changed while the
 * codemod ran, nothing was written and every package says so (exit 1).
 */
function reportCodemod({ project, result }: CodemodPlan, args: CodemodArgs, ctx: CliContext, { written, changedOnDisk }: WriteOutcome): number {
  const { manifest } = project;
  const generatedMissing = !existsSync(manifest.output);
  if (args.json) {
    ctx.stdout(`${JSON.stringify(jsonReport(result, ctx.cwd, args.write, written, changedOnDisk, generatedMissing ? manifest.output : undefined), null, 2)}\n`);
  } else {
    const colors = pc.createColors(ctx.color);
    if (!args.write) for (const change of result.changes) ctx.stdout(colorDiff(unifiedDiff(change.file, change.before, change.after, ctx.cwd), colors));
    ctx.stdout(formatSummary(result, ctx, args.write, written, colors));
    ctx.stdout(exitLine(outcomeOf(result, changedOnDisk), args.write));
    if (generatedMissing && result.summary.toolsRewritten + result.summary.alreadyProtected > 0) {
      ctx.stderr(`note: ${displayPath(manifest.output, ctx.cwd)} does not exist yet; run \`ctrlrun-gen generate\` so the rewritten imports resolve.\n`);
    }
  }
  return changedOnDisk.length > 0 ? 1 : result.exitCode;
}

function reportChangedOnDisk(changedOnDisk: readonly string[], ctx: CliContext): void {
  for (const f of changedOnDisk) ctx.stderr(`error: ${displayPath(f, ctx.cwd)} changed while the codemod ran; nothing was written. Run it again.\n`);
}

/**
 * `codemod --write` rewrites imports of the generated module: it refuses (nothing written) when that
 * module is not there or `generate` would refuse (issue 21: a rewrite whose imports do not resolve
 * breaks the app while the codemod said it was done).
 */
function refuseWithoutGeneratedModule(project: Project, cwd: string): void {
  const output = displayPath(project.manifest.output, cwd);
  const at = ` (${displayPath(project.manifest.file, cwd)}'s output)`;
  let diagnostics: Diagnostic[] = [];
  let reason: string | undefined;
  try {
    renderGeneratedModule(project);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    reason = error.message;
    diagnostics = error.diagnostics;
  }
  if (reason !== undefined) {
    throw new UserError(
      `codemod --write: nothing was written: the rewritten calls import ${output}${at}, and ${reason.replace(/^cannot generate [^:]*: /, '`generate` refuses: ')}. Fix what is reported, run \`ctrlrun-gen generate\`, then the codemod again`,
      diagnostics,
    );
  }
  if (!existsSync(project.manifest.output)) {
    throw new UserError(
      `codemod --write: nothing was written: the rewritten calls import ${output}${at}, which does not exist yet. Run \`ctrlrun-gen generate\` first, then the codemod again`,
    );
  }
}

export function unifiedDiff(file: string, before: string, after: string, cwd: string): string {
  const rel = displayPath(file, cwd);
  return createTwoFilesPatch(`a/${rel}`, `b/${rel}`, before, after, undefined, undefined, { context: 3 });
}

function colorDiff(patch: string, colors: ReturnType<typeof pc.createColors>): string {
  return patch
    .split('\n')
    .map((line) => {
      if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('====')) return colors.bold(line);
      if (line.startsWith('@@')) return colors.cyan(line);
      if (line.startsWith('+')) return colors.green(line);
      if (line.startsWith('-')) return colors.red(line);
      return line;
    })
    .join('\n');
}

function where(f: { file: string; line: number; column: number }, cwd: string): string {
  return `${displayPath(f.file, cwd)}:${f.line}:${f.column}`;
}

function describeFinding(f: CodemodFinding, cwd: string): string | undefined {
  switch (f.kind) {
    case 'conflict':
      return `${where(f, cwd)}: conflict: tool '${f.tool}' ${CONFLICT_WORDS[f.cause ?? 'needs-approval']} (${f.message}); left unchanged\n    ${where(f.related, cwd)}: ${f.related.message}${answerLines(f, cwd)}`;
    case 'unmapped':
      return `${where(f, cwd)}: unmapped: tool '${f.tool}' is not in the manifest; left unchanged (add it to ctrlrun.tools.yaml)`;
    case 'no-literal-name':
      return `${where(f, cwd)}: no literal name: ${unresolvedNameMessage(f.reason)}; left unchanged (map the tools it makes by its place: \`- tool: { at: "${where(f, cwd).replace(/:\d+$/, '')}", names: "<pattern>" }\` with its \`action:\` in ctrlrun.tools.yaml)`;
    case 'unanalysable':
      return `${where(f, cwd)}: cannot rewrite tool '${f.tool}' (${f.action}): ${f.message}; left unchanged`;
    case 'unknown-action':
      return `${where(f, cwd)}: unknown action: tool '${f.tool}' maps to '${f.action}', which the policy does not define; left unchanged`;
    case 'parse-error':
      return `${where(f, cwd)}: does not parse: ${f.message.replace(/\.$/, '')}; file skipped`;
    case 'unreadable':
      return `${where(f, cwd)}: ${f.message.replace(/\.$/, '')}; not rewritten (${f.hint ?? 'make it readable and run again'})`;
    case 'error-function':
      return `${where(f, cwd)}: unsafe-error-function: ${f.tool !== undefined ? `tool '${f.tool}' ` : ''}${f.message}`;
    case 'door-left':
      return `${where(f, cwd)}: ${f.reason === 'unknown-action' ? 'unknown action' : f.reason === 'unanalysable' ? 'cannot rewrite' : f.reason}: ${doorLeftText(f)}; left unchanged\n    hint: ${f.hint}`;
    case 'rewritten':
    case 'door-rewritten':
      return undefined;
  }
}

/** Where the app answers, one line each (an `app-approvals` conflict): each is to change, as check lists them. */
function answerLines(f: Extract<CodemodFinding, { kind: 'conflict' }>, cwd: string): string {
  const listed = (f.answers ?? []).map((a) => `\n    answered at ${where(a, cwd)}: ${a.call}`).join('');
  return listed + (f.moreAnswers !== undefined ? `\n    and ${f.moreAnswers} more answers` : '');
}

const CONFLICT_WORDS: Record<NonNullable<Extract<CodemodFinding, { kind: 'conflict' }>['cause']>, string> = {
  'needs-approval': 'keeps its needsApproval',
  generate: 'is not protected by the generated module',
  'app-approvals': 'keeps tool() because the app answers its approvals itself',
};

function formatSummary(result: CodemodResult, ctx: CliContext, write: boolean, written: string[], colors: ReturnType<typeof pc.createColors>): string {
  const s = result.summary;
  const lines: string[] = [];
  const problems = result.findings.map((f) => describeFinding(f, ctx.cwd)).filter((l): l is string => l !== undefined);
  if (problems.length > 0) lines.push('', ...problems);
  const rewritten = result.findings.filter((f): f is Extract<CodemodFinding, { kind: 'rewritten' }> => f.kind === 'rewritten' && f.changes.length > 0);
  if (rewritten.length > 0) {
    lines.push('', colors.bold(`What changes at run time for the ${write ? 'rewritten' : 'rewritable'} tools:`));
    for (const f of rewritten) {
      lines.push(`${where(f, ctx.cwd)}: tool '${f.tool}' -> protectedTool('${f.action}')`);
      for (const change of f.changes) lines.push(`  - ${change.text}`);
    }
  }
  const doors = result.findings.filter((f): f is Extract<CodemodFinding, { kind: 'door-rewritten' }> => f.kind === 'door-rewritten');
  if (doors.length > 0) {
    lines.push('', colors.bold(`Other doors ${write ? 'rewritten' : 'to rewrite'} (each call is now decided by the policy):`));
    for (const f of doors) {
      lines.push(`${where(f, ctx.cwd)}: ${DOOR_WORDS[f.door]} '${f.name}' -> ${f.to}${f.removed.length > 0 ? ` (removed: ${f.removed.join(', ')})` : ''}`);
    }
  }
  lines.push(...runsWithoutContextLines(result, ctx.cwd, colors));
  for (const f of written) lines.push(`wrote ${displayPath(f, ctx.cwd)}`);
  lines.push(
    '',
    colors.bold(
      `${s.filesScanned} files scanned, ${s.filesParsed} parsed; ${s.toolsRewritten} tools ${write ? 'rewritten' : 'to rewrite'}${s.doorsRewritten > 0 ? ` and ${s.doorsRewritten} other doors` : ''} in ${s.filesRewritten} files; ` +
        `${s.alreadyProtected} already protected; ${s.conflicts} conflicts; ${s.unmapped} unmapped; ${s.unparseable} unparseable` +
        (s.noLiteralName + s.unanalysable + s.unknownActions > 0 ? `; ${s.noLiteralName + s.unanalysable + s.unknownActions} not rewritable` : ''),
    ),
  );
  if (!write && result.changes.length > 0) lines.push('Dry run: nothing written. Run again with --write to apply.');
  return `${lines.join('\n')}\n`;
}

/** The runs that pass no context the identity reads: every protected call of them would be refused. */
function runsWithoutContextLines(result: CodemodResult, cwd: string, colors: ReturnType<typeof pc.createColors>): string[] {
  const runs = result.runsWithoutContext ?? [];
  if (runs.length === 0) return [];
  const lines = ['', colors.bold("Runs that pass no context the control's identity reads (every protected call of them is refused, no_principal):")];
  for (const { file, run, missing } of runs) {
    const reads = missing.length > 0 ? missing.map((k) => `runContext.context.${k}`).join(' or ') : 'the run context';
    lines.push(
      `${where({ file, line: run.callee.line, column: run.callee.column }, cwd)}: ${run.via === 'runner' ? 'runner.run()' : 'run()'}${run.agent !== undefined ? ` of ${run.agent}` : ''} ${run.context.kind === 'none' ? 'passes no context' : 'passes a context without it'}; the identity reads ${reads}`,
    );
  }
  lines.push(
    `  hint: pass it (\`run(agent, input, { context: { ${runs[0]!.missing[0] ?? 'user'}: <who the run acts for> } })\`), or make identity return a service principal (\`ctrlrun-gen init --identity env:CTRLRUN_PRINCIPAL\`); check reports these as run-without-context`,
  );
  return lines;
}

/**
 * Why the exit code is what it is, in one line a person reads last (the JSON's `outcome` for
 * scripts): 0 all done; 1 with its reasons, `unparseable` alone saying every mapped tool was rewritten.
 */
function exitLine(outcome: Outcome, write: boolean): string {
  if (outcome.exitReasons.length === 0) return '';
  const count: Record<ExitReason, number> = {
    conflicts: outcome.conflicts.length,
    unmapped: outcome.unmapped.length,
    'not-rewritable': outcome.notRewritable.length,
    unparseable: outcome.unparseable.length,
    'changed-on-disk': 0,
  };
  const parts = outcome.exitReasons.map((r) => EXIT_WORDS[r](count[r]));
  const onlyFiles = outcome.exitReasons.every((r) => r === 'unparseable');
  return `Exit 1: ${parts.join(', ')}${onlyFiles ? `; every tool the manifest maps ${write ? 'was' : 'would be'} rewritten` : ''}.\n`;
}

const EXIT_WORDS: Record<ExitReason, (n: number) => string> = {
  conflicts: (n) => `${n} conflict${n === 1 ? '' : 's'}`,
  unmapped: (n) => `${n} unmapped tool${n === 1 ? '' : 's'}`,
  'not-rewritable': (n) => `${n} not rewritable`,
  unparseable: (n) => `${n} file${n === 1 ? '' : 's'} not parsed or read`,
  'changed-on-disk': () => 'files changed while it ran (nothing written)',
};

function jsonReport(result: CodemodResult, cwd: string, write: boolean, written: string[], changedOnDisk: string[], generatedMissing: string | undefined) {
  const rel = (f: string) => displayPath(f, cwd);
  const outcome = outcomeOf(result, changedOnDisk);
  // an answer's place as `file:line`, as check names it
  const entries = (list: OutcomeEntry[]) =>
    list.map((e) => ({ ...e, file: rel(e.file), ...(e.answers ? { answers: e.answers.map((a) => `${rel(a.file)}:${a.line}`) } : {}) }));
  return {
    summary: result.summary,
    exitCode: changedOnDisk.length > 0 ? 1 : result.exitCode,
    // what a script reads: each list with file:line, and why the exit code is 1 (none: 0)
    outcome: {
      exitReasons: outcome.exitReasons,
      rewritten: entries(outcome.rewritten),
      conflicts: entries(outcome.conflicts),
      unmapped: entries(outcome.unmapped),
      notRewritable: entries(outcome.notRewritable),
      unparseable: entries(outcome.unparseable),
    },
    write,
    files: result.changes.map((c) => ({
      file: rel(c.file),
      diff: write ? undefined : unifiedDiff(c.file, c.before, c.after, cwd),
      written: written.includes(c.file),
    })),
    findings: result.findings.map((f) => ({
      ...f,
      file: rel(f.file),
      ...('related' in f ? { related: { ...f.related, file: rel(f.related.file) } } : {}),
      ...('answers' in f && f.answers ? { answers: f.answers.map((a) => ({ ...a, file: rel(a.file) })) } : {}),
    })),
    ...(result.runsWithoutContext
      ? {
          runsWithoutContext: result.runsWithoutContext.map((r) => ({
            file: rel(r.file),
            line: r.run.callee.line,
            column: r.run.callee.column,
            missing: r.missing,
          })),
        }
      : {}),
    ...(changedOnDisk.length > 0 ? { changedOnDisk: changedOnDisk.map(rel) } : {}),
    ...(generatedMissing ? { generatedModuleMissing: rel(generatedMissing) } : {}),
  };
}
