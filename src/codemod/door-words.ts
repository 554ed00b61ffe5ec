import type { DoorLeft } from './types.js';

/** How the codemod's summary names a door by what makes it (`shell tool`, `hosted MCP server`). */
export const DOOR_WORDS: Record<DoorLeft['door'], string> = {
  hostedMcpTool: 'hosted MCP server',
  shellTool: 'shell tool',
  applyPatchTool: 'apply_patch tool',
  computerTool: 'computer tool',
  asTool: 'agent tool',
  mcpServers: 'MCP server',
  SandboxAgent: 'SandboxAgent',
  handoff: 'handoff to',

  getAllMcpTools: 'getAllMcpTools() of MCP server',
  mcpToFunctionTool: 'mcpToFunctionTool() of MCP server',
  tool: 'function tool',
  agent: 'agent',
};

/**
 * A door left, as the codemod's summary says it after its place: the door, its name, and why
 * (`shell tool: written as an object literal ...`). init's notes say it in the same words.
 */
export function doorLeftText(f: DoorLeft): string {
  return `${DOOR_WORDS[f.door]}${f.name !== undefined ? ` '${f.name}'` : ''}: ${f.message}`;
}
