import path from 'node:path';
import { refuseDirtyTree, runCodemod, writeChanges } from '../codemod/index.js';
import { type ChangeWriter, writeChangeSet } from '../codemod/write.js';
import { UserError } from '../diagnostics.js';
import type { FileChange } from '../codemod/types.js';
import { generatedFiles, renderGeneratedModule } from '../generate/index.js';
import { readGeneratedModule, writeGeneratedModule } from '../generate/write.js';
import { loadProject, type Project } from '../manifest/load.js';
import { displayPath } from '../format-diagnostics.js';

export interface FixOptions {
  cwd: string;
  paths?: string[] | undefined;
  manifest?: string | undefined;
  policy?: string | undefined;
  allowDirty: boolean;
}

export interface FixResult {
  /** Files the codemod rewrote (absolute). */
  rewritten: string[];
  /** The generated module, when it was (re)written. */
  generated?: string;
}

/** The rewrite set's writer (the codemod's `ChangeWriter`). */
export type FixWriter = ChangeWriter;

/** One package's fix, planned: nothing written yet. */
interface FixPlan {
  project: Project;
  changes: readonly FileChange[];
  toolsRewritten: number;
}

/**
 * `check --fix`: fixes what can be fixed without a human choice, before the lint runs: the codemod
 * (`codemod --write`: mapped SDK tools become protected) and then the generated module
 * (`generate`). A project that does not load is left alone (the lint reports it, exit 2); a dirty
 * git tree is refused without `allowDirty`, as `codemod --write` does.
 */
export async function applyFix(options: FixOptions, ctx: { cwd: string; stderr: (text: string) => void }, write: FixWriter = writeChanges): Promise<FixResult> {
  return (await applyFixes([options], ctx, write))[0] ?? { rewritten: [] };
}

/**
 * `check --fix` over one or several manifests (a workspace root: one a package). Every package is
 * planned first (a refusal throws before anything is written), then every package's rewrite is
 * written as one set through the codemod's writer (all or nothing, each file checked against the
 * text it was planned from), then each package's generated module. What is printed is what the set
 * did: when a file changed on disk nothing was rewritten, and the line says so and names the files.
 */
export async function applyFixes(
  list: readonly FixOptions[],
  ctx: { cwd: string; stderr: (text: string) => void },
  write: FixWriter = writeChanges,
): Promise<FixResult[]> {
  const plans: Array<FixPlan | undefined> = [];
  for (const options of list) plans.push(await planFix(options, ctx, list.length > 1));
  const changes = plans.flatMap((p) => p?.changes ?? []);
  const set = changes.length > 0 ? writeChangeSet(changes, ctx.cwd, 'check --fix', write) : { written: [], changedOnDisk: [] };
  const written = new Set(set.written);
  if (set.changedOnDisk.length > 0) {
    const files = set.changedOnDisk.map((f) => displayPath(f, ctx.cwd)).join(', ');
    ctx.stderr(`check --fix: nothing rewritten: ${files} changed on disk while the codemod ran; no file was written. Run again\n`);
  }
  return plans.map((plan, i) => {
    if (plan === undefined) return { rewritten: [] };
    const rewritten = plan.changes.map((c) => c.file).filter((f) => written.has(f));
    const fixed: FixResult = { rewritten };
    const generated = writeGenerated(plan.project);
    if (generated !== undefined) fixed.generated = generated;
    const prefix = list.length > 1 ? `${displayPath(plan.project.manifest.root, ctx.cwd)}: ` : '';
    // tools count only when their files were written (the set is all or nothing)
    const tools = rewritten.length > 0 ? plan.toolsRewritten : 0;
    const parts = [`${tools} tool(s) protected in ${rewritten.length} file(s)`];
    if (fixed.generated) parts.push(`wrote ${displayPath(fixed.generated, list[i]?.cwd ?? ctx.cwd)}`);
    ctx.stderr(`check --fix: ${prefix}${parts.join('; ')}\n`);
    return fixed;
  });
}

/** One package's plan; undefined when it is left alone (it does not load, or generate would refuse). */
async function planFix(options: FixOptions, ctx: { stderr: (text: string) => void }, named: boolean): Promise<FixPlan | undefined> {
  let project: Project;
  try {
    project = loadProject({
      cwd: options.cwd,
      ...(options.manifest !== undefined ? { manifest: path.resolve(options.cwd, options.manifest) } : {}),
      ...(options.policy !== undefined ? { policy: path.resolve(options.cwd, options.policy) } : {}),
    });
  } catch (error) {
    if (error instanceof UserError) return undefined;
    throw error;
  }
  const { manifest } = project;
  if (!options.allowDirty) refuseDirtyTree(manifest.root, 'check --fix', 'fix');
  const paths = (options.paths ?? []).map((p) => path.resolve(options.cwd, p));
  // the rewrite imports the generated module: when generate would refuse, nothing is rewritten
  // (as codemod --write refuses); the lint then reports what generate refuses
  try {
    renderGeneratedModule(project);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    const prefix = named ? `${displayPath(manifest.root, options.cwd)}: ` : '';
    ctx.stderr(`check --fix: ${prefix}nothing rewritten: ${error.message}, and the rewritten calls would import that module\n`);
    return undefined;
  }
  const result = await runCodemod({ manifest, policy: project.policy, ...(paths.length > 0 ? { paths } : {}) });
  return { project, changes: result.changes, toolsRewritten: result.summary.toolsRewritten };
}

/** The package's generated module, (re)written when it differs; its path then. A refusal is left to the lint (policy-invalid). */
function writeGenerated(project: Project): string | undefined {
  let wrote: string | undefined;
  try {
    for (const file of generatedFiles(renderGeneratedModule(project))) {
      if (readGeneratedModule(file.path) !== file.text) {
        writeGeneratedModule(file.path, file.text, project.manifest.root);
        wrote ??= file.path;
      }
    }
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
  }
  return wrote;
}
