import type { Manifest } from './types.js';

/** The manifest's function tool names (`- tool: <name>`): the names the code's declarations are looked for by. */
export function functionToolNames(manifest: Pick<Manifest, 'tools'>): Set<string> {
  return new Set(manifest.tools.flatMap((t) => (t.kind === 'function' ? [t.tool] : [])));
}

/** The declaration key of the handoffs to agent `to` (never a tool name: it starts with a NUL). */
export const handoffDeclaration = (to: string): string => `\u0000handoff:${to}`;
/** The declaration key of the repo's SandboxAgents. */
export const SANDBOX_DECLARATION = '\u0000sandbox';

/**
 * Every name `generate` looks declarations up by: the function tools', a key per handoff target
 * (`handoff: { to }`), and the SandboxAgents' key when the manifest maps a sandbox tool.
 */
export function declarationNames(manifest: Pick<Manifest, 'tools'>): Set<string> {
  const names = functionToolNames(manifest);
  for (const t of manifest.tools) {
    if (t.kind === 'handoff') names.add(handoffDeclaration(t.to));
    if (t.kind === 'sandbox') names.add(SANDBOX_DECLARATION);
  }
  return names;
}
