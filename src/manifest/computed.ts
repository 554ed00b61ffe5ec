import type { ManifestTool, ToolSite } from './types.js';

/** A manifest entry for the tools a `tool()` call with a computed name makes (issue 40, item 5). */
export type ComputedTool = Extract<ManifestTool, { kind: 'computed' }>;

/** Whether a call of `file` (repo-relative, `/` separated) written in the top-level declaration `container` is one the site names. */
export function siteMatches(site: ToolSite, file: string, container: string | undefined): boolean {
  return site.file === file && (site.in === undefined || site.in === container);
}

/** `src/flows.ts#flowTools`, or `src/flows.ts` for every call of the file. */
export function siteLabel(site: ToolSite): string {
  return site.in !== undefined ? `${site.file}#${site.in}` : site.file;
}

/** The manifest's computed-name entries. */
export function computedTools(manifest: { tools: readonly ManifestTool[] }): ComputedTool[] {
  return manifest.tools.filter((t): t is ComputedTool => t.kind === 'computed');
}

/** The entry mapping a call of `file` in `container`, if any (the loader refuses two entries for one call). */
export function computedEntryAt(manifest: { tools: readonly ManifestTool[] }, file: string, container: string | undefined): ComputedTool | undefined {
  return computedTools(manifest).find((t) => siteMatches(t.at, file, container));
}

/** The key a computed entry's declarations are found under (a tool name has no `@`-started form of its own here). */
export function computedKey(entry: Pick<ComputedTool, 'at'>): string {
  return `@${siteLabel(entry.at)}`;
}

/** The key an entry's declarations are found under: a function tool's name, a computed entry's site. */
export function declarationKey(entry: ManifestTool): string | undefined {
  if (entry.kind === 'function') return entry.tool;
  if (entry.kind === 'computed') return computedKey(entry);
  return undefined;
}
