import { existsSync } from 'node:fs';
import path from 'node:path';

/** How init's files start: `# yaml-language-server: $schema=./node_modules/ctrlrun-gen/<schema>.json`. */
const SCHEMA_LINE = /^(# yaml-language-server: \$schema=)\.\/node_modules\/ctrlrun-gen\//m;

/**
 * The folder an editor reads ctrlrun-gen's JSON Schemas from, seen from a package's folder: the
 * installed copy Node's resolution finds (a workspace hoists it to the root's `node_modules`, where
 * `./node_modules/ctrlrun-gen` beside the package does not exist), else `./node_modules/ctrlrun-gen/`.
 * Walked, not `require.resolve`d: that gives the realpath, which pnpm puts under a versioned
 * `.pnpm/` folder, so the committed line would go stale on the next upgrade.
 */
export function schemaBase(dir: string): string {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const installed = path.join(d, 'node_modules', 'ctrlrun-gen');
    if (existsSync(path.join(installed, 'policy.schema.json'))) {
      const rel = path.relative(path.resolve(dir), installed).split(path.sep).join('/');
      return rel.startsWith('../') ? `${rel}/` : `./${rel}/`;
    }
    if (path.dirname(d) === d) return './node_modules/ctrlrun-gen/';
  }
}

/** `text` with its schema line pointing into `base` (text without the line is returned as it is). */
export function withSchemaBase(text: string, base: string): string {
  return text.replace(SCHEMA_LINE, (_, head: string) => `${head}${base}`);
}
