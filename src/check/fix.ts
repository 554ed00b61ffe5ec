import path from 'node:path';
import { refuseDirtyTree, runCodemod, writeChanges } from '../codemod/index.js';
import { UserError } from '../diagnostics.js';
import { describeWriteFailure, WriteSetError } from '../fs/write-all.js';
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

/**
 * `check --fix`: fixes what can be fixed without a human choice, before the lint runs: the codemod
 * (`codemod --write`: mapped SDK tools become protected) and then the generated module
 * (`generate`). A project that does not load is left alone (the lint reports it, exit 2); a dirty
 * git tree is refused without `allowDirty`, as `codemod --write` does.
 */
export async function applyFix(options: FixOptions, ctx: { cwd: string; stderr: (text: string) => void }): Promise<FixResult> {
  let project: Project;
  try {
    project = loadProject({
      cwd: options.cwd,
      ...(options.manifest !== undefined ? { manifest: path.resolve(options.cwd, options.manifest) } : {}),
      ...(options.policy !== undefined ? { policy: path.resolve(options.cwd, options.policy) } : {}),
    });
  } catch (error) {
    if (error instanceof UserError) return { rewritten: [] };
    throw error;
  }
  const { manifest } = project;
  if (!options.allowDirty) refuseDirtyTree(manifest.root, 'check --fix', 'fix');
  const paths = (options.paths ?? []).map((p) => path.resolve(options.cwd, p));
  // the rewrite imports the generated module: when generate would refuse, nothing is rewritten
  // (as codemod --write refuses); the lint then reports what generate refuses
  let generateRefuses: string | undefined;
  try {
    renderGeneratedModule(project);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    generateRefuses = error.message;
  }
  if (generateRefuses !== undefined) {
    ctx.stderr(`check --fix: nothing rewritten: ${generateRefuses}, and the rewritten calls would import that module\n`);
    return { rewritten: [] };
  }
  const result = await runCodemod({ manifest, policy: project.policy, ...(paths.length > 0 ? { paths } : {}) });
  const { written: rewritten } = writeFixes(result.changes, options.cwd); // when a file changed since analysed, none is written
  const fixed: FixResult = { rewritten };
  try {
    const generated = renderGeneratedModule(project);
    for (const file of generatedFiles(generated)) {
      if (readGeneratedModule(file.path) !== file.text) {
        writeGeneratedModule(file.path, file.text, manifest.root);
        fixed.generated ??= file.path;
      }
    }
  } catch (error) {
    if (!(error instanceof UserError)) throw error; // the lint reports it as policy-invalid
  }
  const rel = (f: string): string => displayPath(f, options.cwd);
  const parts = [`${result.summary.toolsRewritten} tool(s) protected in ${rewritten.length} file(s)`];
  if (fixed.generated) parts.push(`wrote ${rel(fixed.generated)}`);
  ctx.stderr(`check --fix: ${parts.join('; ')}\n`);
  return fixed;
}

/** The codemod's rewrite, all or nothing: a file that cannot be written is a located user error. */
function writeFixes(changes: readonly FileChange[], cwd: string): { written: string[] } {
  try {
    return writeChanges(changes);
  } catch (error) {
    if (!(error instanceof WriteSetError)) throw error;
    throw new UserError(
      `check --fix: cannot write ${displayPath(error.file, cwd)}: ${describeWriteFailure(error)}; nothing was written. Make it writable and run again`,
    );
  }
}
