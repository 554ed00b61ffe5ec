import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ts } from 'ts-morph';
import { typescript } from '../scan/typescript.js';

export interface ModuleSettings {
  /** The tsconfig the settings came from; undefined when none was found. */
  tsconfig?: string;
  /** How a relative import names a TypeScript file: `.js` suffix (Node16/NodeNext), the `.ts` itself, or no extension (bundler, node10). */
  extension: 'js' | 'ts' | 'none';
}

/** Reads module settings from the nearest tsconfig.json (or jsconfig.json), from `dir` up to `root`; cached per directory. */
export function createModuleSettingsLookup(root: string): (dir: string) => ModuleSettings {
  const byDir = new Map<string, ModuleSettings>();
  const byConfig = new Map<string, ModuleSettings>();
  const lookup = (dir: string): ModuleSettings => {
    const cached = byDir.get(dir);
    if (cached) return cached;
    let found: ModuleSettings | undefined;
    for (const name of ['tsconfig.json', 'jsconfig.json']) {
      const candidate = path.join(dir, name);
      if (existsSync(candidate)) {
        found = byConfig.get(candidate) ?? readSettings(candidate);
        byConfig.set(candidate, found);
        break;
      }
    }
    const parent = path.dirname(dir);
    const inside = !path.relative(root, dir).startsWith('..');
    if (!found) found = inside && parent !== dir && dir !== root ? lookup(parent) : { extension: 'js' };
    byDir.set(dir, found);
    return found;
  };
  return (dir) => lookup(path.resolve(dir));
}

function readSettings(configPath: string): ModuleSettings {
  const read = typescript.readConfigFile(configPath, typescript.sys.readFile);
  if (read.error) return { tsconfig: configPath, extension: 'js' };
  // No file enumeration: only the compiler options (extends included) matter here.
  const host: ts.ParseConfigHost = { ...typescript.sys, readDirectory: () => [] };
  const parsed = typescript.parseJsonConfigFileContent(read.config, host, path.dirname(configPath), undefined, configPath);
  return { tsconfig: configPath, extension: extensionFor(parsed.options) };
}

export function extensionFor(options: ts.CompilerOptions): ModuleSettings['extension'] {
  if (options.allowImportingTsExtensions) return 'ts';
  const mr = options.moduleResolution;
  if (mr === typescript.ModuleResolutionKind.Node16 || mr === typescript.ModuleResolutionKind.NodeNext) return 'js';
  if (mr !== undefined) return 'none';
  const m = options.module;
  if (m !== undefined && m >= typescript.ModuleKind.Node16 && m <= typescript.ModuleKind.NodeNext) return 'js';
  return 'none';
}

const JS_OF: Record<string, string> = { '.ts': '.js', '.tsx': '.js', '.mts': '.mjs', '.cts': '.cjs' };

/** The relative specifier from `fromFile` to `target` under the given settings: `./ctrlrun.generated.js`, `../ctrlrun.generated`. */
export function relativeSpecifier(fromFile: string, target: string, settings: ModuleSettings): string {
  let rel = path.relative(path.dirname(fromFile), target).split(path.sep).join('/');
  if (!rel.startsWith('.')) rel = `./${rel}`;
  const ext = path.extname(rel);
  const stem = rel.slice(0, rel.length - ext.length);
  if (settings.extension === 'ts') return rel;
  // Without extensions, only `.ts`/`.tsx`/`.js` are found by their stem: `.mts`/`.cts` keep their emitted `.mjs`/`.cjs`.
  if (settings.extension === 'none' && (ext === '.ts' || ext === '.tsx' || ext === '.js')) return stem;
  return stem + (JS_OF[ext] ?? ext);
}
