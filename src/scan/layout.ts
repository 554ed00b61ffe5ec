import path from 'node:path';
import { parseJsonc } from './jsonc.js';
import type { PackageInfo, RepoLayout, TsconfigInfo } from './links.js';
import { readJsonc, resolveWithReferences } from './tsconfig.js';
import { readRegularText } from '../safe-read.js';

/** Reads a package.json / tsconfig into the layout (a file that does not parse adds nothing). */
export function readLayout(files: readonly string[], configs: readonly string[], read: ConfigLayout = readConfigLayout(configs)): RepoLayout {
  return { files: new Set(files), ...read };
}

/** The layout's part the config files give (the same for every folder of one listed root). */
export type ConfigLayout = Pick<RepoLayout, 'packages' | 'tsconfigs'>;

/** Reads the package.json and tsconfig files (a file that does not parse, or holds no object, adds nothing). */
export function readConfigLayout(configs: readonly string[]): ConfigLayout {
  const packages: PackageInfo[] = [];
  const tsconfigs: TsconfigInfo[] = [];
  for (const file of configs) {
    let text: string;
    try {
      text = readRegularText(file);
    } catch {
      continue;
    }
    const dir = path.dirname(file);
    const json = parseJsonc(text) as Record<string, unknown> | undefined;
    // a top level that is no object (an array too) is refused by Node and TypeScript as a text that
    // does not parse is, and by the other readers of package.json: no package, no tsconfig
    if (!json || typeof json !== 'object' || Array.isArray(json)) continue;
    if (path.basename(file) === 'package.json') {
      const pkg: PackageInfo = { dir };
      if (typeof json['name'] === 'string') pkg.name = json['name'];
      if (json['imports'] !== undefined) pkg.imports = json['imports'];
      if (json['exports'] !== undefined) pkg.exports = json['exports'];
      if (typeof json['main'] === 'string') pkg.main = json['main'];
      if (typeof json['module'] === 'string') pkg.module = json['module'];
      packages.push(pkg);
    } else {
      // Only the tsconfig.json of a folder decides its aliases (tsconfig.build.json and friends extend it);
      // its `extends` chain is followed for `baseUrl` and `paths`, and its `references` when it has neither.
      if (path.basename(file) !== 'tsconfig.json' && path.basename(file) !== 'jsconfig.json') continue;
      const resolved = resolveWithReferences(file, (f) => (f === file ? json : undefined) ?? readJsonc(f));
      tsconfigs.push({
        dir,
        base: resolved.baseUrl ?? resolved.paths?.base ?? dir,
        hasBaseUrl: resolved.baseUrl !== undefined,
        paths: resolved.paths?.map ?? {},
      });
    }
  }
  return { packages, tsconfigs };
}
