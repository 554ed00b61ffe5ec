import { hasDoors } from '../codemod/index.js';
import { IN_COMPONENT_HINT, isComponentFile } from '../scan/component-script.js';
import type { FileScan, RepoScan } from '../scan/types.js';

/**
 * The scan init plans from, without the component files that hold doors (`.vue`, `.svelte`,
 * `.astro`, `.mdx`): the codemod does not rewrite inside a component, so init maps nothing there
 * and says so, one note a tool (or a file), rather than proposing mappings nothing would apply.
 * `check` reports those doors where they are.
 */
export function setComponentsApart(scan: RepoScan): { scan: RepoScan; notes: string[] } {
  const apart = scan.files.filter((f) => isComponentFile(f.file) && holdsDoors(f));
  if (apart.length === 0) return { scan, notes: [] };
  const set = new Set(apart);
  return { scan: { ...scan, files: scan.files.filter((f) => !set.has(f)) }, notes: apart.flatMap(componentNotes) };
}

const holdsDoors = (f: FileScan): boolean => f.sdkToolCalls.length > 0 || (f.objectLiteralTools ?? []).length > 0 || hasDoors(f);

function componentNotes(f: FileScan): string[] {
  const tail = ` is in a component: init does not map it there; ${IN_COMPONENT_HINT}, then run \`ctrlrun-gen init --force\` (\`check\` reports it until then)\n`;
  const tools = f.sdkToolCalls.map((c) => `note: ${f.file}:${c.span.line}: the tool${c.name !== undefined ? ` ${JSON.stringify(c.name)}` : ''}${tail}`);
  return tools.length > 0 ? tools : [`note: ${f.file}:1: a door of the SDK (an MCP server, a hosted or local tool, an agent as a tool)${tail}`];
}
