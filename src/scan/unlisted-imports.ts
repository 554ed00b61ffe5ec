import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ts } from 'ts-morph';
import { importerBound } from './importer-bound.js';
import { isSdkModule } from './imports.js';
import { resolveSpecifier, type RepoLayout } from './links.js';
import { inNodeModules } from './list.js';
import { parsedSpecifiers, textSpecifiers } from './module-specifiers.js';
import { isSourceFile } from './source-files.js';
import { linkedWorkspaceSource } from './workspace-links.js';

/*
 * The scan reads what git lists (issue 40 item 4, gaps G and H of the red team). A module a checked
 * file imports may be missing from that listing and still run with the app's agents: code generated
 * at build time into a folder .gitignore lists (`src/gen/`), or a module of another folder of the
 * repository (a workspace dependency `"extra": "workspace:*"`, a relative `../../shared/src/x.js`)
 * when check runs in the package that holds the manifest. Such a module is read too, as a file of
 * the scan, so a door in it is reported where the package's runs reach it. Only modules imported by
 * the scanned files (and by those modules, a few hops on) that exist on disk are read: never a whole
 * folder, never node_modules, never a package with a manifest of its own (its own check reads it).
 */

/** Why a module is read though not listed: git ignores it (inside the root), or it is outside the root. */
export type UnlistedKind = 'ignored' | 'outside';

export interface UnlistedModule {
  abs: string;
  kind: UnlistedKind;
}

/** A scanned (listed) file whose import leads to an unlisted module, and the specifier it imports there. */
export interface UnlistedImporter {
  abs: string;
  specifier: string;
}

export interface UnlistedSearch {
  root: string;
  layout: RepoLayout;
  /** The scanned files (absolute) with their syntax trees: where the search starts. */
  trees: Iterable<readonly [string, ParsedTree]>;
  /** The generated module (absolute), never read as the app's code. */
  generated?: string;
  /** The folders (absolute) a scan given paths covers; undefined: the whole root. */
  scopes?: readonly string[];
  /** A module's text, read from disk (undefined: unreadable). */
  readText: (abs: string) => string | undefined;
  /** A listed file's text as the scan read it (a listed barrel naming no SDK is followed through its re-exports). */
  listedText?: (abs: string) => string | undefined;
}

interface ParsedTree {
  sf: ts.SourceFile;
}

/** How many listed barrels (naming no SDK, so not scanned) one scan follows through their re-exports. */
export const LISTED_BARRELS = 256;

/**
 * What to do about a door in an unlisted module, as check's tool rules and the codemod say it: the
 * codemod rewrites only the package's own listed files (another package's file is that package's
 * to protect; a generated module is written again by its generator).
 */
export const UNLISTED_HINT: Readonly<Record<UnlistedKind, string>> = {
  outside:
    'It is in a module outside this package, which its code imports: protect it in its own package (`npx ctrlrun-gen init` there, then generate and codemod), or move the tool into this package.',
  ignored:
    "It is in a module git ignores (built at build time?), which a checked file imports: make its generator build the tool with protectedTool('<action>', { ... }) of the generated module, or declare the tool in a file of the repository.",
};

/** How many unlisted modules one scan reads at most: a bound on a pathological import graph. */
export const UNLISTED_LIMIT = 64;

/** The name of a manifest: a folder holding one is a package checked on its own. */
const MANIFEST_NAME = 'ctrlrun.tools.yaml';

/** Imports of what is no code (styles, data, images): never a module to read. */
const NOT_CODE = /\.(?:json|css|scss|sass|less|svg|png|jpe?g|gif|webp|ico|html?|md|txt|wasm|ya?ml|graphql|gql)(?:\?.*)?$/i;

/**
 * The unlisted modules read, the first one found past `UNLISTED_LIMIT` (not read: check says so), and
 * the first listed barrel found past `LISTED_BARRELS` (not followed: check says so too), each with how
 * many more the search found past its cap (`more`, `barrelsMore`): counted, neither read nor followed.
 */
