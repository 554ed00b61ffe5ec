import path from 'node:path';
import { findManifest } from '../manifest/find.js';
import { parseManifest } from '../manifest/load.js';
import type { Manifest } from '../manifest/types.js';
import { isInside, readRegularText } from '../safe-read.js';
import { importerBound } from './importer-bound.js';
import { isSdkModule } from './imports.js';
import { scanRepoSync } from './index.js';
import { readLayout } from './layout.js';
import { resolveSpecifier, type RepoLayout } from './links.js';
import { listRepo } from './list.js';
import { readSourceText } from './repo.js';
import { scanSource } from './scan-source.js';
import { typeReaders } from './own-type-declared.js';
import { parseSource } from './parse.js';
import type { ModuleTreeReader } from './imported-types.js';
import { testFileRule } from './test-files.js';
import type { FileScan } from './types.js';
import { typescript as ts } from './typescript.js';

type SourceFile = ReturnType<typeof parseSource>['sf'];

export { importerBound } from './importer-bound.js';

/*
 * An app may answer the interruptions of a package's tools from a file outside that package that
 * no package.json ties to it: a monorepo folder importing `../../agents/src/tools.js`, or a sibling
 * of a root that is no workspace (`"agents": "file:../agents"`). Once the tools are protected those
 * answers authorize nothing (issue 40 item 4). Such a file is found exactly: its imports, resolved
 * as the scanner resolves them, reach a module of the package that declares a protected tool.
 */

/** The modules of the package (absolute) that declare a tool its manifest protects: a mapped function tool, a computed tool's file, a protectedTool call. */
export function protectedToolModules(manifest: Manifest, scans: readonly FileScan[]): Set<string> {
  const names = new Set<string>();
  const computed = new Set<string>();
  for (const t of manifest.tools) {
    if (t.kind === 'function') names.add(t.tool);
    else if (t.kind === 'computed') computed.add(t.at.file);
  }
  const out = new Set<string>();
  for (const scan of scans) {
    const declares = computed.has(scan.file) || scan.protectedToolCalls.length > 0 || scan.sdkToolCalls.some((c) => c.name !== undefined && names.has(c.name));
    if (declares) out.add(path.resolve(manifest.root, scan.file));
  }
  return out;
}

