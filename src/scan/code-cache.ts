import { isAscii } from 'node:buffer';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';

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

/** The cache file of `file` (as `stat` describes it) for this Node, in the cache folder. */
function cacheFileName(file: string, st: { size: number; mtimeMs: number }): string {
  return `${cacheKey(`${process.version}\0${process.arch}\0${file}\0${st.size}\0${st.mtimeMs}`)}.bin`;
}

/** A CommonJS file compiled (with its code cache) but not run yet: `runCompiled` runs it. */
export interface CompiledScript {
  file: string;
  script: vm.Script;
  /** Where to write the code cache at exit (none was there, or V8 rejected it). */
  writeCacheTo?: string;
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
  let cachedData: Buffer | undefined;
  try {
    if (blob) cachedData = readFileSync(blob);
  } catch {
    // no cache yet
  }
  const script = new vm.Script((Module as unknown as ModuleInternals).wrap(source), { filename: file, cachedData });
  return { file, script, ...(blob && (cachedData === undefined || script.cachedDataRejected === true) ? { writeCacheTo: blob } : {}) };
}

/** Runs a compiled file as `require` would, once (a second call returns the first's exports). */
export function runCompiled(compiled: CompiledScript): unknown {
  const { file, script, writeCacheTo } = compiled;
  const cached = Module as unknown as ModuleInternals;
  if (cached._cache[file]) return cached._cache[file].exports;
  if (writeCacheTo) {
    process.once('exit', () => {
      try {
        const tmp = `${writeCacheTo}.${process.pid}.tmp`;
        writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
        renameSync(tmp, writeCacheTo);
      } catch {
        // best effort: the next run compiles again
      }
    });
  }
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
