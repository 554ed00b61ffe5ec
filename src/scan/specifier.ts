import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ts } from 'ts-morph';
import { listSourceFilesSync } from './list.js';
import { typescript } from './typescript.js';

export interface ModuleSettings {
  /** The tsconfig the settings came from; undefined when none was found. */
  tsconfig?: string;
  /** How a relative import names a TypeScript file: `.js` suffix (Node16/NodeNext), the `.ts` itself, or no extension (bundler, node10). */
  extension: 'js' | 'ts' | 'none';
}

/**
 * Reads module settings from the nearest tsconfig.json (or jsconfig.json), from `dir` up to `root`;
 * cached per directory. With no config at all, the repo's own relative imports decide (see
 * `settingsWithoutConfig`).
 */
export function createModuleSettingsLookup(root: string): (dir: string) => ModuleSettings {
  const byDir = new Map<string, ModuleSettings>();
  const byConfig = new Map<string, ModuleSettings | undefined>();
  let withoutConfig: ModuleSettings | undefined;
  const fallback = (): ModuleSettings => (withoutConfig ??= settingsWithoutConfig(root));
  const lookup = (dir: string): ModuleSettings => {
    const cached = byDir.get(dir);
    if (cached) return cached;
    let found: ModuleSettings | undefined;
    for (const name of ['tsconfig.json', 'jsconfig.json']) {
      const candidate = path.join(dir, name);
      if (existsSync(candidate)) {
        found = byConfig.has(candidate) ? byConfig.get(candidate) : readSettings(candidate);
        byConfig.set(candidate, found);
        if (found) break;
      }
    }
    const parent = path.dirname(dir);
    const inside = !path.relative(root, dir).startsWith('..');
    if (!found) found = inside && parent !== dir && dir !== root ? lookup(parent) : fallback();
    byDir.set(dir, found);
    return found;
  };
  return (dir) => lookup(path.resolve(dir));
}

/**
 * The settings of one config; undefined for a solution config (`"files": []` with `references`, what
 * `tsc -b` starts from): it compiles nothing itself, so its options say nothing about a file's imports.
 */
function readSettings(configPath: string): ModuleSettings | undefined {
  const read = typescript.readConfigFile(configPath, typescript.sys.readFile);
  if (read.error) return { tsconfig: configPath, extension: 'js' };
  if (isSolutionConfig(read.config)) return undefined;
  // No file enumeration: only the compiler options (extends included) matter here.
  const host: ts.ParseConfigHost = { ...typescript.sys, readDirectory: () => [] };
  const parsed = typescript.parseJsonConfigFileContent(read.config, host, path.dirname(configPath), undefined, configPath);
  return { tsconfig: configPath, extension: extensionFor(parsed.options) };
}

/** `"files": []` (and no `include`) with `references`: a config that only lists projects for `tsc -b`. */
export function isSolutionConfig(config: unknown): boolean {
  const c = config as { files?: unknown; include?: unknown; references?: unknown } | undefined;
  return Array.isArray(c?.files) && c.files.length === 0 && c.include === undefined && Array.isArray(c.references) && c.references.length > 0;
}

export function extensionFor(options: ts.CompilerOptions): ModuleSettings['extension'] {
  if (options.allowImportingTsExtensions || options.rewriteRelativeImportExtensions) return 'ts';
  const mr = options.moduleResolution;
  if (mr === typescript.ModuleResolutionKind.Node16 || mr === typescript.ModuleResolutionKind.NodeNext) return 'js';
  if (mr !== undefined) return 'none';
  const m = options.module;
  if (m !== undefined && m >= typescript.ModuleKind.Node16 && m <= typescript.ModuleKind.NodeNext) return 'js';
  return 'none';
}

/** At most this many TypeScript files are read to learn how a repo without a tsconfig writes its imports. */
const EVIDENCE_FILES = 200;
const RELATIVE_SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"](\.\.?\/[^'"\n]+)['"]/g;

/**
 * A TypeScript repo with no tsconfig.json is not compiled by tsc: Node (type stripping), Deno or
 * Bun run its files as they are, and Node and Deno find a relative import only by the file's own
 * name (`./env.ts`), never by the `.js` that tsc would emit. So the repo's own relative imports
 * decide: when its TypeScript files name TypeScript files (`.ts`, `.tsx`, `.mts`, `.cts`) at least
 * as often as emitted ones (`.js`, `.mjs`, `.cjs`), the added imports do too; otherwise `.js`, as
 * before (tsx and ts-node map it to the `.ts` file).
 */
export function settingsWithoutConfig(root: string): ModuleSettings {
  let files: string[];
  try {
    files = listSourceFilesSync({ root }).filter((f) => /\.[mc]?tsx?$/.test(f) && !f.endsWith('.d.ts'));
  } catch {
    return { extension: 'js' };
  }
  const counts = { ts: 0, js: 0 };
  for (const file of files.slice(0, EVIDENCE_FILES)) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const m of text.matchAll(RELATIVE_SPECIFIER)) countSpecifier(m[1] ?? '', counts);
  }
  return { extension: counts.ts > 0 && counts.ts >= counts.js ? 'ts' : 'js' };
}

function countSpecifier(specifier: string, counts: { ts: number; js: number }): void {
  if (/\.[mc]?tsx?$/.test(specifier) && !specifier.endsWith('.d.ts')) counts.ts++;
  else if (/\.[mc]?jsx?$/.test(specifier)) counts.js++;
}

const JS_OF: Record<string, string> = { '.ts': '.js', '.tsx': '.js', '.mts': '.mjs', '.cts': '.cjs' };

/** The relative specifier from `fromFile` to `target` under the given settings: `./ctrlrun.generated.js`, `../ctrlrun.generated`. */
export function relativeSpecifier(fromFile: string, target: string, settings: ModuleSettings): string {
  let rel = path.relative(path.dirname(fromFile), target).split(path.sep).join('/');
  if (!rel.startsWith('.')) rel = `./${rel}`;
  const ext = path.extname(rel);
  const stem = rel.slice(0, rel.length - ext.length);
  // Plain JavaScript importing a JavaScript module names the file itself: Node's ES loader finds nothing else, whatever a tsconfig says.
  if (/\.(?:js|mjs|cjs|jsx)$/.test(fromFile) && /^\.(?:js|mjs|cjs)$/.test(ext)) return rel;
  if (settings.extension === 'ts') return rel;
  // Without extensions, only `.ts`/`.tsx`/`.js` are found by their stem: `.mts`/`.cts` keep their emitted `.mjs`/`.cjs`.
  if (settings.extension === 'none' && (ext === '.ts' || ext === '.tsx' || ext === '.js')) return stem;
  return stem + (JS_OF[ext] ?? ext);
}
