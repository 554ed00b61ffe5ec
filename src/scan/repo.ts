import path from 'node:path';
import type { ts } from 'ts-morph';
import { declarationFileFor } from './declaration-files.js';
import { decodeSource, type SourceEncoding } from './decode.js';
import { readLayout } from './layout.js';
import { aliasTokens, resolveSpecifier, type RepoLayout } from './links.js';
import { listRepo, nestedManifestDirs, outsideDirs, type ListOptions, type RepoListing } from './list.js';
import { parseSource } from './parse.js';
import { isPlainUtf8, makePrefilter, type Prefilter } from './prefilter.js';
import { listedFileReader, PLAIN_PARSE, PLAIN_SKIP, PLAIN_SKIP_DOOR_WORD, type RepoRead, type Verdict } from './read.js';
import { exportedConstString, fileReachOf, scanParsed } from './scan-source.js';
import { barrelLinks, barrelRounds } from './barrels.js';
import { answerKeyRound } from './answer-key-modules.js';
import { moduleSource, resolveRunReach } from './reach/graph.js';
import type { FileReach } from './reach/file-reach.js';
import { isSourceFile } from './source-files.js';
import { typeReaders } from './own-type-declared.js';
import type { ModuleTree } from './imported-types.js';
import { AUGMENTS, type Augmentation, augmentationIndex, augmentedSpecifiers } from './module-augmentations.js';
import { namedFiles, testFileRule } from './test-files.js';
import type { FileScan, RepoScan, UnreadablePath } from './types.js';
import { readRegularFile } from '../safe-read.js';
import { LISTED_BARRELS, UNLISTED_LIMIT, unlistedImports, type UnlistedImporter, type UnlistedKind } from './unlisted-imports.js';
import { settleImportedWrites, writersOfDoors, type DoorModules } from './imported-door-writes.js';
import { agentToolModules } from './agent-tool-modules.js';
import { agentToolEdits } from './agent-tool-edits.js';

export { isPlainUtf8, mayMatter, mayMatterBytes, PREFILTER_TOKENS } from './prefilter.js';
export { listRepo, listSourceFiles, listSourceFilesSync, SKIPPED_DIRS, type ListOptions, type RepoListing } from './list.js';

type ParsedFile = ReturnType<typeof parseSource>;

/**
 * What a repo scan knows beyond its files' scans, for a front end that lints one file at a time
 * (the ESLint plugin): the file's text as the scan read it, and a scan of a new text of that file
 * with the same prefilter, barrels, aliases and imported constants as the repo scan used.
 */
export interface RepoIndex {
  /** The files the scan listed (absolute), read or not. */
  readonly files: readonly string[];
  /** The text the scan read for this absolute path (undefined: not a file of the listing, or unreadable). */
  textOf(abs: string): string | undefined;
  /** Scans a (new) text of a file of the repo; undefined when the text test says it cannot matter. */
  scanText(abs: string, text: string): FileScan | undefined;
  /** Follows the runs of these scans (the repo's, some rescanned) across the repo's modules again. */
  resolveRuns(files: readonly FileScan[]): void;
  /**
   * Takes a new text of a file as the module other files read (a constant, an own type) from now
   * on; returns the files (absolute) whose scans read that module before: they are stale.
   */
  edited(abs: string, text: string): string[];
}

/** Each file's exports as the run reach reads them: from the scan's tree, or parsed now (a barrel of agents). */
function fileReaches(
  parsed: Map<string, ParsedFile>,
  textOf: (abs: string) => string | undefined,
  rel: (abs: string) => string,
  options: Parameters<typeof scanParsed>[3],
): (abs: string) => FileReach | undefined {
  const cache = new Map<string, FileReach | null>();
  return (abs) => {
    const known = cache.get(abs);
    if (known !== undefined) return known ?? undefined;
    const text = textOf(abs);
    let reach: FileReach | null = null;
    if (text !== undefined && isSourceFile(abs)) reach = fileReachOf(rel(abs), text, parsed.get(abs) ?? parseSource(abs, text), options);
    cache.set(abs, reach);
    return reach ?? undefined;
  };
}

export interface ScanFilesOptions extends ListOptions {
  onProgress?: (done: number, total: number) => void;
  /**
   * The repo listed and read ahead (parallel-read.ts) for the same root and paths, without
   * `generatedModule`: the scan uses its listing and bytes instead of reading the files itself.
   */
  read?: RepoRead;
}

