import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ts } from 'ts-morph';
import { denoConfigIn } from './deno-import-map.js';
import { listSourceFilesSync } from './list.js';
import { type NodeRunsTs, nodeRunsTs, unloadableImportError } from './node-runs-ts.js';
import { buildConfigs } from './tsc-build.js';
import { readConfigText } from './tsconfig.js';
import { typescript } from './typescript.js';
import { readRegularText } from '../safe-read.js';

export interface ModuleSettings {
  /** The tsconfig the settings came from; undefined when none was found. */
  tsconfig?: string;
  /**
   * The `deno.json` (or `deno.jsonc`) the settings came from: Deno runs the files below it and
   * finds a relative import only by the file's own name (`.ts`), whatever a tsconfig says.
   */
  deno?: string;
  /** How a relative import names a TypeScript file: `.js` suffix (Node16/NodeNext), the `.ts` itself, or no extension (bundler, node10). */
  extension: Extension;
  /**
   * Set when a script that runs the package (`start`, `dev`, …: `RUN_SCRIPTS`) has Node run
   * TypeScript as it is (`node src/main.ts`) and `extension` is not `ts`: Node would not load
   * the import written, and tsc refuses the `.ts` name. Whoever writes such an import refuses
   * instead (`unloadableImportError`).
   */
  nodeRunsTs?: NodeRunsTs;
}

type Extension = 'js' | 'ts' | 'none';

/** A config's settings and every extension its resolution accepts on a relative import of a TypeScript file. */
interface ConfigSettings {
  settings: ModuleSettings;
  accepts: ReadonlySet<Extension>;
}

/**
 * Reads module settings from the nearest tsconfig.json (or jsconfig.json), from `dir` up to `root`;
 * cached per directory. With no config at all, the repo's own relative imports decide (see
 * `settingsWithoutConfig`). When the package's build script compiles with another config
 * (`tsc -p tsconfig.build.json`), the extension is one both configs accept. When the package's
 * start or dev script (`RUN_SCRIPTS`) has Node run TypeScript as it is, only the `.ts` name loads:
 * chosen when no config says otherwise, else `nodeRunsTs` is set. `readText`: a listed file's text
 * (default: read from disk; check hands the bytes it has read already).
 */
