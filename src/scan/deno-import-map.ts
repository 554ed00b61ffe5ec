import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseJsoncObject } from './jsonc.js';

/**
 * A Deno app's import map (issue 40 item 4): the `"imports"` of the nearest `deno.json` or
 * `deno.jsonc` (Deno reads both as JSON with comments and trailing commas), and of the file its
 * `"importMap"` names. An import of `@openai/agents` there may load `npm:@openai/agents@0.3.1`: the
 * version the map pins is the one that runs.
 */

/** The Deno configs, in the order Deno looks for them in one folder. */
const DENO_CONFIGS = ['deno.json', 'deno.jsonc'] as const;

/** One map read: where it came from and its entries (specifier or prefix → target). */
export interface ImportMap {
  /** The file the entries are written in (absolute): the config, or the map it names. */
  file: string;
  imports: ReadonlyMap<string, string>;
}

/** A config or map that could not be read as one: where, and why. */
export interface ImportMapProblem {
  file: string;
  line: number;
  column: number;
  message: string;
}

export interface DenoImportMaps {
  config: string;
  maps: ImportMap[];
  problems: ImportMapProblem[];
}

export interface ConfigIo {
  exists(file: string): boolean;
  /** The file's text, undefined when it cannot be read. */
  read(file: string): string | undefined;
}

/** The Deno config of one folder (`deno.json` before `deno.jsonc`); undefined when it has none. */
export function denoConfigIn(dir: string, exists: (file: string) => boolean = existsSync): string | undefined {
  for (const name of DENO_CONFIGS) {
    const file = path.join(dir, name);
    if (isDenoConfig(file, exists)) return file;
  }
  return undefined;
}

/**
 * The Deno config of the nearest folder at or above `dir`, no higher than `root`, that has one: the
 * scanner's one walk for it (the codemod's module settings, check's import maps and its generated
 * import). `stop`: a folder, without a Deno config, where the walk ends (a tsconfig nearer than
 * any Deno config decides instead).
 */
export function nearestDenoConfig(
  dir: string,
  root: string,
  exists: (file: string) => boolean = existsSync,
  stop?: (dir: string) => boolean,
): string | undefined {
  for (let at = dir; !path.relative(root, at).startsWith('..'); at = path.dirname(at)) {
    const config = denoConfigIn(at, exists);
    if (config !== undefined) return config;
    if (stop?.(at) || path.dirname(at) === at) return undefined;
  }
  return undefined;
}

/**
 * `file` (a `deno.json` or `deno.jsonc` path) is there and no folder: a folder of that name is no
 * config Deno reads (issue 40, item 1: it made a Node app's `.js` import a Deno error). `exists`:
 * the file system's answer, or a test's.
 */
export function isDenoConfig(file: string, exists: (file: string) => boolean = existsSync): boolean {
  if (!exists(file)) return false;
  try {
    return !statSync(file).isDirectory();
  } catch {
    // a test's file that is not on disk, or a link loop: taken as a config, as the name says
    return true;
  }
}

/**
 * The import maps a Deno config gives: its own `"imports"`, and those of the file its
 * `"importMap"` names (both read: which one Deno takes depends on its version, and a pin in
 * either may be the one that runs). A remote `"importMap"` is not fetched.
 */
export function readDenoImportMaps(config: string, io: ConfigIo): DenoImportMaps {
  const out: DenoImportMaps = { config, maps: [], problems: [] };
  const parsed = readConfig(config, io, out.problems);
  if (!parsed) return out;
  const own = importsOf(parsed, config, out.problems);
  if (own) out.maps.push(own);
  const named = parsed['importMap'];
  if (typeof named === 'string' && !/^[a-z][a-z0-9+.-]*:/i.test(named)) {
    const file = path.resolve(path.dirname(config), named);
    const map = readConfig(file, io, out.problems, config);
    const entries = map && importsOf(map, file, out.problems);
    if (entries) out.maps.push(entries);
  }
  return out;
}

/**
 * What an import map makes of `specifier`: an exact key, else the longest key ending in `/` that
 * starts it (its target then ends with the rest). Undefined when no key matches.
 */
export function mappedSpecifier(specifier: string, imports: ReadonlyMap<string, string>): string | undefined {
  const exact = imports.get(specifier);
  if (exact !== undefined) return exact;
  let best: string | undefined;
  for (const key of imports.keys()) {
    if (key.endsWith('/') && specifier.startsWith(key) && (best === undefined || key.length > best.length)) best = key;
  }
  return best === undefined ? undefined : `${imports.get(best)!}${specifier.slice(best.length)}`;
}

/** The file parsed as JSON with comments; a problem (located) when it is missing or is no JSON object. */
function readConfig(file: string, io: ConfigIo, problems: ImportMapProblem[], namedBy?: string): Record<string, unknown> | undefined {
  const text = io.exists(file) ? io.read(file) : undefined;
  if (text === undefined) {
    const by = namedBy ?? file;
    problems.push({ file: by, line: 1, column: 1, message: `names an import map (\`${path.basename(file)}\`) that cannot be read` });
    return undefined;
  }
  const { value, error } = parseJsoncObject(file, text);
  if (error) {
    // the compiler's words for a root that is no object name tsconfig.json: say it plainly
    const message = error.rootNotObject ? 'is not a JSON object at its top level' : `does not parse (${error.reason})`;
    problems.push({ file, line: error.line, column: error.column, message });
    return undefined;
  }
  return value;
}

/** The `"imports"` object's string entries; a problem when it is there but not an object. */
function importsOf(json: Record<string, unknown>, file: string, problems: ImportMapProblem[]): ImportMap | undefined {
  const imports = json['imports'];
  if (imports === undefined) return undefined;
  if (typeof imports !== 'object' || imports === null || Array.isArray(imports)) {
    problems.push({ file, line: 1, column: 1, message: 'has an "imports" that is not an object' });
    return undefined;
  }
  const entries = new Map<string, string>();
  for (const [key, value] of Object.entries(imports)) if (typeof value === 'string') entries.set(key, value);
  return { file, imports: entries };
}