/**
 * Lists, prefilters and parses. Files that fail the text test are counted but not returned. A
 * file is parsed when its text names the SDK (or an alias of it), or a barrel of the repo that
 * leads to it: barrels are found in rounds (a file re-exporting the SDK, then its importers, ...).
 */
export async function scanRepoFiles(options: ScanFilesOptions): Promise<RepoScan> {
  const steps = scanSteps(options);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value.scan;
    // Let the progress line reach the terminal.
    await new Promise((r) => setImmediate(r));
  }
}

/** `scanRepoFiles`, synchronously (the generator is a synchronous function of the repo's files). */
export function scanRepoFilesSync(options: ScanFilesOptions): RepoScan {
  return scanRepoIndexedSync(options).scan;
}

/** `scanRepoFilesSync`, with the index a one-file front end rescans edited texts with. */
export function scanRepoIndexedSync(options: ScanFilesOptions): { scan: RepoScan; index: RepoIndex } {
  const steps = scanSteps(options);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** The scan, as steps: it yields now and then while reading so an async caller can show progress. */
function* scanSteps(options: ScanFilesOptions): Generator<void, { scan: RepoScan; index: RepoIndex }, void> {
  const root = path.resolve(options.root);
  const ahead = options.read;
  const listing = scanListing(options, root);
  const files = listing.files;
  const unreadable: UnreadablePath[] = [...listing.unreadable];
  const rel = (abs: string) => path.relative(root, abs).split(path.sep).join('/');
  // the root's configs, when read once for several of its folders (a read done here for them)
  const layout = readLayout(files, listing.configs, ahead?.root?.layout);
  const tokens = aliasTokens(layout);
  const prefilter = makePrefilter(tokens);
  // The reading thread's prefilter verdicts, when it used the same tokens (it read the same configs).
  const verdicts = ahead?.prefilter && sameTokens(ahead.prefilter.tokens, tokens) ? ahead.prefilter.verdicts : undefined;
  const texts = sourceTexts();
  const parsed = new Map<string, ParsedFile>();
  yield* readFiles(
    { files, readBytes: bytesReader(ahead, listedFileReader(root, listing.files)), rel, prefilter, verdicts, onProgress: options.onProgress },
    texts,
    parsed,
    unreadable,
  );
  // the modules the scanned files import that the listing leaves out (git ignores them, or they are
  // outside the root): read too, and marked, so a door there is reported (issue 40 item 4)
  const named = namedFiles(root, options.paths);
  const isTest = ahead?.root?.isTest ?? testFileRule(root, listing.configs);
  const {
    unlisted,
    importers,
    parsedCount: unlistedParsed,
    beyondLimit,
    barrelBeyondLimit,
  } = readUnlisted(root, layout, parsed, texts, prefilter, options, (abs) => isTest(rel(abs)) && !named.has(abs));
  if (beyondLimit) unreadable.push({ file: rel(beyondLimit.abs), message: beyondLimitMessage(beyondLimit.more) });
  if (barrelBeyondLimit) unreadable.push({ file: rel(barrelBeyondLimit.abs), message: barrelBeyondLimitMessage(barrelBeyondLimit.more) });

  const barrels = barrelLinks(layout, parsed, options.generatedModule);
  const seenTokens = barrelRounds(parsed, texts.texts, texts.textOf, barrels);
  answerKeyRound(parsed, texts.texts, texts.textOf, seenTokens);
  const links = barrels.links;
  const { importedConst, ownType, typeModule, edited } = moduleReaders(layout, parsed, texts.textOf, root, () => augmentingFiles(texts.texts));
  // a test file is parsed (it may be a barrel other tests import) but kept apart, unless named one by one
  const leftOut = (abs: string, relative = rel(abs)): boolean => isTest(relative) && !named.has(abs);
  const scans: FileScan[] = [];
  const testScans: FileScan[] = [];
  const scanOptions = {
    root,
    generatedModule: options.generatedModule,
    links,
    importedConst,
    ownType,
    typeModule,
    reachLater: true,
    keptBindings: barrels.keptBindings,
  };
  for (const abs of [...parsed.keys()].sort()) {
    // the file's name relative to the root, made once (path.relative resolves both paths)
    const relative = rel(abs);
    const scan = scanParsed(relative, texts.textOf(abs)!, parsed.get(abs)!, scanOptions);
    markUnlisted(scan, unlisted.get(abs), importers.get(abs), rel);
    (leftOut(abs, relative) ? testScans : scans).push(scan);
  }
  // a literal door whose `type` check cannot read, in a module naming neither the SDK nor the
  // generated module that hands it to an agent's `tools` elsewhere: that module scanned with the names
  const agentTools = handedModules({ root, layout, scans, texts, parsed, leftOut, rel }, { unlisted, importers }, scanOptions);
  // a door made in one module and written in another: the writers the prefilter passed over are
  // parsed now, and each file's writes of imported doors settled (issue 40 item 4)
  const doorModules = writersOfDoors({
    root,
    layout,
    parsed,
    texts,
    scans,
    seenTokens,
    // the read's verdict says whether a file the prefilter passed over names a door word
    ...(verdicts ? { doorWord: (abs: string) => doorWordVerdict(verdicts.get(abs)) } : {}),
    scan: (abs) => {
      const scan = scanParsed(rel(abs), texts.textOf(abs)!, parsed.get(abs)!, scanOptions);
      markUnlisted(scan, unlisted.get(abs), importers.get(abs), rel);
      return scan;
    },
    scanUnread: (abs, text, tree) => scanParsed(rel(abs), text, tree, scanOptions),
    leftOut,
  });
  settleImportedWrites(scans, doorModules);
  // each run's agent, followed through the repo's imports (issue 40, item 3)
  const modules = moduleSource({ layout, files, textOf: texts.textOf, reachOf: fileReaches(parsed, texts.textOf, rel, scanOptions) });
  resolveRunReach([...scans, ...testScans], modules);
  unreadable.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const scanText = (abs: string, text: string): FileScan | undefined => {
    if (leftOut(abs)) return undefined;
    doorModules.renamedTokens();
    const handed = agentTools.handed.get(abs);
    if (!(handed || prefilter.text(text) || [...seenTokens].some((t) => text.includes(t)))) return undefined;
    const scan = scanParsed(rel(abs), text, parseSource(abs, text), handed ? { ...scanOptions, agentToolExports: handed } : scanOptions);
    settleImportedWrites([scan], doorModules);
    resolveRunReach([scan], modules);
    return scan;
  };
  const writers = [...scans, ...testScans].filter((f) => f.importedWrites !== undefined).map((f) => path.resolve(root, f.file));
  const index: RepoIndex = {
    files,
    textOf: texts.textOf,
    ...editedDoorModules(writers, doorModules, ...agentTools.edits(scanText, edited)),
    resolveRuns: (files) => resolveRunReach(files, modules),
  };
  return { scan: { root, filesConsidered: files.length + unlistedParsed, files: scans, testFiles: testScans, unreadable }, index };
}

/**
 * The index's edits as the door writes see them (an ESLint session): a scanned text handed to the
 * door modules; the files whose writes of imported doors were settled against other modules (`writers`)
 * named stale beside a module's readers when its text moved (a door it exports, or an export check
 * cannot tell, may have come or gone).
 */
function editedDoorModules(
  writers: readonly string[],
  doorModules: DoorModules,
  scanText: RepoIndex['scanText'],
  readersOf: RepoIndex['edited'],
): Pick<RepoIndex, 'scanText' | 'edited'> {
  const writing = new Set(writers);
  const moved = new Set<string>();
  return {
    scanText: (abs, text) => {
      const scan = scanText(abs, text);
      if (doorModules.edited(abs, text, scan)) moved.add(abs);
      if (scan?.importedWrites !== undefined) writing.add(abs);
      else writing.delete(abs);
      return scan;
    },
    edited: (abs, text) => {
      const readers = readersOf(abs, text);
      if (!moved.delete(abs)) return readers;
      return [...new Set([...readers, ...writing])].filter((f) => f !== abs);
    },
  };
}

function doorWordVerdict(verdict: Verdict | undefined): boolean | undefined {
  return verdict === PLAIN_SKIP_DOOR_WORD ? true : verdict === PLAIN_SKIP ? false : undefined;
}

/**
 * Reads the unlisted modules the parsed files import (unlisted-imports.ts) into `texts`, parsing
 * those the prefilter passes; the kind of each, by absolute path, the unparsed ones too (one may be
 * parsed later as a writer of an imported door, and is as unlisted then), and how many were parsed.
 */
function readUnlisted(
  root: string,
  layout: RepoLayout,
  parsed: Map<string, ParsedFile>,
  texts: SourceTexts,
  prefilter: Prefilter,
  options: ScanFilesOptions,
  keptApart: (abs: string) => boolean,
): {
  unlisted: Map<string, UnlistedKind>;
  importers: Map<string, UnlistedImporter[]>;
  parsedCount: number;
  beyondLimit?: { abs: string; more: number };
  barrelBeyondLimit?: { abs: string; more: number };
} {
  const kinds = new Map<string, UnlistedKind>();
  const importers = new Map<string, UnlistedImporter[]>();
  let parsedCount = 0;
  const found = unlistedImports({
    root,
    layout,
    // a test's imports are the test's: only the app's files lead to the app's doors
    trees: [...parsed].filter(([abs]) => !keptApart(abs)),
    ...(options.generatedModule ? { generated: path.resolve(options.generatedModule) } : {}),
    ...(options.paths && options.paths.length > 0 ? { scopes: options.paths.map((p) => path.resolve(root, p)) } : {}),
    readText: readSourceText,
    listedText: texts.textOf,
  });
  for (const m of found.modules) {
    texts.texts.set(m.abs, m.text);
    kinds.set(m.abs, m.kind);
    importers.set(m.abs, m.importers);
    if (!prefilter.text(m.text)) continue;
    parsed.set(m.abs, parseSource(m.abs, m.text));
    parsedCount++;
  }
  return {
    unlisted: kinds,
    importers,
    parsedCount,
    ...(found.beyondLimit ? { beyondLimit: { abs: found.beyondLimit.abs, more: found.beyondLimit.more } } : {}),
    ...(found.barrelBeyondLimit ? { barrelBeyondLimit: found.barrelBeyondLimit } : {}),
  };
}

/**
 * The unreadable-file text for the first unlisted module past the limit (its rule adds ", so it was
 * not checked."), with how many more the search found past it: counted, not read, and what only
 * those import was not looked for.
 */
function beyondLimitMessage(more: number): string {
  const unread = more === 0 ? 'it was not read, nor what it imports' : `it and the ${moreModules(more)} found past it were not read, nor what they import`;
  return `the file is a module the listing leaves out that the checked files import, found after the ${UNLISTED_LIMIT} such modules check reads in one scan: ${unread}`;
}

/** The unreadable-file text for the first listed barrel (naming no SDK) past the cap on those followed, with how many more the search met past it. */
function barrelBeyondLimitMessage(more: number): string {
  const skipped = more === 0 ? 'it re-exports or imports' : `it and the ${moreModules(more)} found past it re-export or import`;
  return `the file is a listed module naming no SDK that the checked files import, found after the ${LISTED_BARRELS} such modules check follows in one scan: the modules ${skipped} were not followed (a module the listing leaves out among them was not read)`;
}

const moreModules = (more: number): string => `${more} more such module${more === 1 ? '' : 's'}`;

/**
 * Scans again the modules naming neither the SDK nor the generated module whose exports an agent's
 * `tools` holds (agent-tool-modules.ts), with the names handed: those names by module, and the
 * index's edits as they see them (agent-tool-edits.ts: the names read again after an edit).
 */
function handedModules(
  repo: {
    root: string;
    layout: RepoLayout;
    scans: FileScan[];
    texts: SourceTexts;
    parsed: Map<string, ParsedFile>;
    leftOut: (abs: string) => boolean;
    rel: (abs: string) => string;
  },
  found: { unlisted: ReadonlyMap<string, UnlistedKind>; importers: ReadonlyMap<string, UnlistedImporter[]> },
  scanOptions: Parameters<typeof scanParsed>[3],
): {
  handed: ReadonlyMap<string, ReadonlySet<string>>;
  edits: (scanText: RepoIndex['scanText'], edited: RepoIndex['edited']) => [RepoIndex['scanText'], RepoIndex['edited']];
} {
  const { parsed, texts, rel } = repo;
  // a barrel read for its re-exports is not kept as parsed: only a module scanned here is
  const barrelTrees = new Map<string, ParsedFile>();
  const treeOf = (abs: string, text: string): ParsedFile => {
    const tree = parsed.get(abs) ?? barrelTrees.get(abs) ?? parseSource(abs, text);
    barrelTrees.set(abs, tree);
    return tree;
  };
  const search = {
    root: repo.root,
    layout: repo.layout,
    scans: repo.scans,
    textOf: texts.textOf,
    unlistedBehind: unlistedBehind(found.importers),
    leftOut: repo.leftOut,
    treeOf: (abs: string, text: string) => treeOf(abs, text).sf,
  };
  const names = agentToolModules({
    ...search,
    scan: (abs, names) => {
      const text = texts.textOf(abs)!;
      const tree = treeOf(abs, text);
      parsed.set(abs, tree);
      const scan = scanParsed(rel(abs), text, tree, { ...scanOptions, agentToolExports: names });
      markUnlisted(scan, found.unlisted.get(abs), found.importers.get(abs), rel);
      return scan;
    },
  });
  return {
    handed: names.handed,
    edits: (scanText, edited) => {
      const edits = agentToolEdits(search, names, scanText, edited);
      return [edits.scanText, edits.edited];
    },
  };
}

/** The unlisted modules a scanned file's import (the file, the specifier) leads to, directly or through listed barrels. */
function unlistedBehind(importers: ReadonlyMap<string, readonly UnlistedImporter[]>): (fromAbs: string, specifier: string) => readonly string[] {
  const behind = new Map<string, string[]>();
  for (const [module, list] of importers) {
    for (const i of list) {
      const key = `${i.abs}\0${i.specifier}`;
      behind.set(key, [...(behind.get(key) ?? []), module]);
    }
  }
  return (fromAbs, specifier) => behind.get(`${fromAbs}\0${specifier}`) ?? [];
}

/** An unlisted module's scan: its kind, and the scanned files that import it (ESLint shows its findings there). */
function markUnlisted(scan: FileScan, kind: UnlistedKind | undefined, importers: readonly UnlistedImporter[] | undefined, rel: (abs: string) => string): void {
  if (kind === undefined) return;
  scan.unlisted = kind;
  scan.importedBy = (importers ?? []).map((i) => ({ file: rel(i.abs), specifier: i.specifier }));
}

/** The files to scan: the listing read ahead or a fresh one, less nested packages with a manifest of their own. */
function scanListing(options: ScanFilesOptions, root: string): RepoListing {
  const generated = options.generatedModule ? path.resolve(options.generatedModule) : undefined;
  const ahead = options.read;
  // A read done ahead (parallel-read.ts) listed without the generated module's name: leave it out here.
  const listed = ahead ? { ...ahead.listing, files: ahead.listing.files.filter((f) => f !== generated) } : listRepo(options);
  // a scan for a manifest (its generated module given) stops at a nested package with a manifest of its own
  const nested = generated !== undefined ? nestedManifestDirs(root, listed) : [];
  return nested.length > 0 ? { ...listed, files: outsideDirs(listed.files, nested) } : listed;
}

/** A file's bytes: from the read done ahead when it has them (or its error), else from disk. */
function bytesReader(ahead: RepoRead | undefined, read: (abs: string) => Buffer): (abs: string) => Buffer {
  return (abs) => {
    const got = ahead?.files.get(abs);
    if (got === undefined) return read(abs);
    if (Buffer.isBuffer(got)) return got;
    throw Object.assign(new Error(`${got.code}: ${abs}`), { code: got.code });
  };
}

/** The files whose text (or plain UTF-8 bytes) holds `declare module`: the few that may augment a module (module-augmentations.ts). */
function augmentingFiles(texts: ReadonlyMap<string, string | Buffer>): string[] {
  const out: string[] = [];
  for (const [abs, t] of texts) if (t.includes(AUGMENTS)) out.push(abs);
  return out;
}

/** Each readable file's text, or its bytes when they are plain UTF-8 and not decoded yet. */
interface SourceTexts {
  texts: Map<string, string | Buffer>;
  textOf: (abs: string) => string | undefined;
}

function sourceTexts(): SourceTexts {
  const texts = new Map<string, string | Buffer>();
  const textOf = (abs: string): string | undefined => {
    const t = texts.get(abs);
    if (t === undefined || typeof t === 'string') return t;
    const text = t.toString('utf8');
    texts.set(abs, text);
    return text;
  };
  return { texts, textOf };
}

interface ReadContext {
  files: string[];
  readBytes: (abs: string) => Buffer;
  rel: (abs: string) => string;
  prefilter: Prefilter;
  verdicts: Map<string, Verdict> | undefined;
  onProgress: ScanFilesOptions['onProgress'];
}

/** Reads every file into `texts`, parsing those the prefilter passes into `parsed`; yields now and then for progress. */
function* readFiles(r: ReadContext, texts: SourceTexts, parsed: Map<string, ParsedFile>, unreadable: UnreadablePath[]): Generator<void, void, void> {
  const { files, prefilter } = r;
  const progressEvery = Math.max(1, Math.floor(files.length / 100));
  // Synchronous reads: for many small files they beat the thread pool's open/stat/read/close hops.
  for (let i = 0; i < files.length; i++) {
    const abs = files[i]!;
    let buf: Buffer;
    try {
      buf = r.readBytes(abs);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // A tracked file deleted from the work tree is not there to check; a link to a listed file is checked under that file's name.
      if (code !== 'ENOENT' && code !== 'EISDIR' && code !== 'ELINKED')
        unreadable.push({ file: r.rel(abs), message: `the file could not be read (${readFailure(code)})` });
      continue;
    }
    const verdict = r.verdicts?.get(abs);
    if (verdict === PLAIN_SKIP || verdict === PLAIN_PARSE || verdict === PLAIN_SKIP_DOOR_WORD) {
      // decided on the reading thread, by this very prefilter
      texts.texts.set(abs, buf);
      if (verdict === PLAIN_PARSE) parsed.set(abs, parseSource(abs, texts.textOf(abs)!));
    } else if (isPlainUtf8(buf)) {
      texts.texts.set(abs, buf);
      if (prefilter.bytes(buf)) parsed.set(abs, parseSource(abs, texts.textOf(abs)!));
    } else {
      const decoded = decodeSource(buf);
      if ('error' in decoded) unreadable.push({ file: r.rel(abs), message: `the file ${decoded.error}` });
      else {
        texts.texts.set(abs, decoded.text);
        if (prefilter.text(decoded.text)) parsed.set(abs, parseSource(abs, decoded.text));
      }
    }
    const done = i + 1;
    if (r.onProgress && (done % progressEvery === 0 || done === files.length)) {
      r.onProgress(done, files.length);
      if (done % (progressEvery * 10) === 0) yield;
    }
  }
}

/** Why a listed file could not be read, for a finding: the error code, or what a non-regular file is. */
function readFailure(code: string | undefined): string {
  // readRegularFile's refusal of a FIFO, socket or device (a read would wait for a writer)
  return code === 'ENOTREG' ? 'not a regular file: a named pipe, socket or device' : (code ?? 'error');
}

/**
 * The repo's modules another file names (a relative specifier, an alias), parsed once when the
 * scan did not: a string constant one exports, whether one declares a type of its own, the other
 * files' `declare module` augmentations of it (`augmenting`: the files whose text holds those words).
 * A front end that lints one file at a time hands each new text of a file to `edited` (issue 40):
 * the module is then read from that text, and the files whose scans read it are named, to be
 * scanned again.
 */
function moduleReaders(
  layout: RepoLayout,
  parsed: Map<string, ParsedFile>,
  textOf: (abs: string) => string | undefined,
  root: string,
  augmenting: () => readonly string[],
) {
  const cache = new Map<string, ParsedFile | null>();
  const latest = new Map<string, string>();
  const readers = new Map<string, Set<string>>();
  const read = (file: string, by: string): void => {
    const known = readers.get(file);
    if (known) known.add(path.resolve(by));
    else readers.set(file, new Set([path.resolve(by)]));
  };
  const treeOf = (file: string): ts.SourceFile | undefined => {
    let p = (latest.has(file) ? undefined : parsed.get(file)) ?? cache.get(file);
    if (p === undefined) {
      const text = latest.get(file) ?? textOf(file) ?? (/\.d\.[mc]?ts$/.test(file) ? readSourceText(file) : undefined);
      p = text !== undefined ? parseSource(file, text) : null;
      cache.set(file, p);
    }
    return p?.sf;
  };
  const targetOf = (specifier: string, fromFile: string): string | undefined => {
    const target = resolveSpecifier(layout, specifier, fromFile) ?? declarationTarget(specifier, fromFile, root);
    return target?.kind === 'file' ? target.file : undefined;
  };
  let augmentations: ((abs: string) => readonly Augmentation[]) | undefined;
  const augmentationsOf = (file: string): readonly Augmentation[] => {
    augmentations ??= augmentationIndex(augmentingNow(augmenting(), latest), treeOf, targetOf);
    return augmentations(file);
  };
  const moduleOf = (specifier: string, fromFile: string): ModuleTree | undefined => {
    const file = targetOf(specifier, fromFile);
    if (file === undefined) return undefined;
    read(file, fromFile);
    const sf = treeOf(file);
    // the files augmenting the module are read for the importer too: an edit of one makes its scan stale
    const augmented = (): readonly Augmentation[] => {
      const found = augmentationsOf(file);
      for (const a of found) read(a.abs, fromFile);
      return found;
    };
    return sf ? { sf, abs: file, augmentations: augmented } : undefined;
  };
  return {
    importedConst: (specifier: string, fromFile: string, name: string): string | undefined => {
      const p = moduleOf(specifier, fromFile);
      return p ? exportedConstString(p.sf, name) : undefined;
    },
    // the app's other files, read for their own types and the types they export
    ...typeReaders(moduleOf),
    /** Reads `abs` from `text` from now on; the files whose scans read it before (absolute, itself left out). */
    edited: (abs: string, text: string): string[] => {
      const file = path.resolve(abs);
      // the text the module is read from now (the scan's, until an edit): the same text changes nothing
      const before = latest.get(file) ?? textOf(file);
      if (before === text) return [];
      latest.set(file, text);
      cache.delete(file);
      // an augmentation added, changed or removed: the modules it names (before and after) changed for their readers
      const named = [...augmentedSpecifiers(before ?? ''), ...augmentedSpecifiers(text)];
      if (named.length > 0) augmentations = undefined;
      const targets = named.flatMap((spec) => targetOf(spec, file) ?? []);
      return [...new Set([file, ...targets].flatMap((f) => stale(readers, f)))].filter((f) => f !== file);
    },
  };
}

/** The files whose text holds `declare module`: the scan's, as edited since. */
function augmentingNow(scanned: readonly string[], latest: ReadonlyMap<string, string>): string[] {
  const out = new Set(scanned);
  for (const [abs, text] of latest) {
    if (text.includes(AUGMENTS)) out.add(abs);
    else out.delete(abs);
  }
  return [...out];
}

/** How many imports away a reader of an edited module is looked for (imported-types.ts follows a name through 6 files). */
const READER_CHAIN = 8;

/**
 * The files whose scans read `file`, through a chain of modules: a type of `types.ts` read from
 * `helper.ts` through `index.ts` was read with `index.ts` as the importer, so the readers of each
 * reader are stale too (issue 40). A reader of a reader that did not follow the edited module is
 * scanned again for nothing: more work, never a stale finding. Bounded, cycles guarded.
 */
function stale(readers: ReadonlyMap<string, ReadonlySet<string>>, file: string): string[] {
  const seen = new Set([file]);
  let layer = [file];
  for (let hop = 0; hop < READER_CHAIN && layer.length > 0; hop++) {
    const next: string[] = [];
    for (const r of layer.flatMap((f) => [...(readers.get(f) ?? [])])) {
      if (seen.has(r)) continue;
      seen.add(r);
      next.push(r);
    }
    layer = next;
  }
  seen.delete(file);
  return [...seen];
}

/** A `.d.ts` the walk did not list, as a target (declaration-files.ts). */
function declarationTarget(specifier: string, fromFile: string, root: string): { kind: 'file'; file: string } | undefined {
  const file = declarationFileFor(specifier, fromFile, root);
  return file ? { kind: 'file', file } : undefined;
}

const sameTokens = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((t, i) => t === b[i]);

/** Reads a source file as the scanner does (UTF-8 or UTF-16 with a BOM); undefined when it cannot. */
export function readSourceText(abs: string): string | undefined {
  return readSource(abs)?.text;
}

/** Like `readSourceText`, with the encoding the file is in (to write it back the same way). */
export function readSource(abs: string): { text: string; encoding: SourceEncoding } | undefined {
  try {
    const d = decodeSource(readRegularFile(abs));
    return 'error' in d ? undefined : d;
  } catch {
    return undefined;
  }
}
