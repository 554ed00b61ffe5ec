/**
 * One wording for a tool `name` the scanner cannot resolve to a string, shared by init, generate,
 * codemod and check (issue 10: reported the same way by all four).
 */
export const RESOLVABLE_NAMES =
  'a string literal, a `const` string of the same file, or a `const` string exported by a relative module (or a string property of such a `const` object `as const`)';

/** `the name of this tool() cannot be resolved statically (<reason>)`. */
export function unresolvedNameMessage(reason: string | undefined, what = 'tool()'): string {
  return `the \`name\` of this ${what} cannot be resolved statically${reason ? ` (${reason})` : ''}, so it cannot be mapped to a policy action`;
}

export const UNRESOLVED_NAME_HINT = `Write the name as ${RESOLVABLE_NAMES}; then map it in ctrlrun.tools.yaml.`;
