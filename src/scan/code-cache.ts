import { isAscii } from 'node:buffer';
import Module, { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
// node:fs as CommonJS, not imported: the launcher's path is ES modules, and Node builds an ES
// module's view of node:fs by reading every export, which loads its streams (see DECISIONS, session 27).
const { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync, writeSync } =
  process.getBuiltinModule('node:fs');

/**
 * Where the CLI keeps V8's code cache for the TypeScript compiler, when it does (set by the launcher,
 * src/cli/launch.ts, on a Node without a built-in compile cache). Unset: the compiler is required
 * as usual.
 */
export const CODE_CACHE_ENV = 'CTRLRUN_GEN_CODE_CACHE_DIR';

/** The default cache folder: one per user in the temporary directory, private to that user. */
export function defaultCodeCacheDir(): string {
  const user = typeof process.getuid === 'function' ? String(process.getuid()) : os.userInfo().username;
  return path.join(os.tmpdir(), `ctrlrun-gen-code-cache-${user}`);
}

/** A folder this user owns and no one else may write (or undefined: no cache there). */
function privateDir(dir: string): string | undefined {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = statSync(dir);
    if (!st.isDirectory()) return undefined;
    if (typeof process.getuid === 'function' && (st.uid !== process.getuid() || (st.mode & 0o022) !== 0)) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

/**
 * The cache file's name for a key: two 32-bit FNV-1a hashes (of the key and of the key reversed)
 * and the key's length, in hex. Not node:crypto: its first use costs ~6 ms of OpenSSL set-up that
 * nothing else on check's path pays. A collision only ever costs a compile: V8 checks the source
 * against the cache and rejects a cache of another file, which is then written anew.
 */
export function cacheKey(key: string): string {
  let a = 0x811c9dc5;
  let b = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    a = Math.imul(a ^ key.charCodeAt(i), 0x01000193) >>> 0;
    b = Math.imul(b ^ key.charCodeAt(key.length - 1 - i), 0x01000193) >>> 0;
  }
  return `${a.toString(16).padStart(8, '0')}${b.toString(16).padStart(8, '0')}${key.length.toString(16)}`;
}

/**
 * Where a process that changed V8's flags says so (cli/one-shot-tiering.ts): V8 rejects a cache
 * written under other flags, so such a process keeps caches of its own, and a check and a codemod
 * run in turn do not each reject and write again the cache the other wrote. On the global object:
 * the launcher and the bundle hold a copy of this module each.
 */
export const FLAGS_MARK = Symbol.for('ctrlrun-gen.code-cache.flags');

/** The cache file of `file` (as `stat` describes it) for this Node and these V8 flags, in the cache folder. */
function cacheFileName(file: string, st: { size: number; mtimeMs: number }): string {
  const flags = (globalThis as { [FLAGS_MARK]?: string })[FLAGS_MARK] ?? '';
  return `${cacheKey(`${process.version}\0${process.arch}\0${file}\0${st.size}\0${st.mtimeMs}\0${flags}`)}.bin`;
}

/**
 * When the cache is written again (issue 40, item 8). The cache is made at exit, so it holds what the
 * run that wrote it compiled; a first run on a small repo (or a check, which uses fewer of the
 * compiler's functions than the codemod) left a cache V8 accepts but that misses what a larger run
 * compiles, and every larger run compiled that again (100-200 ms of CPU on the SDK's examples).
 * Making the data to compare costs ~30-45 ms of CPU after a codemod run, and the process's bytecode
 * size (`v8.getHeapCodeStatistics`, which walks the heap) ~11 ms: too much for every run of a check
 * that takes a few hundred. So the file's header records the bytecode size of the run that wrote it
 * and how many runs may still look: each of the next `GROWTH_CHECKS` runs measures the bytecode
 * size and writes the cache anew when it grew by more than `GROWTH_MARGIN` (the same repo's runs
 * differ by ~1 KB; the codemod on the SDK's examples by ~230 KB after one on a small fixture), or
 * else only counts down; after those runs nothing is measured or written until V8 rejects the cache.
 */
export const GROWTH_CHECKS = 3;
export const GROWTH_MARGIN = 64 * 1024;
const HEADER_MAGIC = 0x31_43_43_52; // "RCC1", little-endian
const HEADER_BYTES = 12;

/** What a cache file's header says: the bytecode size of the run that wrote it, and the checks left. */
export interface CacheHeader {
  bytecode: number;
  checksLeft: number;
}

/** What to do at exit: write the cache (made anew), count a check down, or nothing. */
export function exitAction(header: CacheHeader | undefined, bytecode: () => number): 'write' | 'count' | 'none' {
  if (header === undefined) return 'write';
  if (header.checksLeft <= 0) return 'none';
  return bytecode() > header.bytecode + GROWTH_MARGIN ? 'write' : 'count';
}

function encodeHeader(header: CacheHeader): Buffer {
  const b = Buffer.alloc(HEADER_BYTES);
  b.writeUInt32LE(HEADER_MAGIC, 0);
  b.writeUInt32LE(Math.min(header.bytecode, 0xffffffff), 4);
  b.writeUInt32LE(header.checksLeft, 8);
  return b;
}

/** The header and V8's data of a cache file; a file without the header has no usable data. */
function decodeCacheFile(file: Buffer): { header: CacheHeader; data: Buffer } | undefined {
  if (file.length <= HEADER_BYTES || file.readUInt32LE(0) !== HEADER_MAGIC) return undefined;
  return { header: { bytecode: file.readUInt32LE(4), checksLeft: file.readUInt32LE(8) }, data: file.subarray(HEADER_BYTES) };
}

/** A CommonJS file compiled (with its code cache) but not run yet: `runCompiled` runs it. */
export interface CompiledScript {
  file: string;
  script: vm.Script;
  /** Where the code cache is kept (no cache folder: none). */
  writeCacheTo?: string;
  /** The header of the cache V8 accepted (none, or rejected: it is written at exit); its data is not kept. */
  accepted?: CacheHeader;
}

/** Writes a cache file whole: a temporary file of this process, renamed over it, private. */
function writeCacheFile(to: string, header: CacheHeader, data: Buffer): void {
  const tmp = `${to}.${process.pid}.tmp`;
  writeFileSync(tmp, Buffer.concat([encodeHeader(header), data]), { mode: 0o600 });
  renameSync(tmp, to);
  pruneCacheFolder(path.dirname(to));
}

/**
 * How many cache files a folder keeps (1-4 MB each). A key holds the cached file's path and mtime,
 * so every install of the CLI (an upgrade, an npx cache, a CI job's fresh clone) starts new files
 * and never reuses the old ones: unbounded, the folder grew past a gigabyte on a CI machine.
 */
export const MAX_CACHE_FILES = 24;
/** A temporary file older than this was left by a process that died while writing. */
const STALE_TMP_MS = 60 * 60 * 1000;

/**
 * Keeps the `max` most recently written cache files of `dir` and removes the rest, and temporary
 * files left by dead writers. Run only after a write (rare), never on a run that reads. An evicted
 * cache still in use costs one compile, after which it is written again as the newest.
 */
export function pruneCacheFolder(dir: string, max = MAX_CACHE_FILES, now = Date.now()): void {
  const caches: { file: string; mtimeMs: number }[] = [];
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    try {
      const { mtimeMs } = statSync(file);
      if (name.endsWith('.bin')) caches.push({ file, mtimeMs });
      else if (name.endsWith('.tmp') && now - mtimeMs > STALE_TMP_MS) unlinkSync(file);
    } catch {
      // removed meanwhile by another process's prune
    }
  }
  caches.sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const { file } of caches.slice(max)) {
    try {
      unlinkSync(file);
    } catch {
      // removed meanwhile
    }
  }
}

