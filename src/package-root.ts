import path from 'node:path';
import { fileURLToPath } from 'node:url';
// node:fs as CommonJS, not imported: the launcher's path is ES modules, and Node builds an ES
// module's view of node:fs by reading every export, which loads its streams (see DECISIONS, session 27).
const { existsSync, readFileSync } = process.getBuiltinModule('node:fs');

/**
 * The installed package's root directory: the nearest folder above this module whose package.json
 * is named `ctrlrun-gen`. Files the package ships beside its code (package.json, `templates/`,
 * `fixtures/refund-desk`) are found from here, not at a fixed `../..`: the module runs from `src/`
 * (tests), from tsc's `dist/` (at any depth) and inlined into the CLI's bundle (`dist/cli/bin.js`).
 */
export function packageRoot(from: string = fileURLToPath(import.meta.url)): string {
  let dir = path.dirname(from);
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'ctrlrun-gen') return dir;
      } catch {
        // not a readable package.json: keep walking up
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`ctrlrun-gen: cannot find the package's own package.json above ${from}`);
    dir = parent;
  }
}