export interface UnlistedFound {
  modules: Array<UnlistedModule & { text: string; importers: UnlistedImporter[] }>;
  beyondLimit?: UnlistedModule & { importers: UnlistedImporter[]; more: number };
  barrelBeyondLimit?: { abs: string; more: number };
}

/**
 * The modules the scanned files import (transitively, through the modules found) that the listing
 * left out and that exist on disk, in the order found, at most `UNLISTED_LIMIT`, with their texts;
 * the next one found past the limit is named, and the others found past it counted, so a door there
 * is not passed over in silence.
 */
export function unlistedImports(search: UnlistedSearch): UnlistedFound {
  const { root, layout } = search;
  const disk = { ...layout, files: new DiskFiles(layout.files) };
  let bound: string | undefined | null = null;
  const boundOf = (): string | undefined => {
    if (bound === null) bound = importerBound(root);
    return bound;
  };
  // a package linked in node_modules, by the importer's folder and the name (each asked of the disk once)
  const links = new Map<string, string | undefined>();
  const linked = (specifier: string, from: string): string | undefined => {
    const key = `${path.dirname(from)}\0${specifier}`;
    if (!links.has(key)) links.set(key, linkedWorkspaceSource(specifier, from));
    return links.get(key);
  };
  const manifestAt = new Map<string, boolean>();
  const out: Array<UnlistedModule & { text: string; importers: UnlistedImporter[] }> = [];
  const found = new Map<string, UnlistedImporter[]>();
  const seen = new Set<string>();
  // `origins`: the scanned files (and their specifiers) a barrel or an unlisted module was reached from; none: `from` is one
  const queue: Array<{ from: string; specifiers: readonly string[]; origins?: UnlistedImporter[] }> = [];
  const scanned = new Set<string>();
  for (const [abs, parsed] of search.trees) {
    scanned.add(abs);
    queue.push({ from: abs, specifiers: parsedSpecifiers(parsed.sf) });
  }
  let barrels = 0;
  let barrelBeyondLimit: UnlistedFound['barrelBeyondLimit'];
  let beyondLimit: UnlistedFound['beyondLimit'];
  while (queue.length > 0) {
    const { from, specifiers, origins } = queue.shift()!;
    for (const specifier of specifiers) {
      const importers = origins ?? [{ abs: from, specifier }];
      // a listed file the scan did not parse (it names no SDK) may re-export an unlisted module
      const barrel = listedBarrel(specifier, from, search, scanned, seen);
      if (barrel !== undefined) {
        if (barrels++ < LISTED_BARRELS) queue.push({ from: barrel.abs, specifiers: barrel.specifiers, origins: importers });
        // a barrel more than a scan follows: the first named (fail closed), the others counted; the
        // search goes on without them
        else if (barrelBeyondLimit === undefined) barrelBeyondLimit = { abs: barrel.abs, more: 0 };
        else barrelBeyondLimit.more++;
        continue;
      }
      const target = unlistedTarget(specifier, from, { layout, disk, boundOf, linked });
      if (target !== undefined && found.has(target)) addImporters(found.get(target)!, importers);
      if (target === undefined || seen.has(target)) continue;
      seen.add(target);
      const kind = kindOf(target, search, boundOf);
      if (kind === undefined || checkedOnItsOwn(target, kind === 'ignored' ? root : boundOf()!, kind === 'outside', manifestAt)) continue;
      if (beyondLimit !== undefined) {
        // past the limit a module is counted, not read: the search goes on through the listed
        // barrels (in memory, bounded by their cap) and what the modules read import, no further
        beyondLimit.more++;
        continue;
      }
      const text = search.readText(target);
      if (text === undefined) continue;
      const own = [...importers];
      if (out.length >= UNLISTED_LIMIT) {
        // one more module than a scan reads: named (fail closed); the rest is counted
        beyondLimit = { abs: target, kind, importers: own, more: 0 };
        continue;
      }
      found.set(target, own);
      out.push({ abs: target, kind, text, importers: own });
      queue.push({ from: target, specifiers: textSpecifiers(text), origins: own });
    }
  }
  return { modules: out, ...(beyondLimit ? { beyondLimit } : {}), ...(barrelBeyondLimit ? { barrelBeyondLimit } : {}) };
}