/**
 * One check fewer, written over the header in place: V8's data is not written again (3 MB, three
 * times), and a cache another process grew meanwhile keeps its data (its header then says less than
 * it holds, so a run with checks left writes it once more).
 */
function countDown(to: string, header: CacheHeader): void {
  const fd = openSync(to, 'r+');
  try {
    writeSync(fd, encodeHeader({ ...header, checksLeft: header.checksLeft - 1 }), 0, HEADER_BYTES, 0);
  } finally {
    closeSync(fd);
  }
}

// Where the process's bytecode size is kept once measured: on the global object, because a plain
// check holds two copies of this module (the launcher's, which caches the check's bundle, and the
// bundle's own, which caches the compiler), and both ask at exit.
const BYTECODE_MEASURED = Symbol.for('ctrlrun-gen.code-cache.bytecode');

/**
 * The process's bytecode size, measured once per process: the measure walks the whole heap (~3-5 ms
 * after a check), and the caches' exit handlers, which run one after the other, ask the same question.
 */
export function processBytecode(): number {
  const slot = globalThis as { [BYTECODE_MEASURED]?: number };
  slot[BYTECODE_MEASURED] ??= v8.getHeapCodeStatistics().bytecode_and_metadata_size;
  return slot[BYTECODE_MEASURED];
}