export function createModuleSettingsLookup(
  root: string,
  listing?: readonly string[],
  readText: (file: string) => string = readRegularText,
): (dir: string) => ModuleSettings {
  const byDir = new Map<string, ModuleSettings>();
  const byConfig = new Map<string, ModuleSettings | undefined>();
  let withoutConfig: ModuleSettings | undefined;
  const fallback = (): ModuleSettings => (withoutConfig ??= settingsWithoutConfig(root, listing, readText));
  const lookup = (dir: string): ModuleSettings => {
    const cached = byDir.get(dir);
    if (cached) return cached;
    let found: ModuleSettings | undefined = denoSettings(dir);
    for (const name of found ? [] : ['tsconfig.json', 'jsconfig.json']) {
      const candidate = path.join(dir, name);
      if (existsSync(candidate)) {
        found = byConfig.has(candidate) ? byConfig.get(candidate) : withBuildConfig(candidate);
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
  const withNode = new Map<string, ModuleSettings>();
  return (dir) => {
    const at = path.resolve(dir);
    if (!withNode.has(at)) withNode.set(at, underNode(lookup(at), packageDirOf(at, root)));
    return withNode.get(at)!;
  };
}

/** A folder with a Deno config: the nearest decides, before a tsconfig of the same folder (Deno reads none). */
function denoSettings(dir: string): ModuleSettings | undefined {
  const config = denoConfigIn(dir);
  return config === undefined ? undefined : { extension: 'ts', deno: config };
}

/** The settings once the package's scripts are known: Node running TypeScript loads only the `.ts` name. */
function underNode(settings: ModuleSettings, packageDir: string | undefined): ModuleSettings {
  const runs = settings.extension === 'ts' || packageDir === undefined ? undefined : nodeRunsTs(packageDir);
  if (!runs) return settings;
  // no tsconfig: no tsc to refuse the `.ts` name
  return settings.tsconfig === undefined ? { ...settings, extension: 'ts' } : { ...settings, nodeRunsTs: runs };
}

/** The nearest folder with a package.json at or above `dir`, not above `root`. */
function packageDirOf(dir: string, root: string): string | undefined {
  for (let current = dir; ; current = path.dirname(current)) {
    if (existsSync(path.join(current, 'package.json'))) return current;
    if (current === path.resolve(root) || path.dirname(current) === current || path.relative(root, current).startsWith('..')) return undefined;
  }
}

/**
 * A tsconfig.json's settings, agreed with those of the config its package's build script hands tsc
 * (`tsc -p tsconfig.build.json`, which may turn `allowImportingTsExtensions` off). When they differ,
 * an extension both accept: the build's, the type check's, else `.js` (every resolution maps it to
 * the TypeScript file, and Node loads the built file by it); no extension only when nothing else is.
 */
function withBuildConfig(configPath: string): ModuleSettings | undefined {
  const own = readSettings(configPath);
  if (!own || path.basename(configPath) !== 'tsconfig.json') return own?.settings;
  const named = buildConfigs(path.dirname(configPath));
  const other = named.length === 1 && path.resolve(named[0]!) !== path.resolve(configPath) && named[0]!.endsWith('.json') ? named[0]! : undefined;
  const build = other && existsSync(other) ? readSettings(other) : undefined;
  if (!build) return own.settings;
  if (build.settings.extension === own.settings.extension) return own.settings;
  const both = (e: Extension) => own.accepts.has(e) && build.accepts.has(e);
  // the build writes JavaScript that Node may load: a named extension before none, which loads only through a bundler
  const extension = ([build.settings.extension, own.settings.extension, 'js', 'none'] as const).find((e) => e !== 'none' && both(e)) ?? 'none';
  return { tsconfig: other!, extension };
}

/**
 * The settings of one config; undefined for a solution config (`"files": []` with `references`, what
 * `tsc -b` starts from): it compiles nothing itself, so its options say nothing about a file's imports.
 */
function readSettings(configPath: string): ConfigSettings | undefined {
  const read = typescript.readConfigFile(configPath, readConfigText);
  if (read.error) return { settings: { tsconfig: configPath, extension: 'js' }, accepts: new Set(['js']) };
  if (isSolutionConfig(read.config)) return undefined;
  // No file enumeration: only the compiler options (extends included) matter here.
  const host: ts.ParseConfigHost = { ...typescript.sys, readFile: readConfigText, readDirectory: () => [] };
  const parsed = typescript.parseJsonConfigFileContent(read.config, host, path.dirname(configPath), undefined, configPath);
  const extension = extensionFor(parsed.options);
  const base = extensionFor({ ...parsed.options, allowImportingTsExtensions: false, rewriteRelativeImportExtensions: false });
  // `.js` names the TypeScript file under every resolution; no extension only under bundler and node10
  const accepts = new Set<Extension>([extension, 'js', ...(base === 'none' ? (['none'] as const) : [])]);
  return { settings: { tsconfig: configPath, extension }, accepts };
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
export function settingsWithoutConfig(root: string, listing?: readonly string[], readText: (file: string) => string = readRegularText): ModuleSettings {
  let files: string[];
  try {
    // `listing`: the repo's files as `listSourceFilesSync({ root })` lists them, when a scan has them already (check)
    files = (listing ?? listSourceFilesSync({ root })).filter((f) => /\.[mc]?tsx?$/.test(f) && !f.endsWith('.d.ts'));
  } catch {
    return { extension: 'js' };
  }
  const counts = { ts: 0, js: 0 };
  for (const file of files.slice(0, EVIDENCE_FILES)) {
    let text: string;
    try {
      text = readText(file);
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

/**
 * Refuses (throws `unloadableImportError`) to write an import into the TypeScript file `importer`
 * when Node, running the app's TypeScript as it is, could not load it (`settings.nodeRunsTs`): one
 * check for init, generate and the codemod, which all write our imports. `what` names the command.
 */
export function assertImportLoads(settings: ModuleSettings, importer: string, what: string, cwd: string): void {
  if (settings.nodeRunsTs && /\.[cm]?tsx?$/.test(importer)) throw unloadableImportError(settings.nodeRunsTs, settings, what, cwd);
}

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