/** Adds the importers not listed yet (a module imported by several files, or twice). */
function addImporters(list: UnlistedImporter[], more: readonly UnlistedImporter[]): void {
  for (const m of more) if (!list.some((i) => i.abs === m.abs && i.specifier === m.specifier)) list.push(m);
}

/** Where a specifier leads when it is no listed file: a module on disk, or undefined (listed, a package, nothing). */
function unlistedTarget(
  specifier: string,
  from: string,
  at: { layout: RepoLayout; disk: RepoLayout; boundOf: () => string | undefined; linked: (specifier: string, from: string) => string | undefined },
): string | undefined {
  const { layout, disk, boundOf } = at;
  if (isSdkModule(specifier) || specifier.startsWith('node:') || NOT_CODE.test(specifier)) return undefined;
  // a listed file is scanned (or, naming no SDK, holds no door): only a miss is looked for on disk
  if (resolveSpecifier(layout, specifier, from) !== undefined) return undefined;
  const onDisk = resolveSpecifier(disk, specifier, from);
  if (onDisk?.kind === 'file') return onDisk.file;
  if (onDisk !== undefined || specifier.startsWith('.')) return undefined;
  // a package of the workspace linked in node_modules (`"extra": "workspace:*"`), only when there is a
  // repository above the root to hold it (at the top, every package of the workspace is listed)
  return boundOf() !== undefined ? at.linked(specifier, from) : undefined;
}

/** Inside the root (and the scan's paths): git ignores it; outside: within the bound; else not read. */
function kindOf(abs: string, search: UnlistedSearch, boundOf: () => string | undefined): UnlistedKind | undefined {
  // a path into node_modules, or a link in the repo to one: installed code, never the app's (a
  // workspace package's link out of node_modules is the package itself)
  if (abs === search.generated || !isSourceFile(abs) || inNodeModules(realOrSelf(abs))) return undefined;
  const relative = path.relative(search.root, abs);
  if (!relative.startsWith('..') && !path.isAbsolute(relative)) {
    // a scan given paths leaves the root's other files to the whole check: only what its paths hold
    const inScope = search.scopes === undefined || search.scopes.some((s) => abs === s || abs.startsWith(s + path.sep));
    return inScope ? 'ignored' : undefined;
  }
  const bound = boundOf();
  return bound !== undefined && abs.startsWith(bound + path.sep) ? 'outside' : undefined;
}

/**
 * Whether a folder holds a manifest between the module's and `top`: below the root for a module
 * inside it (the root's own manifest is the scan's), up to the bound itself for one outside.
 */
function checkedOnItsOwn(abs: string, top: string, withTop: boolean, cache: Map<string, boolean>): boolean {
  for (let dir = path.dirname(abs); dir !== top || withTop; dir = path.dirname(dir)) {
    let has = cache.get(dir);
    if (has === undefined) {
      has = existsSync(path.join(dir, MANIFEST_NAME));
      cache.set(dir, has);
    }
    if (has) return true;
    if (dir === top || path.dirname(dir) === dir) return false;
  }
  return false;
}

function realOrSelf(abs: string): string {
  try {
    return realpathSync(abs);
  } catch {
    return abs;
  }
}

/**
 * A listed file no scan parsed that `specifier` leads to, with the specifiers it re-exports
 * (`export * from`, `export { x } from`) and those whose bindings it uses (`import { make } from
 * './gen/make.js'; export const tools = make()`): what it exports may be built there; and those it
 * imports for their side effects (`import './gen/register.js'`), which run with it. A type-only
 * import is not followed; nor, past `LISTED_BARRELS`, any listed file.
 */
