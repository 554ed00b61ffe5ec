import { spawnSync } from 'node:child_process';
import { isUtf8 } from 'node:buffer';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { decodeSource, type SourceEncoding } from './decode.js';
import { collectModuleImports, isSdkModule, sdkModuleValue, type ModuleLinks } from './imports.js';
import { aliasTokens, importTokens, parseJsonc, resolveSpecifier, type PackageInfo, type RepoLayout, type TsconfigInfo } from './links.js';
import { isSourceFile, parseSource } from './parse.js';
import { barrelValue, exportedConstString, scanParsed, sdkExportsOf, topLevelBindings, type SdkExports } from './scan-source.js';
import { readJsonc, resolveTsconfig } from './tsconfig.js';
import type { FileScan, RepoScan, UnreadablePath } from './types.js';

/**
 * The only folder never looked into: third-party code (git normally ignores it anyway; the SDK's
 * own sources live there). Nothing else is skipped by name: dot-directories, `out/`, `build/`,
 * `dist/` and `coverage/` are checked like any other folder unless git ignores them.
 */
export const SKIPPED_DIRS = ['node_modules'] as const;

/**
 * The cheap text test: a file that contains none of these (nor an alias or barrel name of the
 * repo, nor a string escape) cannot hold an SDK call, a generated import, a suppression, a sticky
 * or SDK approval, a hand-made tool or a tracing switch, and is never parsed.
 */
export const PREFILTER_TOKENS = [
  '@openai/agents',
  'protectedTool',
  'ctrlrun',
  'alwaysApprove',
  'approve(',
  'tracingDisabled',
  'traceIncludeSensitiveData',
  'invoke',
] as const;

