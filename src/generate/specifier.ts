/**
 * The relative import specifier from one source file to another, as the repo's TypeScript settings
 * want it: NodeNext/Node16 (and bundler) resolution needs the emitted extension (`./x.js` for
 * `x.ts`); classic/node10 resolution writes it without one; `allowImportingTsExtensions` keeps `.ts`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ts } from 'ts-morph';

export type ExtensionStyle = 'js' | 'ts' | 'none';

/** Reads the nearest tsconfig.json from `dir` upward (stopping at `root`) and decides the style. */
export function extensionStyleFor(dir: string, root: string): ExtensionStyle {
  const configPath = findTsconfig(dir, root);
  if (!configPath) return 'js';
  const read = ts.readConfigFile(configPath, (p) => ts.sys.readFile(p));
  if (read.error || !read.config) return 'js';
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(configPath), undefined, configPath);
  return styleOf(parsed.options);
}

export function styleOf(options: ts.CompilerOptions): ExtensionStyle {
  if (options.allowImportingTsExtensions) return 'ts';
  const resolution = options.moduleResolution ?? impliedResolution(options.module);
  if (resolution === ts.ModuleResolutionKind.Node10 || resolution === ts.ModuleResolutionKind.Classic) return 'none';
  return 'js';
}

function impliedResolution(module: ts.ModuleKind | undefined): ts.ModuleResolutionKind | undefined {
  if (module === undefined) return undefined;
  if (module === ts.ModuleKind.CommonJS || module === ts.ModuleKind.AMD || module === ts.ModuleKind.UMD || module === ts.ModuleKind.System) {
    return ts.ModuleResolutionKind.Node10;
  }
  return undefined;
}

function findTsconfig(dir: string, root: string): string | undefined {
  let current = path.resolve(dir);
  const stop = path.resolve(root);
  for (;;) {
    const candidate = path.join(current, 'tsconfig.json');
    if (existsSync(candidate)) return candidate;
    if (current === stop) return undefined;
    const parent = path.dirname(current);
    if (parent === current || !current.startsWith(stop)) return undefined;
    current = parent;
  }
}

const EMITTED: Record<string, string> = { '.ts': '.js', '.tsx': '.js', '.mts': '.mjs', '.cts': '.cjs', '.js': '.js', '.jsx': '.js', '.mjs': '.mjs', '.cjs': '.cjs' };

/** `./ctrlrun.control.js` for `from = src/ctrlrun.generated.ts`, `to = src/ctrlrun.control.ts` (NodeNext). */
export function relativeSpecifier(from: string, to: string, style: ExtensionStyle): string {
  const ext = path.extname(to);
  let target = path.relative(path.dirname(from), to).split(path.sep).join('/');
  if (!target.startsWith('.')) target = `./${target}`;
  const stem = target.slice(0, target.length - ext.length);
  if (style === 'ts') return target;
  if (style === 'none') return ext === '.ts' || ext === '.tsx' || ext === '.js' || ext === '.jsx' ? stem : `${stem}${EMITTED[ext] ?? ext}`;
  return `${stem}${EMITTED[ext] ?? ext}`;
}
