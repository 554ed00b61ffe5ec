import path from 'node:path';
import { refuseDirtyTree, runCodemod, writeChanges } from '../codemod/index.js';
import { type ChangeWriter, type SetChange, writeChangeSet } from '../codemod/write.js';
import { UserError } from '../diagnostics.js';
import type { FileChange } from '../codemod/types.js';
import { generatedFiles, renderGeneratedModule, type GeneratedModule } from '../generate/index.js';
import { generatedWriteRefusal, readGeneratedModule } from '../generate/write.js';
import { loadProject, type Project } from '../manifest/load.js';
import { displayPath } from '../format-diagnostics.js';
import { readSourceText } from '../scan/repo.js';
import { controlIsMissing, controlMissingMessage, controlMissingMeta } from './rules/control-missing.js';

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
  /** The package's generated module files that differ from what `generate` renders (written in the same set). */
  generated: readonly SetChange[];
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
 * planned first (a refusal throws before anything is written), then every package's rewrite and
 * generated module are written as one set through the codemod's writer (all or nothing, each file
 * checked against the text it was planned from): rewritten calls never land without the module
 * they import, nor a module without them. What is printed is what the set
 * did: when a file changed on disk nothing was rewritten, and the line says so and names the files.
 */
export async function applyFixes(
  list: readonly FixOptions[],
  ctx: { cwd: string; stderr: (text: string) => void },
  write: FixWriter = writeChanges,
): Promise<FixResult[]> {
  const plans: Array<FixPlan | undefined> = [];
  for (const options of list) plans.push(await planFix(options, ctx, list.length > 1));
  const changes: SetChange[] = plans.flatMap((p) => (p === undefined ? [] : [...p.changes, ...p.generated]));
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
    const generated = plan.generated.find((g) => written.has(g.file))?.file;
    if (generated !== undefined) fixed.generated = generated;
    const prefix = list.length > 1 ? `${displayPath(plan.project.manifest.root, ctx.cwd)}: ` : '';
    // tools count only when their files were written (the set is all or nothing)
    const tools = rewritten.length > 0 ? plan.toolsRewritten : 0;
    // the module imports the control: without it nothing is protected, since the app does not start (issue 40)
    const shown = (f: string) => displayPath(f, list[i]?.cwd ?? ctx.cwd);
    const noControl = controlIsMissing(plan.project.manifest);
    const parts = [`${tools} tool(s) ${noControl ? 'rewritten, not protected yet,' : 'protected'} in ${rewritten.length} file(s)`];
    if (fixed.generated) parts.push(`wrote ${shown(fixed.generated)}`);
    if (noControl) parts.push(`${lowerFirst(controlMissingMessage(plan.project.manifest, shown))} ${controlMissingMeta.help}`);
    ctx.stderr(`check --fix: ${prefix}${parts.join('; ')}\n`);
    return fixed;
  });
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

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
  let module: GeneratedModule;
  // nor when the module cannot be written where the manifest puts it (a hand-written file there)
  const refused = (why: string) => {
    const prefix = named ? `${displayPath(manifest.root, options.cwd)}: ` : '';
    ctx.stderr(`check --fix: ${prefix}nothing rewritten: ${why}, and the rewritten calls would import that module\n`);
    return undefined;
  };
  try {
    module = renderGeneratedModule(project);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    return refused(error.message);
  }
  const unwritable = generatedFiles(module)
    .map((file) => generatedWriteRefusal(file.path, manifest.root))
    .find((why) => why !== undefined);
  if (unwritable !== undefined) return refused(unwritable);
  const result = await runCodemod({ manifest, policy: project.policy, ...(paths.length > 0 ? { paths } : {}) });
  return { project, changes: result.changes, generated: generatedChanges(module), toolsRewritten: result.summary.toolsRewritten };
}

/**
 * The generated module's files that differ from what is on disk, planned for the write set (the
 * plan has refused a module `generate` would not write: a hand-written file, a path leading outside
 * the repository, an unreadable file).
 */
function generatedChanges(module: GeneratedModule): SetChange[] {
  const changes: SetChange[] = [];
  for (const file of generatedFiles(module)) {
    const current = readGeneratedModule(file.path);
    if (current === file.text) continue;
    // the race check reads it as the writer will: a file there that does not read as text is left out
    const before = current === undefined ? undefined : readSourceText(file.path);
    if (current !== undefined && before === undefined) continue;
    changes.push({ file: file.path, before, after: file.text });
  }
  return changes;
}