/** An answer to an interruption, as the text test sees it (the scan decides whether it is the SDK's). */
const ANSWER = /(?:approve|reject)(?:Tool)?\s*\(|alwaysApprove/;

/** The specifiers a module imports, re-exports or requires (TypeScript's pre-processor: no parse). */
function specifiersOf(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

/** Files outside the package whose answers count: scanned relative to `root` (the bound). */
export interface PathImporterAnswers {
  root: string;
  files: FileScan[];
}

/**
 * The files within the bound, outside the package and outside `skip` (folders read otherwise), that
 * answer interruptions through the SDK and whose imports reach one of the package's modules that
 * declare a protected tool (`declaring`, absolute; asked only when some file outside has an
 * answer), followed from module to module through any file of the bound (re-exports, a sibling's
 * own module importing the tools, the package's barrels). Only a file whose text has an answer is
 * followed; only one that reaches is scanned; a test file is not read. Nothing is read when the
 * bound lists no file of the package (a package git ignores).
 */
export function pathImporterAnswers(packageRoot: string, declaring: () => ReadonlySet<string>, skip: readonly string[] = []): PathImporterAnswers | undefined {
  const pkg = path.resolve(packageRoot);
  const root = importerBound(pkg);
  if (root === undefined) return undefined;
  const listing = listRepo({ root });
  // a package the bound does not list (git ignores it: a scratch copy) has no module to reach
  if (!listing.files.some((f) => f.startsWith(pkg + path.sep))) return { root, files: [] };
  const outside = (abs: string) => ![pkg, ...skip].some((d) => abs === d || abs.startsWith(d + path.sep));
  const rel = (abs: string) => path.relative(root, abs).split(path.sep).join('/');
  // a test file is left out, as the package's own and its dependents' tests are (their scans keep them apart)
  const isTest = testFileRule(root, listing.configs);
  // only the answering files' texts are kept; a file on the way is read once, for its imports
  const texts = new Map<string, string>();
  for (const abs of listing.files) {
    if (!outside(abs) || isTest(rel(abs))) continue;
    const text = readSourceText(abs);
    if (text !== undefined && ANSWER.test(text)) texts.set(abs, text);
  }
  if (texts.size === 0) return { root, files: [] };
  const layout = readLayout(listing.files, listing.configs);
  const targets = [...declaring()].filter((f) => layout.files.has(f));
  if (targets.length === 0) return { root, files: [] };
  const declared = new Set(targets);
  const importsOf = importsReader(layout, (abs) => texts.get(abs) ?? readSourceText(abs));
  const reaches = reachTest(declared, importsOf);
  // an answer in a helper module the importer calls (`approveAll(state)` in approve.ts) reaches no
  // tool itself: it counts when a module that reaches them imports it, so the whole graph is read,
  // only when some answering file does not reach them on its own
  const answering = [...texts.keys()];
  const reached = answering.every(reaches)
    ? undefined
    : reachedByImporters(
        listing.files.filter((abs) => layout.files.has(abs) && !isTest(rel(abs))),
        declared,
        importsOf,
      );
  // a helper's state typed by a module of its own (a workflow engine's RunState) is no SDK answer
  // here either, and a type another file writes is read: the same readers as the package's own scan
  const readers = typeReaders(moduleTrees(layout, (abs) => texts.get(abs) ?? readSourceText(abs)));
  const files: FileScan[] = [];
  for (const [abs, text] of texts) {
    if (!(reached?.has(abs) ?? reaches(abs))) continue;
    const scan = scanSource(rel(abs), text, { root, ...readers });
    if ((scan.sdkApprovals ?? []).length > 0 || scan.stickyApprovals.length > 0) files.push(scan);
  }
  return { root, files };
}

/** The module a specifier names from a file, when a file of the layout: its syntax tree (each parsed once) and path. */
function moduleTrees(layout: RepoLayout, textOf: (abs: string) => string | undefined): ModuleTreeReader {
  const trees = new Map<string, SourceFile | null>();
  return (specifier, fromFile) => {
    const target = resolveSpecifier(layout, specifier, fromFile);
    if (target?.kind !== 'file') return undefined;
    let sf = trees.get(target.file);
    if (sf === undefined) {
      const text = textOf(target.file);
      sf = text !== undefined ? parseSource(target.file, text).sf : null;
      trees.set(target.file, sf);
    }
    return sf ? { sf, abs: target.file } : undefined;
  };
}

/** A file's imports resolved to files of the layout, each file's read once. */
function importsReader(layout: RepoLayout, textOf: (abs: string) => string | undefined): (abs: string) => string[] {
  const imports = new Map<string, string[]>();
  return (abs) => {
    let out = imports.get(abs);
    if (out === undefined) {
      const text = textOf(abs);
      out = [];
      for (const spec of text === undefined ? [] : specifiersOf(text)) {
        // the SDK's own modules (a fork's workspace resolves them to source) are the SDK, not the
        // app: its implementation of approve is no answer; the app's calls of it are read
        if (isSdkModule(spec)) continue;
        const target = resolveSpecifier(layout, spec, abs);
        if (target?.kind === 'file') out.push(target.file);
      }
      imports.set(abs, out);
    }
    return out;
  };
}

/** Whether a file's imports lead, module to module, to one of `declaring`. */
function reachTest(declaring: ReadonlySet<string>, importsOf: (abs: string) => string[]): (abs: string) => boolean {
  return (start) => {
    const seen = new Set([start]);
    const queue = [start];
    while (queue.length > 0) {
      for (const next of importsOf(queue.pop()!)) {
        if (declaring.has(next)) return true;
        if (!seen.has(next)) {
          seen.add(next);
          queue.push(next);
        }
      }
    }
    return false;
  };
}

/**
 * The files of `files` a module that declares a protected tool or reaches one imports, module to
 * module, with those modules themselves: the code that runs with the tools, helpers included. One
 * pass backwards from `declaring` over the reversed graph, one forwards from what it found.
 */
function reachedByImporters(files: readonly string[], declaring: ReadonlySet<string>, importsOf: (abs: string) => string[]): Set<string> {
  const importers = new Map<string, string[]>();
  for (const file of files) {
    for (const target of importsOf(file)) {
      const list = importers.get(target);
      if (list) list.push(file);
      else importers.set(target, [file]);
    }
  }
  const walk = (start: Iterable<string>, next: (abs: string) => readonly string[]): Set<string> => {
    const seen = new Set(start);
    const queue = [...seen];
    while (queue.length > 0) {
      for (const n of next(queue.pop()!)) {
        if (!seen.has(n)) {
          seen.add(n);
          queue.push(n);
        }
      }
    }
    return seen;
  };
  const running = walk(declaring, (abs) => importers.get(abs) ?? []);
  return walk(running, importsOf);
}

/**
 * A check of `root` (a folder with no protected tools of its own, no package.json dependency on
 * any: `server` importing `../../agents/src/tools.js`) learns of the packages its files import by
 * path whose manifest maps a function or computed tool: each such manifest's importers' search
 * (`pathImporterAnswers`, the same the package's own check and codemod run) is asked which of its
 * files answer for those tools. The manifests are found from the relative imports that leave `root`
 * (the manifest at or above the imported module's folder). Returns the answering files
 * (relative to `root`) with the package's name as the package's check names it.
 */
export function answersImportingByPath(root: string, scans: readonly FileScan[]): Map<string, string> {
  const out = new Map<string, string>();
  if (!scans.some((s) => (s.sdkApprovals ?? []).length > 0)) return out;
  const manifests = new Set<string>();
  for (const folder of foldersImportedOutside(root, scans)) {
    // a manifest above `root` too would be the check's own, and its tools the check's protected ones
    const found = findManifest(folder);
    if (found !== undefined) manifests.add(found);
  }
  for (const file of manifests) {
    let manifest: Manifest | undefined;
    try {
      manifest = parseManifest(readRegularText(file), file).value;
    } catch {
      continue;
    }
    if (!manifest?.tools.some((t) => t.kind === 'function' || t.kind === 'computed')) continue;
    const loaded = manifest;
    const scansOf = () => scanRepoSync({ root: loaded.root, generatedModule: loaded.output }).files;
    const found = pathImporterAnswers(loaded.root, () => protectedToolModules(loaded, scansOf()));
    if (!found) continue;
    const name = path.relative(found.root, loaded.root).split(path.sep).join('/');
    for (const scan of found.files) {
      const abs = path.resolve(found.root, scan.file);
      if (isInside(root, abs)) out.set(path.relative(root, abs).split(path.sep).join('/'), name);
    }
  }
  return out;
}

/**
 * The folders outside `root` that its modules import by a relative path, followed module to module
 * from the scanned files (a module of its own re-exporting another package's tools is no scanned
 * file: it names no SDK), through `root`'s own files only (one listing of `root`).
 */
function foldersImportedOutside(root: string, scans: readonly FileScan[]): Set<string> {
  const listing = listRepo({ root });
  const layout = readLayout(listing.files, listing.configs);
  const out = new Set<string>();
  const seen = new Set(scans.map((s) => path.resolve(root, s.file)));
  const queue = [...seen];
  while (queue.length > 0) {
    const abs = queue.pop()!;
    const text = readSourceText(abs);
    for (const spec of text === undefined ? [] : specifiersOf(text)) {
      if (spec.startsWith('.')) {
        const target = path.resolve(path.dirname(abs), spec);
        if (!isInside(root, target)) {
          out.add(path.dirname(target));
          continue;
        }
      }
      const next = resolveSpecifier(layout, spec, abs);
      if (next?.kind === 'file' && !seen.has(next.file)) {
        seen.add(next.file);
        queue.push(next.file);
      }
    }
  }
  return out;
}
