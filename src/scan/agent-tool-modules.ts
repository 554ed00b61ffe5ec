import path from 'node:path';
import type { ts } from 'ts-morph';
import { memberPath } from './file/agent-tool-exports.js';
import { reexported } from './imported-door-writes.js';
import { typescript } from './typescript.js';
import { resolveSpecifier, type RepoLayout } from './links.js';
import { isSourceFile } from './source-files.js';
import type { FileScan } from './types.js';

// A tool handed to an agent from a module naming neither the SDK nor the generated module (issue 40
// item 4): the agents' files keep the imports their `tools` name (file/agent-tool-exports.ts); here
// each such module is scanned again with the names read from it, so a literal door there whose
// `type` check cannot read is reported (fail closed), as it is in a file using the SDK. A module
// using the SDK is scanned again only when it may hold a function tool `{ type: KIND, invoke }`,
// which is reported only where an agent is handed it. A name the agent's file calls for its tools
// (`tools: makeTools()`) is read as `name()`: what the function returns is handed.

export interface AgentToolSearch {
  root: string;
  layout: RepoLayout;
  /** The app's scans, by file (sorted): a module's new scan replaces its own or is added in order. */
  scans: FileScan[];
  textOf: (abs: string) => string | undefined;
  /** The unlisted modules a scanned file's import leads to (directly or through listed barrels), read by the scan. */
  unlistedBehind: (fromAbs: string, specifier: string) => readonly string[];
  leftOut: (abs: string) => boolean;
  /** A module's syntax tree (parsed now when the scan did not parse it). */
  treeOf: (abs: string, text: string) => ts.SourceFile;
  /** Scans a module with the names of it handed to agents. */
  scan: (abs: string, names: ReadonlySet<string>) => FileScan;
}

/** What a module must spell to hold such a door: a `type` beside a door's body or a function tool's `invoke`. */
const MAY_HOLD = /\b(?:shell|editor|computer|invoke)\b/;
const INVOKE = /\binvoke\b/;

/**
 * Scans again the modules whose exports an agent's `tools` holds (a few: only such imports are
 * followed, only modules whose text may hold a door, and of the modules using the SDK only those
 * spelling `invoke`); returns the names read from each, by absolute path, for a later scan of a new
 * text, and the modules the search reached.
 */
export function agentToolModules(s: AgentToolSearch): HandedNames {
  const out = handedNames(s);
  for (const [abs, names] of out.handed) {
    const rel = path.relative(s.root, abs).split(path.sep).join('/');
    // (a search by name: the modules are few, and an insertion moves the scans after it)
    const known = s.scans.findIndex((scan) => scan.file === rel);
    const scan = s.scan(abs, names);
    if (known >= 0) s.scans[known] = scan;
    else s.scans.splice(insertionPoint(s.scans, rel), 0, scan);
  }
  return out;
}

export interface HandedNames {
  handed: Map<string, ReadonlySet<string>>;
  reached: ReadonlySet<string>;
}

/**
 * The names an agent's `tools` reads from each module that may hold such a door (`handed`), and
 * every module the search reached (`reached`: the modules, the barrels on the way, the unlisted
 * modules behind an import), whose edit may change what is handed. Scans nothing.
 */
export function handedNames(s: Omit<AgentToolSearch, 'scan'>): HandedNames {
  const wanted = new Map<string, Set<string>>();
  for (const scan of s.scans) {
    if (!scan.agentToolImports) continue;
    const from = path.resolve(s.root, scan.file);
    for (const read of scan.agentToolImports) exporters(s, read, from, 0, wanted);
  }
  const handed = new Map<string, ReadonlySet<string>>();
  const reached = new Set(wanted.keys());
  if (wanted.size === 0) return { handed, reached };
  const byFile = new Map(s.scans.map((scan) => [scan.file, scan]));
  for (const [abs, names] of wanted) {
    if (!isSourceFile(abs) || s.leftOut(abs)) continue;
    const own = byFile.get(path.relative(s.root, abs).split(path.sep).join('/'));
    const text = s.textOf(abs);
    if (text === undefined || !text.includes('type') || !MAY_HOLD.test(text)) continue;
    // a module using the SDK or the generated module already reads a door's unread `type`
    // (file/literal-doors.ts); only a function tool's `{ type: KIND, invoke }` waits for the names
    if (own && (own.importsSdk || own.generatedImports.length > 0) && !INVOKE.test(text)) continue;
    handed.set(abs, names);
  }
  return { handed, reached };
}

/** How many re-exports (`export * from`, `export { a as b } from`) an export is followed through. */
const CHAIN = 8;

/** A re-export statement: a module whose text has none is not parsed to look for one. */
const REEXPORT = /\bexport\s*(?:\*|\{[^}]*\})\s*from\b|\bexport\s*\{/;

/**
 * Adds to `wanted` the modules that may declare `read.name` as `read.specifier` exports it from
 * `from`: the module itself, the unlisted modules the search reached through it, and the modules
 * it re-exports the name from (a barrel `export * from './shell.js'`), a few hops on. A function
 * the agent's file calls for its tools is wanted as `name()` (what it returns is handed).
 */
function exporters(
  s: Omit<AgentToolSearch, 'scan'>,
  read: { specifier: string; name: string; call?: true; members?: string[] },
  from: string,
  depth: number,
  wanted: Map<string, Set<string>>,
): void {
  const wantedName = read.call ? `${read.name}()` : memberPath(read.name, read.members ?? []);
  const add = (abs: string): boolean => {
    const names = wanted.get(abs) ?? new Set<string>();
    if (names.has(wantedName)) return false;
    wanted.set(abs, names.add(wantedName));
    return true;
  };
  for (const abs of s.unlistedBehind(from, read.specifier)) add(abs);
  const target = resolveSpecifier(s.layout, read.specifier, from);
  if (target?.kind !== 'file' || !add(target.file) || depth >= CHAIN) return;
  const text = s.textOf(target.file);
  if (text === undefined || !REEXPORT.test(text)) return;
  const sf = s.treeOf(target.file, text);
  for (const st of sf.statements) {
    if (!typescript.isExportDeclaration(st) || st.isTypeOnly) continue;
    const again = reexported(sf, st, read.name);
    if (again === undefined || again.name === '*') continue;
    exporters(s, read.call ? { ...again, call: true } : read.members ? { ...again, members: read.members } : again, target.file, depth + 1, wanted);
  }
}

/** Where a scan of `file` goes in scans sorted by file. */
function insertionPoint(scans: readonly FileScan[], file: string): number {
  let i = 0;
  while (i < scans.length && scans[i]!.file < file) i++;
  return i;
}
