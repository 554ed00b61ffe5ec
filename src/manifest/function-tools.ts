import type { Manifest } from './types.js';

/** The manifest's function tool names (`- tool: <name>`): the names the code's declarations are looked for by. */
export function functionToolNames(manifest: Pick<Manifest, 'tools'>): Set<string> {
  return new Set(manifest.tools.flatMap((t) => (t.kind === 'function' ? [t.tool] : [])));
}
