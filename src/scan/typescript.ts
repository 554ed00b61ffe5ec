import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ts as TypeScript } from 'ts-morph';
import { CODE_CACHE_ENV, compileSteps, requireWithCodeCache, runCompiled, type CompiledScript } from './code-cache.js';
import { compilerView } from './compiler-view.js';

/**
 * The TypeScript compiler API (the copy ts-morph bundles), loaded on first use.
 *
 * Why not `import { ts } from 'ts-morph'`: that loads all of ts-morph through the ESM loader (Node
 * runs its CommonJS through cjs-module-lexer), about 0.6 s before the first line of `check` runs, even
 * on a repo with no SDK file. Here the compiler is `require`d (CommonJS, so the launcher's compile
 * cache applies) the first time a value of it is read, which on `check`'s path is after the text
 * prefilter has found a file worth parsing. The module instance is the one ts-morph itself uses, so
 * nodes from either are the same kind of object.
 *
 * `typescript` is a live binding: a lazy stand-in until the compiler is loaded, a view of the
 * compiler with fast properties after (compiler-view.ts; so the scanner's hot loops read it directly). Types come from `import type { ts } from 'ts-morph'`.
 */
export let typescript: typeof TypeScript = new Proxy({} as typeof TypeScript, {
  get: (_target, key) => Reflect.get(loadTypeScript(), key),
  has: (_target, key) => Reflect.has(loadTypeScript(), key),
});

let loaded: typeof TypeScript | undefined;

/** The companion package's package.json, when the CLI's tools come from it (set by the launcher). */
export const TOOLS_FROM_ENV = 'CTRLRUN_GEN_TOOLS_FROM';

/**
 * Loads the compiler once (idempotent) and returns it. `compiled`: the compiler compiled ahead
 * (`compileTypeScriptSteps`), run now instead of compiling it again.
 */
export function loadTypeScript(compiled?: CompiledScript): typeof TypeScript {
  if (loaded) return loaded;
  const compiler = compilerFile();
  const cacheDir = process.env[CODE_CACHE_ENV];
  if (compiled && compiled.file === compiler) loaded = runCompiled(compiled) as typeof TypeScript;
  else loaded = (cacheDir ? requireWithCodeCache(compiler, cacheDir) : createRequire(compiler)(compiler)) as typeof TypeScript;
  typescript = compilerView(loaded);
  return loaded;
}

/**
 * The compiler compiled from its code cache, in steps, not run (see `compileSteps`); nothing when
 * the CLI keeps no cache of its own (`DISABLE_V8_COMPILE_CACHE`, or the API used outside the CLI), the compiler is already loaded,
 * or it cannot be found (loadTypeScript then says why).
 */
export function* compileTypeScriptSteps(): Generator<void, CompiledScript | undefined, void> {
  const cacheDir = process.env[CODE_CACHE_ENV];
  if (loaded || !cacheDir) return undefined;
  let file: string;
  try {
    file = compilerFile();
  } catch {
    return undefined;
  }
  return yield* compileSteps(file, cacheDir);
}

/** The compiler's file: ts-morph's bundled copy, as ts-morph itself requires it. */
export function compilerFile(): string {
  const here = fileURLToPath(import.meta.url);
  // The CLI's tools come from the companion package (src/cli/launch.ts) when the launcher names
  // it: its ts-morph first, as the resolve hook does for the CLI's imports (the app may hoist an
  // older ts-morph where this file would find it); else from here; else ask the ESM resolver,
  // which goes through the launcher's resolve hook (not there in the plain check's CommonJS file).
  const companion = process.env[TOOLS_FROM_ENV];
  let tsMorph: string | undefined;
  if (companion) {
    try {
      tsMorph = createRequire(companion).resolve('ts-morph');
    } catch {
      // not under the companion: resolve it from here
    }
  }
  if (tsMorph === undefined) {
    try {
      tsMorph = createRequire(here).resolve('ts-morph');
    } catch (error) {
      if (typeof import.meta.resolve === 'function') tsMorph = fileURLToPath(import.meta.resolve('ts-morph'));
      else throw error;
    }
  }
  const requireFromTsMorph = createRequire(tsMorph);
  const common = requireFromTsMorph.resolve('@ts-morph/common');
  return createRequire(common).resolve('./typescript.js');
}
