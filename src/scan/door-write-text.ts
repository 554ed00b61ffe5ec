import type { DoorWrite } from './types.js';

/** How a door's property was written, for a message: "`sh.shell` is reassigned", "a copy of `sh` with another `shell`". */
export function doorWriteText(d: DoorWrite): string {
  const who = d.target !== undefined ? `\`${d.target}\`` : 'the door';
  const member = d.target !== undefined ? `\`${d.target}.${d.property}\`` : `its \`${d.property}\``;
  if (d.form === 'spread') return `a copy of ${who} with another \`${d.property}\``;
  if (d.form === 'object-assign') return `Object.assign() gives ${who} another \`${d.property}\``;
  if (d.form === 'reflection') return `${d.via ?? 'Reflection'}() gives ${who} another \`${d.property}\``;
  if (d.form === 'contents') return `${member} is changed in place (${d.inner === '[]' ? 'an element written' : `\`${d.inner}\``})`;
  return `${member} is reassigned`;
}

/** The text with its first letter a capital. */
export const capitalized = (text: string): string => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/** What a door is called in a message about a write on an object check cannot follow. */
const DOOR_NAMES: Record<string, string> = {
  protectMcpServer: 'an MCP server protectMcpServer guards',
  hostedMcpTool: 'a hosted MCP tool',
  protectShellTool: 'a shell tool protectShellTool protects',
  protectApplyPatchTool: 'an apply_patch tool protectApplyPatchTool protects',
  protectComputerTool: 'a computer tool protectComputerTool protects',
};

/** The message of a door's property written on an object check cannot follow (`DoorWrite.unresolved`), ending with what the write breaks if it is that door. */
export function unresolvedWriteText(d: DoorWrite, breaks: string): string {
  return `${capitalized(doorWriteText(d))}, and check cannot tell which object ${d.target !== undefined ? `\`${d.target}\`` : 'it'} is (a parameter, an element, a function's result, a field check does not follow): if it is ${DOOR_NAMES[d.door] ?? 'a protected door'}, ${breaks}.`;
}

/** The hint of such a write, for the rule it is reported under. */
export const unresolvedHint = (ruleId: string): string =>
  `Keep the door in a \`const\` (or a class field, an object's property) of the module that writes it and write it there, so check can follow it; if the object is no door, say so above the line: \`// ctrlrun-ignore ${ruleId} -- <why>\`.`;

/** The rule check reports a door's write under, by what made the door (door-writes.ts `BREAKS`). */
const WRITE_RULES: Record<string, string> = {
  protectMcpServer: 'mcp-server-unguarded',
  hostedMcpTool: 'hosted-mcp-unguarded',
  protectHostedMcp: 'hosted-mcp-unguarded',
  protectShellTool: 'invoke-replaced',
  protectApplyPatchTool: 'invoke-replaced',
  protectComputerTool: 'invoke-replaced',
};

/**
 * The codemod's words for a write on an object check cannot follow, which it leaves as a conflict:
 * check's own message with what the codemod can say it breaks, and check's hint, so the two read
 * alike (issue 40 item 4).
 */
export function unresolvedLeftText(d: DoorWrite): { message: string; hint: string } {
  const message = unresolvedWriteText(d, 'it undoes the protection the codemod gives the door, and the codemod has no rewrite for it');
  return { message: message.replace(/\.$/, ''), hint: unresolvedHint(WRITE_RULES[d.door] ?? 'invoke-replaced') };
}

/** The hint for a hosted shell made local after it is made (check's unprotected-door and the codemod's conflict). */
export const MADE_LOCAL_HINT =
  "Keep the hosted shell's environment as it was made; for a local shell, use `protectShellTool('<action>', { shell, ... })` from the generated module, with the action in ctrlrun.yaml.";