function listedBarrel(
  specifier: string,
  from: string,
  search: UnlistedSearch,
  scanned: ReadonlySet<string>,
  seen: Set<string>,
): { abs: string; specifiers: string[] } | undefined {
  if (search.listedText === undefined || isSdkModule(specifier) || specifier.startsWith('node:') || NOT_CODE.test(specifier)) return undefined;
  const target = resolveSpecifier(search.layout, specifier, from);
  if (target?.kind !== 'file' || scanned.has(target.file) || seen.has(target.file)) return undefined;
  seen.add(target.file);
  const text = search.listedText(target.file);
  if (text === undefined) return undefined;
  // a side-effect import runs the module it names (`import './gen/register.js'` may add tools to a
  // registry an agent reads), whether or not this module exports anything
  const specifiers = [...(text.includes('export') ? [...reexportSpecifiers(text), ...usedImportSpecifiers(text)] : []), ...sideEffectSpecifiers(text)];
  return specifiers.length > 0 ? { abs: target.file, specifiers } : undefined;
}

/** A side-effect import: `import './x.js'` (no binding). */
const SIDE_EFFECT_IMPORT = /(?<![\w$.])import\s*(['"])([^'"\n]+)\1/g;

/** The specifiers a module imports for their side effects only. */
function sideEffectSpecifiers(text: string): string[] {
  return text.includes('import') ? [...text.matchAll(SIDE_EFFECT_IMPORT)].map((m) => m[2]!) : [];
}

/** A static import's clause: `d`, `* as n`, `{ a, b as c, type t }`, `d, { a }` (not `import type`). */
const IMPORT_DECLARATION = /(?<![\w$.])import\s+(?!type\s)([\w$]+\s*,?\s*)?(\*\s*as\s+[\w$]+|\{[^}]*\})?\s*from\s*(['"])([^'"\n]+)\3/g;

/** The specifiers of a module's static imports one of whose bindings the rest of its text names. */
function usedImportSpecifiers(text: string): string[] {
  if (!text.includes('import')) return [];
  const imports = [...text.matchAll(IMPORT_DECLARATION)];
  if (imports.length === 0) return [];
  // the text without its import declarations: a binding named there is used
  const rest = text.replace(IMPORT_DECLARATION, ' ');
  const out: string[] = [];
  for (const m of imports) {
    const names = importBindings(m[1], m[2]);
    if (names.some((n) => new RegExp(`(?<![\\w$])${n.replace(/\$/g, '\\$')}(?![\\w$])`).test(rest))) out.push(m[4]!);
  }
  return out;
}

/** The local names an import clause binds (a default name, a namespace's, each named binding's local name but a type's). */
function importBindings(defaultPart: string | undefined, rest: string | undefined): string[] {
  const out: string[] = [];
  const d = defaultPart?.replace(/[\s,]/g, '');
  if (d) out.push(d);
  if (rest?.startsWith('*')) out.push(rest.replace(/^\*\s*as\s+/, ''));
  else if (rest) {
    for (const part of rest.slice(1, -1).split(',')) {
      const words = part
        .trim()
        .split(/\s+/)
        .filter((w) => w.length > 0);
      if (words.length === 0 || (words[0] === 'type' && words.length > 1 && words[1] !== 'as')) continue;
      out.push(words[words.length - 1]!);
    }
  }
  return out;
}

/** The specifiers a module re-exports from (`export * from 's'`, `export * as n from 's'`, `export { a, b as c } from 's'`). */
function reexportSpecifiers(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\bexport\s+(?:\*(?:\s+as\s+[\w$]+)?|\{[^}]*\})\s*from\s*(['"])([^'"\n]+)\1/g)) out.push(m[2]!);
  return out;
}

/** The listed files, and any source file on disk: the layout a miss is resolved against. */
class DiskFiles extends Set<string> {
  private readonly found = new Map<string, boolean>();

  constructor(private readonly listed: ReadonlySet<string>) {
    super();
  }

  override has(abs: string): boolean {
    if (this.listed.has(abs)) return true;
    let hit = this.found.get(abs);
    if (hit === undefined) {
      hit = isFile(abs);
      this.found.set(abs, hit);
    }
    return hit;
  }
}

function isFile(abs: string): boolean {
  try {
    return statSync(abs, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false;
  }
}