/** A backslash escape (`'@openai\u002fagents'`): the specifier may be spelled so no token appears. */
const ESCAPE = /\\(?:u[0-9a-fA-F{]|x[0-9a-fA-F]|[0-7])/;

export function mayMatter(text: string, extraTokens: readonly string[] = []): boolean {
  for (const t of PREFILTER_TOKENS) if (text.includes(t)) return true;
  for (const t of extraTokens) if (text.includes(t)) return true;
  return text.includes('\\') && ESCAPE.test(text) && (text.includes('import') || text.includes('require'));
}

/**
 * mayMatter on a file's bytes when they are plain UTF-8 (valid, no byte-order mark, no NUL), whose
 * text is `buf.toString('utf8')`: UTF-8 is self-synchronising, so a token occurs in the bytes
 * exactly when it occurs in the text, and most files are never decoded into a string (start-up,
 * issue 10). Only a file with a backslash is decoded, for the escape test.
 */
export function mayMatterBytes(buf: Buffer, extraTokens: readonly string[] = []): boolean {
  for (const t of PREFILTER_TOKENS) if (buf.includes(t)) return true;
  for (const t of extraTokens) if (buf.includes(t)) return true;
  return buf.includes(0x5c) && mayMatter(buf.toString('utf8'), extraTokens);
}

/** Bytes whose text is exactly `buf.toString('utf8')` and that decodeSource accepts as they are. */
export function isPlainUtf8(buf: Buffer): boolean {
  return !(buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) && isUtf8(buf) && !buf.includes(0);
}

export interface ListOptions {
  root: string;
  paths?: string[];
  generatedModule?: string;
}

export interface RepoListing {
  /** Absolute source files to consider, sorted. */
  files: string[];
  /** Absolute package.json / tsconfig*.json / jsconfig.json files (for aliases and workspaces). */
  configs: string[];
  /** Directories that could not be listed (relative to the root). */
  unreadable: UnreadablePath[];
}

/**
 * Absolute paths of the source files to consider, sorted: under each given path (default: root),
 * every file git tracks (whatever .gitignore says) and every untracked file .gitignore (nested too)
 * does not exclude; outside a git work tree, the .gitignore files alone decide. Skips node_modules,
 * declaration files and the generated module. A file named explicitly is kept even if git-ignored.
 */
export async function listSourceFiles(options: ListOptions): Promise<string[]> {
  return listSourceFilesSync(options);
}

/** `listSourceFiles`, synchronously (the generator is a synchronous function of the repo's files). */
export function listSourceFilesSync(options: ListOptions): string[] {
  return listRepo(options).files;
}

const CONFIG = /^(?:package\.json|[jt]sconfig(?:\.[^/]*)?\.json)$/;

export function listRepo(options: ListOptions): RepoListing {
  const root = path.resolve(options.root);
  const generated = options.generatedModule ? path.resolve(options.generatedModule) : undefined;
  const unreadable: UnreadablePath[] = [];
  const all = gitFiles(root, unreadable) ?? walkFiles(root, unreadable);
  const keep = (abs: string): boolean => abs !== generated && isSourceFile(abs) && !abs.split(path.sep).includes('node_modules');
  const configs = all.filter((f) => CONFIG.test(path.basename(f)) && !f.split(path.sep).includes('node_modules'));
  const out = new Set<string>();
  const scopes = options.paths && options.paths.length > 0 ? options.paths.map((p) => path.resolve(root, p)) : [root];
  for (const abs of scopes) {
    let st;
    try {
      st = statSync(abs);
    } catch {
      continue;
    }
    if (st.isFile()) {
      if (isSourceFile(abs) && abs !== generated) out.add(abs);
      continue;
    }
    const rel = path.relative(root, abs);
    const inside = !rel.startsWith('..') && !path.isAbsolute(rel);
    const under = inside ? all.filter((f) => f === abs || f.startsWith(abs === root ? root : abs + path.sep)) : walkFiles(abs, unreadable);
    for (const f of under) if (keep(f)) out.add(f);
  }
  return { files: [...out].sort(), configs: configs.sort(), unreadable };
}

/** `git ls-files` of the tracked and the untracked, not ignored, files under `root`; undefined outside a work tree. */
function gitFiles(root: string, unreadable: UnreadablePath[]): string[] | undefined {
  const r = spawnSync('git', ['-c', 'core.quotePath=off', 'ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'buffer',
    maxBuffer: 1 << 30,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (r.error || r.status !== 0) return undefined;
  const stderr = r.stderr.toString('utf8');
  for (const m of stderr.matchAll(/could not open directory '([^']+)': ([^\n]+)/g)) {
    unreadable.push({ file: m[1]!.replace(/\/$/, ''), message: `the directory could not be listed (${m[2]!.trim()})` });
  }
  const seen = new Set<string>();
  for (const rel of r.stdout.toString('utf8').split('\0')) if (rel) seen.add(path.resolve(root, rel));
  // Nothing tracked and nothing untracked-but-kept: the folder itself is ignored by an enclosing
  // repo (a scratch copy), or empty. Its own .gitignore files decide then.
  if (seen.size === 0) return undefined;
  return [...seen];
}

/** Every file under `dir` that the .gitignore files on the way do not exclude (node_modules and .git never entered). */
function walkFiles(dir: string, unreadable: UnreadablePath[], rootForMessages = dir): string[] {
  const out: string[] = [];
  const rules: Array<{ dir: string; ig: Ignore }> = [];
  const ignored = (abs: string, isDir: boolean): boolean => {
    for (const r of rules) {
      const rel = path.relative(r.dir, abs);
      if (rel.startsWith('..') || path.isAbsolute(rel)) continue;
      const p = rel.split(path.sep).join('/');
      if (r.ig.ignores(isDir ? `${p}/` : p)) return true;
    }
    return false;
  };
  const visit = (d: string): void => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch (error) {
      unreadable.push({ file: path.relative(rootForMessages, d).split(path.sep).join('/') || '.', message: `the directory could not be listed (${(error as NodeJS.ErrnoException).code ?? 'error'})` });
      return;
    }
    const gi = entries.find((e) => e.isFile() && e.name === '.gitignore');
    let pushed = false;
    if (gi) {
      try {
        rules.push({ dir: d, ig: ignore().add(readFileSync(path.join(d, '.gitignore'), 'utf8')) });
        pushed = true;
      } catch {
        // An unreadable .gitignore ignores nothing.
      }
    }
    for (const e of entries) {
      const abs = path.join(d, e.name);
      if (e.isDirectory()) {
        if (e.name === '.git' || e.name === 'node_modules' || ignored(abs, true)) continue;
        visit(abs);
      } else if (e.isFile()) {
        if (!ignored(abs, false)) out.push(abs);
      }
    }
    if (pushed) rules.pop();
  };
  visit(dir);
  return out;
}

/** Reads a package.json / tsconfig into the layout (a file that does not parse adds nothing). */
function readLayout(files: string[], configs: string[]): RepoLayout {
  const packages: PackageInfo[] = [];
  const tsconfigs: TsconfigInfo[] = [];
  for (const file of configs) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const dir = path.dirname(file);
    const json = parseJsonc(text) as Record<string, unknown> | undefined;
    if (!json || typeof json !== 'object') continue;
    if (path.basename(file) === 'package.json') {
      const pkg: PackageInfo = { dir };
      if (typeof json['name'] === 'string') pkg.name = json['name'];
      if (json['imports'] !== undefined) pkg.imports = json['imports'];
      if (json['exports'] !== undefined) pkg.exports = json['exports'];
      if (typeof json['main'] === 'string') pkg.main = json['main'];
      if (typeof json['module'] === 'string') pkg.module = json['module'];
      packages.push(pkg);
    } else {
      // Only the tsconfig.json of a folder decides its aliases (tsconfig.build.json and friends extend it);
      // its `extends` chain is followed for `baseUrl` and `paths`.
      if (path.basename(file) !== 'tsconfig.json' && path.basename(file) !== 'jsconfig.json') continue;
      const resolved = resolveTsconfig(file, (f) => (f === file ? json : undefined) ?? readJsonc(f));
      tsconfigs.push({ dir, base: resolved.baseUrl ?? resolved.paths?.base ?? dir, hasBaseUrl: resolved.baseUrl !== undefined, paths: resolved.paths?.map ?? {} });
    }
  }
  return { files: new Set(files), packages, tsconfigs };
}

