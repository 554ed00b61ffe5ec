import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseJsonc } from './jsonc.js';
import { decodeSource } from './decode.js';
import { readRegularFile, readRegularText } from '../safe-read.js';

/**
 * A tsconfig's module-resolution settings as TypeScript sees them, `extends` chains followed:
 * relative and package specifiers, a string or an array (later entries win), cycles stopped.
 * A base's `baseUrl` is relative to the base; `paths` without a `baseUrl` are relative to the
 * config that declares them (TypeScript 4.1+). A file that is missing or does not parse adds nothing.
 */
export interface ResolvedTsconfig {
  /** Absolute baseUrl, when one is set in the chain. */
  baseUrl?: string;
  /** The `paths` map in force, and the directory its targets are relative to. */
  paths?: { map: Record<string, string[]>; base: string };
}

/**
 * A config file's text for the compiler's config reader (`readConfigFile`, a parse host's `readFile`)
 * in place of `ts.sys.readFile`: a FIFO or device named tsconfig.json is undefined (unreadable) instead
 * of a read that waits for a writer forever; UTF-8 and UTF-16 with a byte-order mark, as tsc reads.
 */
export function readConfigText(file: string): string | undefined {
  try {
    const decoded = decodeSource(readRegularFile(file));
    return 'error' in decoded ? undefined : decoded.text;
  } catch {
    return undefined;
  }
}

type ReadJson = (file: string) => Record<string, unknown> | undefined;

/** A JSON-with-comments file as an object; undefined when it is missing or does not parse. */
export const readJsonc: ReadJson = (file) => {
  try {
    const json = parseJsonc(readRegularText(file));
    return json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

export function resolveTsconfig(file: string, readJson: ReadJson = readJsonc, seen: Set<string> = new Set()): ResolvedTsconfig {
  const abs = path.resolve(file);
  if (seen.has(abs)) return {};
  seen.add(abs);
  const json = readJson(abs);
  if (!json) return {};
  const dir = path.dirname(abs);
  let out: ResolvedTsconfig = {};
  const bases = typeof json['extends'] === 'string' ? [json['extends']] : Array.isArray(json['extends']) ? json['extends'] : [];
  for (const spec of bases) {
    if (typeof spec !== 'string') continue;
    const baseFile = extendsTarget(spec, dir);
    if (baseFile) out = merge(out, resolveTsconfig(baseFile, readJson, seen));
  }
  const opts = json['compilerOptions'];
  if (opts && typeof opts === 'object') {
    const o = opts as Record<string, unknown>;
    const own: ResolvedTsconfig = {};
    if (typeof o['baseUrl'] === 'string') own.baseUrl = path.resolve(dir, o['baseUrl']);
    if (o['paths'] && typeof o['paths'] === 'object' && !Array.isArray(o['paths'])) {
      const map = Object.fromEntries(Object.entries(o['paths'] as Record<string, unknown>).filter((e): e is [string, string[]] => Array.isArray(e[1])));
      own.paths = { map, base: dir };
    }
    out = merge(out, own);
  }
  return out;
}

/** How many referenced configs a solution-style tsconfig is read through (one level, as `tsc -b` builds them). */
const MAX_REFERENCES = 16;

/**
 * A folder's aliases when its tsconfig.json declares none but `references` other configs (Vite's
 * templates: `files: []`, `references: [tsconfig.app.json, tsconfig.node.json]`, the options in the
 * first): each referenced project's own `paths`, targets made absolute so one map holds them all
 * (an earlier reference wins a key), and the first `baseUrl`. One level, at most MAX_REFERENCES.
 */
export function resolveWithReferences(file: string, readJson: ReadJson = readJsonc): ResolvedTsconfig {
  const own = resolveTsconfig(file, readJson);
  const refs = readJson(path.resolve(file))?.['references'];
  if (own.paths !== undefined || own.baseUrl !== undefined || !Array.isArray(refs)) return own;
  const dir = path.dirname(path.resolve(file));
  const out: ResolvedTsconfig = {};
  const map: Record<string, string[]> = {};
  for (const ref of refs.slice(0, MAX_REFERENCES)) {
    const spec = ref && typeof ref === 'object' ? (ref as Record<string, unknown>)['path'] : undefined;
    if (typeof spec !== 'string') continue;
    const target = path.resolve(dir, spec);
    // a reference names a config file or a folder holding tsconfig.json
    const refFile = target.endsWith('.json') ? target : path.join(target, 'tsconfig.json');
    const theirs = resolveTsconfig(refFile, readJson);
    if (out.baseUrl === undefined && theirs.baseUrl !== undefined) out.baseUrl = theirs.baseUrl;
    const base = theirs.baseUrl ?? theirs.paths?.base;
    for (const [key, targets] of Object.entries(theirs.paths?.map ?? {}))
      if (!(key in map) && base !== undefined) map[key] = targets.map((t) => path.resolve(base, t));
  }
  if (Object.keys(map).length > 0) out.paths = { map, base: dir };
  return out;
}

/** `b` overrides `a` option by option, as `extends` does. */
function merge(a: ResolvedTsconfig, b: ResolvedTsconfig): ResolvedTsconfig {
  const out: ResolvedTsconfig = { ...a };
  if (b.baseUrl !== undefined) out.baseUrl = b.baseUrl;
  if (b.paths !== undefined) out.paths = b.paths;
  return out;
}

/** The file an `extends` specifier names: relative/absolute (`.json` optional) or a package's. */
export function extendsTarget(spec: string, fromDir: string): string | undefined {
  const isFile = (f: string) => {
    try {
      return statSync(f).isFile();
    } catch {
      return false;
    }
  };
  if (spec.startsWith('.') || path.isAbsolute(spec)) {
    const f = path.resolve(fromDir, spec);
    return [f, `${f}.json`].find(isFile);
  }
  // A package: node_modules folders up the tree; `pkg` → its package.json `tsconfig` field or
  // tsconfig.json; `pkg/sub` → that file (`.json` optional) or `pkg/sub/tsconfig.json`.
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const base = path.join(dir, 'node_modules', spec);
    if (existsSync(base) || existsSync(`${base}.json`)) {
      const parts = spec.startsWith('@') ? 2 : 1;
      const isBare = spec.split('/').length === parts;
      if (isBare) {
        const pkg = readJsonc(path.join(base, 'package.json'));
        const field = pkg && typeof pkg['tsconfig'] === 'string' ? path.join(base, pkg['tsconfig']) : undefined;
        const found = [field, path.join(base, 'tsconfig.json')].find((f) => f !== undefined && isFile(f));
        if (found) return found;
      } else {
        const found = [base, `${base}.json`, path.join(base, 'tsconfig.json')].find(isFile);
        if (found) return found;
      }
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** The line and column of `"key"` in a config's text; 1:1 when it is not there (inherited through `extends`, or unreadable). */
export function locateKey(file: string, key: string): { line: number; column: number } {
  let text = '';
  try {
    text = readRegularText(file);
  } catch {
    return { line: 1, column: 1 };
  }
  const at = text.indexOf(`"${key}"`);
  if (at < 0) return { line: 1, column: 1 };
  const before = text.slice(0, at).split('\n');
  return { line: before.length, column: before.at(-1)!.length + 1 };
}
