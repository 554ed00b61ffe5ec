/**
 * The census's view of an installed SDK (issue 35): every function and class each `@openai/agents*`
 * package exports, from every subpath of its `exports` map, loaded for real; and the functions held
 * by exported plain objects (`retryPolicies.never`, `Capabilities.default`) that are not exported
 * by name themselves. `sdkDir` is an installed `@openai/agents` package directory (node_modules'
 * own, or one `.ci/sdk-range` installed); the other packages are found as Node finds them from
 * there (its own node_modules, then the folders above).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export type ExportKind = 'function' | 'class' | 'error-class';

export interface CensusExport {
  /** `tool`, or `retryPolicies.never` for a function an exported plain object holds. */
  name: string;
  kind: ExportKind;
  /** Every specifier that exports it (`@openai/agents`, `@openai/agents-core/sandbox`, ...). */
  entries: string[];
}

export interface InstalledCensus {
  /** `@openai/agents` → its version, for the four packages. */
  versions: Record<string, string>;
  /** Every specifier, loaded or not. */
  specifiers: string[];
  /** Specifiers that did not load, with the reason (a census that cannot look cannot pass). */
  failed: Record<string, string>;
  exports: Map<string, CensusExport>;
}

export const SDK_PACKAGES = ['@openai/agents', '@openai/agents-core', '@openai/agents-openai', '@openai/agents-realtime'] as const;

/** The folder of package `name` as Node resolves it from `fromDir` (its node_modules, then each folder above). */
export function packageDirFrom(fromDir: string, name: string): string | undefined {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** The ESM file of an `exports` entry (a path, or conditions: `import`, then `default`, then `node`, nested). */
function esmFile(entry: unknown): string | undefined {
  if (typeof entry === 'string') return entry;
  if (typeof entry !== 'object' || entry === null) return undefined;
  const c = entry as Record<string, unknown>;
  return esmFile(c['import'] ?? c['default'] ?? c['node']);
}

interface PackageJson {
  version: string;
  exports?: Record<string, unknown> | string;
  module?: string;
  main?: string;
}

/** Each public specifier of a package and the file it loads (wildcard and package.json keys left out). */
function entryFiles(dir: string, name: string, pkg: PackageJson): Array<{ specifier: string; file: string | undefined }> {
  const exp = pkg.exports;
  if (!exp || typeof exp === 'string' || Object.keys(exp).every((k) => !k.startsWith('.'))) {
    const file = typeof exp === 'string' ? exp : exp ? esmFile(exp) : (pkg.module ?? pkg.main);
    return [{ specifier: name, file: file ? path.join(dir, file) : undefined }];
  }
  return Object.entries(exp)
    .filter(([k]) => k.startsWith('.') && !k.includes('*') && !k.endsWith('package.json'))
    .map(([k, v]) => {
      const file = esmFile(v);
      return { specifier: k === '.' ? name : `${name}/${k.slice(2)}`, file: file ? path.join(dir, file) : undefined };
    });
}

function kindOf(value: (...args: never[]) => unknown): ExportKind {
  if (value.prototype instanceof Error) return 'error-class';
  return /^class\b/.test(Function.prototype.toString.call(value)) ? 'class' : 'function';
}

/** A plain object (not a module namespace, an array, a class instance or a zod schema): its functions are part of the surface. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  if ((value as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] === 'Module') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export async function censusOf(sdkDir: string): Promise<InstalledCensus> {
  const versions: Record<string, string> = {};
  const specifiers: string[] = [];
  const failed: Record<string, string> = {};
  const modules: Array<[string, Record<string, unknown>]> = [];
  for (const name of SDK_PACKAGES) {
    const dir = name === '@openai/agents' ? sdkDir : packageDirFrom(sdkDir, name);
    if (!dir) {
      failed[name] = 'not installed next to @openai/agents';
      continue;
    }
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as PackageJson;
    versions[name] = pkg.version;
    for (const { specifier, file } of entryFiles(dir, name, pkg)) {
      specifiers.push(specifier);
      if (!file) {
        failed[specifier] = 'no ESM file in its exports entry';
        continue;
      }
      try {
        modules.push([specifier, (await import(pathToFileURL(file).href)) as Record<string, unknown>]);
      } catch (error) {
        failed[specifier] = (error as Error).message.split('\n')[0] ?? 'failed';
      }
    }
  }
  const exports = new Map<string, CensusExport>();
  const named = new Set<unknown>();
  const add = (name: string, value: (...args: never[]) => unknown, specifier: string) => {
    const known = exports.get(name);
    if (known) {
      if (!known.entries.includes(specifier)) known.entries.push(specifier);
    } else exports.set(name, { name, kind: kindOf(value), entries: [specifier] });
  };
  for (const [specifier, mod] of modules) {
    for (const [key, value] of Object.entries(mod)) {
      if (typeof value !== 'function') continue;
      named.add(value);
      add(key, value as (...args: never[]) => unknown, specifier);
    }
  }
  // functions reachable only as members of an exported plain object
  for (const [specifier, mod] of modules) {
    for (const [key, value] of Object.entries(mod)) {
      if (!isPlainObject(value)) continue;
      for (const [member, fn] of Object.entries(value)) {
        if (typeof fn === 'function' && !named.has(fn)) add(`${key}.${member}`, fn as (...args: never[]) => unknown, specifier);
      }
    }
  }
  return { versions, specifiers, failed, exports };
}
