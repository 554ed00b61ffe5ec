import { fileContextFor, hasDoors } from '../codemod/index.js';
import { rewriteFile } from '../codemod/rewrite-file.js';
import type { Finding } from '../check/types.js';
import type { FileContext } from '../codemod/rewrite-file.js';
import type { Project } from '../manifest/load.js';
import type { FileScan } from '../scan/types.js';
import type { LintSession } from './session.js';
import { isComponentFile } from '../scan/component-script.js';

/** The rules whose findings the codemod rewrites (`codemod --write`, `check --fix`). */
export const FIXABLE_RULES: ReadonlySet<string> = new Set([
  'unprotected-tool',
  'hosted-mcp-unguarded',
  'unprotected-door',
  'unprotected-agent-tool',
  'mcp-server-unguarded',
  'unprotected-sandbox-agent',
  'unprotected-handoff',

  'mcp-function-tool',
]);

/**
 * The codemod's context by project: built once per session's project, not per lint (it reads the
 * tsconfig files that decide the import specifiers; an editor lints the same file on every edit).
 * The repo's own answers to interruptions and the tools generate leaves out are read as
 * `codemod --write` reads them, so the fix leaves what it leaves; the answers as of the last edit.
 */
const contexts = new WeakMap<Project, (fileAbs: string) => FileContext>();
function contextFor(session: LintSession, project: Project, abs: string): FileContext {
  const inputs = session.codemodInputs?.();
  let made = contexts.get(project);
  if (!made) {
    made = fileContextFor(project.manifest, project.policy, inputs?.leftOut);
    contexts.set(project, made);
  }
  const context = made(abs);
  return inputs && inputs.answers.length > 0 ? { ...context, appAnswers: inputs.answers } : context;
}

/** One replacement of `[start, end)` of the file's text. */
export interface TextFix {
  start: number;
  end: number;
  text: string;
}

/**
 * The codemod's rewrite of the file as an ESLint fix, for the findings it fixes: a finding gets the
 * fix when the codemod rewrites a door on its line. The fix is the whole rewrite (the callee, the
 * action, the import lines), as one replacement of the range that changes: ESLint applies one of
 * overlapping fixes per pass, so `eslint --fix` writes what `codemod --write` would.
 */
export function codemodFix(session: LintSession, abs: string, text: string, scan: FileScan): ((finding: Finding) => TextFix | undefined) | undefined {
  const project = session.project;
  // a component's code is not rewritten (the codemod leaves it too): no fix offered there
  if (!project || isComponentFile(abs) || (scan.sdkToolCalls.length === 0 && !hasDoors(scan))) return undefined;
  const rewrite = rewriteFile(scan, text, contextFor(session, project, abs));
  if (rewrite.after === undefined || rewrite.after === text) return undefined;
  const lines = new Set(rewrite.findings.flatMap((f) => (f.kind === 'rewritten' || f.kind === 'door-rewritten' ? [f.line] : [])));
  const fix = changedRange(text, rewrite.after);
  return (finding) => (lines.has(finding.line) ? fix : undefined);
}

/** The smallest replacement that turns `before` into `after` (common prefix and suffix kept). */
export function changedRange(before: string, after: string): TextFix {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
  return { start, end: before.length - end, text: after.slice(start, after.length - end) };
}
