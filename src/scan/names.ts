import type { HostedMcpCall } from './types.js';
/**
 * One wording for a tool `name` the scanner cannot resolve to a string, shared by init, generate,
 * codemod and check (issue 10: reported the same way by all four).
 */
export const RESOLVABLE_NAMES =
  'a string literal, a `const` string of the same file, or a `const` string exported by a relative module (or a string property of such a `const` object `as const`)';

/** `the name of this tool() cannot be resolved statically (<reason>)`. */
export function unresolvedNameMessage(reason: string | undefined, what = 'tool()'): string {
  return `the \`name\` of this ${what} cannot be resolved statically${reason ? ` (${reason})` : ''}, so it cannot be mapped to a policy action by its name`;
}

export const UNRESOLVED_NAME_HINT = `Write the name as ${RESOLVABLE_NAMES}; then map it in ctrlrun.tools.yaml.`;

/** The hint for a tool() whose name the code computes (a loop over flows): map it by its place (issue 40, item 5). */
export function computedNameHint(file: string, container: string | undefined): string {
  const at = `at: ${file}${container !== undefined ? `, in: ${container}` : ''}`;
  return `Map the tools this call makes by its place: add to \`tools:\` in ctrlrun.tools.yaml\n  - tool: { ${at}, names: "<pattern, e.g. flow_*>" }\n    action: <id>\n(or write the name as ${RESOLVABLE_NAMES} and map it by name).`;
}

/** The labels a `hostedMcpTool` call can get: its literal label, or those the file shows (a helper's callers). */
export function hostedLabelsOf(call: Pick<HostedMcpCall, 'serverLabel' | 'serverLabels'>): string[] {
  return call.serverLabel !== undefined ? [call.serverLabel] : (call.serverLabels ?? []);
}