type ParsedFile = ReturnType<typeof parseSource>;

/**
 * Lists, prefilters and parses. Files that fail the text test are counted but not returned. A
 * file is parsed when its text names the SDK (or an alias of it), or a barrel of the repo that
 * leads to it: barrels are found in rounds (a file re-exporting the SDK, then its importers, ...).
 */
export async function scanRepoFiles(options: ListOptions & { onProgress?: (done: number, total: number) => void }): Promise<RepoScan> {
  const steps = scanSteps(options);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    // Let the progress line reach the terminal.
    await new Promise((r) => setImmediate(r));
  }
}

/** `scanRepoFiles`, synchronously (the generator is a synchronous function of the repo's files). */
export function scanRepoFilesSync(options: ListOptions): RepoScan {
  const steps = scanSteps(options);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** The scan, as steps: it yields now and then while reading so an async caller can show progress. */
function* scanSteps(options: ListOptions & { onProgress?: (done: number, total: number) => void }): Generator<void, RepoScan, void> {
  const root = path.resolve(options.root);
  const listing = listRepo(options);
  const files = listing.files;
  const unreadable: UnreadablePath[] = [...listing.unreadable];
  const rel = (abs: string) => path.relative(root, abs).split(path.sep).join('/');
  const layout = readLayout(files, listing.configs);
  const tokens = aliasTokens(layout);

  // Each readable file's text, or its bytes when they are plain UTF-8 and not decoded yet.
  const texts = new Map<string, string | Buffer>();
  const textOf = (abs: string): string | undefined => {
    const t = texts.get(abs);
    if (t === undefined || typeof t === 'string') return t;
    const text = t.toString('utf8');
    texts.set(abs, text);
    return text;
  };
  const parsed = new Map<string, ParsedFile>();
  const progressEvery = Math.max(1, Math.floor(files.length / 100));
  // Synchronous reads: for many small files they beat the thread pool's open/stat/read/close hops.
  for (let i = 0; i < files.length; i++) {
    const abs = files[i]!;
    let buf: Buffer;
    try {
      buf = readFileSync(abs);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // A tracked file deleted from the work tree is not there to check.
      if (code !== 'ENOENT' && code !== 'EISDIR') unreadable.push({ file: rel(abs), message: `the file could not be read (${code ?? 'error'})` });
      continue;
    }
    if (isPlainUtf8(buf)) {
      texts.set(abs, buf);
      if (mayMatterBytes(buf, tokens)) parsed.set(abs, parseSource(abs, textOf(abs)!));
    } else {
      const decoded = decodeSource(buf);
      if ('error' in decoded) unreadable.push({ file: rel(abs), message: `the file ${decoded.error}` });
      else {
        texts.set(abs, decoded.text);
        if (mayMatter(decoded.text, tokens)) parsed.set(abs, parseSource(abs, decoded.text));
      }
    }
    const done = i + 1;
    if (options.onProgress && (done % progressEvery === 0 || done === files.length)) {
      options.onProgress(done, files.length);
      if (done % (progressEvery * 10) === 0) yield;
    }
  }

  // Barrels, in rounds: a parsed file that exports SDK values makes its importers candidates.
  let exportsCache = new Map<string, SdkExports | null>();
  const links: ModuleLinks = {
    resolve: (specifier, fromFile) => {
      const target = resolveSpecifier(layout, specifier, fromFile);
      if (!target) return undefined;
      if (target.kind === 'bare') return isSdkModule(target.specifier) ? sdkModuleValue(target.specifier) : undefined;
      const exp = exportsOf(target.file);
      return exp ? barrelValue(specifier, exp) : undefined;
    },
  };
  const exportsOf = (file: string): SdkExports | undefined => {
    if (exportsCache.has(file)) return exportsCache.get(file) ?? undefined;
    const p = parsed.get(file);
    if (!p) return undefined;
    exportsCache.set(file, null); // a cycle resolves to nothing
    const bindings = topLevelBindings(p.sf, collectModuleImports(p.sf), { fileAbs: file, generatedModule: options.generatedModule }, links);
    const exp = sdkExportsOf(p.sf, bindings, file, links);
    const value = exp.named.size > 0 || exp.stars.length > 0 ? exp : null;
    exportsCache.set(file, value);
    return value ?? undefined;
  };
  const seenTokens = new Set<string>();
  for (let round = 0; round < 20; round++) {
    exportsCache = new Map();
    const fresh: string[] = [];
    for (const file of parsed.keys()) {
      if (!exportsOf(file)) continue;
      for (const t of importTokens(file)) {
        if (!seenTokens.has(t)) {
          seenTokens.add(t);
          fresh.push(t);
        }
      }
    }
    if (fresh.length === 0) break;
    let added = 0;
    for (const [abs, text] of texts) {
      if (parsed.has(abs)) continue;
      if (fresh.some((t) => text.includes(t))) {
        parsed.set(abs, parseSource(abs, textOf(abs)!));
        added++;
      }
    }
    if (added === 0) break;
  }
  exportsCache = new Map();

  const constCache = new Map<string, ParsedFile | null>();
  const importedConst = (specifier: string, fromFile: string, name: string): string | undefined => {
    const target = resolveSpecifier(layout, specifier, fromFile);
    if (!target || target.kind !== 'file') return undefined;
    let p = parsed.get(target.file) ?? constCache.get(target.file);
    if (p === undefined) {
      const text = textOf(target.file);
      p = text !== undefined ? parseSource(target.file, text) : null;
      constCache.set(target.file, p);
    }
    return p ? exportedConstString(p.sf, name) : undefined;
  };

  const scans: FileScan[] = [];
  for (const abs of [...parsed.keys()].sort()) {
    scans.push(scanParsed(rel(abs), textOf(abs)!, parsed.get(abs)!, { root, generatedModule: options.generatedModule, links, importedConst }));
  }
  unreadable.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { root, filesConsidered: files.length, files: scans, unreadable };
}

/** Reads a source file as the scanner does (UTF-8 or UTF-16 with a BOM); undefined when it cannot. */
export function readSourceText(abs: string): string | undefined {
  return readSource(abs)?.text;
}

/** Like `readSourceText`, with the encoding the file is in (to write it back the same way). */
export function readSource(abs: string): { text: string; encoding: SourceEncoding } | undefined {
  try {
    const d = decodeSource(readFileSync(abs));
    return 'error' in d ? undefined : d;
  } catch {
    return undefined;
  }
}