/** At exit: the cache written anew, its checks counted down, or left alone (see `GROWTH_CHECKS`). */
function updateCacheAtExit(compiled: CompiledScript, to: string): void {
  try {
    const bytecode = processBytecode;
    const action = exitAction(compiled.accepted, bytecode);
    if (action === 'write') writeCacheFile(to, { bytecode: bytecode(), checksLeft: GROWTH_CHECKS }, compiled.script.createCachedData());
    else if (action === 'count' && compiled.accepted) countDown(to, compiled.accepted);
  } catch {
    // best effort: the next run compiles again
  }
}

type ModuleInternals = { _cache: Record<string, NodeJS.Module>; _nodeModulePaths(dir: string): string[]; wrap(code: string): string };

/**
 * Compiles `file` with its code cache, in steps (it yields between reading, decoding and
 * compiling), so a caller with time to spare can stop between them: check prepares the compiler
 * while it waits to hear whether any file needs it (src/check/engine.ts). Nothing is run and nothing
 * registered: a caller that stops has loaded nothing.
 */
export function* compileSteps(file: string, cacheDir: string): Generator<void, CompiledScript, void> {
  const st = statSync(file);
  const bytes = readFileSync(file);
  yield;
  // The compiler is ASCII: read as latin1, the same text, without UTF-8 decoding (~10 ms of 9 MB).
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  yield;
  const dir = privateDir(cacheDir);
  const blob = dir ? path.join(dir, cacheFileName(file, st)) : undefined;
  let cached: { header: CacheHeader; data: Buffer } | undefined;
  try {
    if (blob) cached = decodeCacheFile(readFileSync(blob));
  } catch {
    // no cache yet
  }
  const script = new vm.Script((Module as unknown as ModuleInternals).wrap(source), { filename: file, cachedData: cached?.data });
  const accepted = cached && script.cachedDataRejected !== true ? cached.header : undefined;
  return { file, script, ...(blob ? { writeCacheTo: blob } : {}), ...(accepted ? { accepted } : {}) };
}

/** Runs a compiled file as `require` would, once (a second call returns the first's exports). */
export function runCompiled(compiled: CompiledScript): unknown {
  const { file, script, writeCacheTo } = compiled;
  const cached = Module as unknown as ModuleInternals;
  if (cached._cache[file]) return cached._cache[file].exports;
  if (writeCacheTo) process.once('exit', () => updateCacheAtExit(compiled, writeCacheTo));
  const mod = new Module(file) as NodeJS.Module & { filename: string; paths: string[]; loaded: boolean };
  mod.filename = file;
  mod.paths = cached._nodeModulePaths(path.dirname(file));
  cached._cache[file] = mod;
  try {
    const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;
    wrapper.call(mod.exports, mod.exports, createRequire(file), mod, file, path.dirname(file));
  } catch (error) {
    delete cached._cache[file];
    throw error;
  }
  mod.loaded = true;
  return mod.exports;
}

/**
 * `require(file)` for one large CommonJS file (the compiler, ~9 MB), with V8's code cache kept on
 * disk. Unlike v8-compile-cache, which stores the cache made right after compiling (the top level
 * only: V8 compiles functions lazily), this stores it at the process's exit, after the run, so it
 * holds the bytecode of every function the run used: the parser and scanner functions are not
 * compiled again on the next run. The cache is keyed by the file (path, size, mtime) and Node's
 * version; V8 checks it too and rejects a stale one, which is then written anew. The module is put
 * in `require.cache` under its own path first, so a later `require` of it (ts-morph's) gets this
 * very instance. Any failure to read or write the cache falls back to compiling as usual.
 */
export function requireWithCodeCache(file: string, cacheDir: string): unknown {
  const cached = Module as unknown as ModuleInternals;
  if (cached._cache[file]) return cached._cache[file].exports;
  const steps = compileSteps(file, cacheDir);
  for (;;) {
    const step = steps.next();
    if (step.done) return runCompiled(step.value);
  }
}
