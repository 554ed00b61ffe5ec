import moduleApi, { createRequire, register } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CODE_CACHE_ENV, defaultCodeCacheDir, requireWithCodeCache } from '../scan/code-cache.js';
import { TOOLS_FROM_ENV } from '../scan/typescript.js';
import { VERSION } from '../version.js';
import { plainCommandArgs, type PlainCommand } from './plain-check.js';
import { dropOutputToClosedPipe } from './closed-pipe.js';
import { oneShotTiering } from './one-shot-tiering.js';
import type { CliIo } from './context.js';
// node:fs as CommonJS, not imported: the launcher's path is ES modules, and Node builds an ES
// module's view of node:fs by reading every export, which loads its streams (see DECISIONS, session 27).
const { existsSync, mkdtempSync, rmSync, writeFileSync } = process.getBuiltinModule('node:fs');

/**
 * The `ctrlrun-gen` bin. The package `ctrlrun-gen` carries the runtime and the CLI's code, but only
 * the runtime's dependencies: an app that imports its generated module installs no compiler, no
 * CLI framework and no native module it does not use. The CLI's own dependencies (ts-morph, yargs,
 * yaml, …) come with the companion package `ctrlrun-gen-cli`, a dev dependency (the
 * split Prisma makes between `prisma` and `@prisma/client`). This launcher imports nothing of them:
 * it finds them, makes them resolvable, then loads the CLI.
 */

/**
 * Packages the CLI imports that `ctrlrun-gen` itself does not depend on (packages/cli/package.json).
 * All of them, the lazily loaded ones too (serve's Hono, the MCP SDK): npm may nest one under the
 * companion while hoisting the rest (a project with another hono of its own), and only the resolve
 * hook finds it there. No SQLite driver: the store uses node:sqlite, or the app's own better-sqlite3
 * (issue 22.3: installing the lint builds nothing natively).
 */
export const CLI_TOOLS = [
  'ts-morph',
  'yargs',
  'yaml',
  'picocolors',
  'ignore',
  'diff',
  '@babel/code-frame',
  'hono',
  '@hono/node-server',
  '@modelcontextprotocol/sdk',
] as const;

/**
 * The tools a plain check or codemod (src/cli/plain-check.ts) uses: the compiler, through
 * ts-morph's copy. The other tools they use are inlined into the bundle, and they open no store
 * and serve nothing.
 */
export const PLAIN_CHECK_TOOLS = ['ts-morph'] as const;

/**
 * Where the CLI's tools resolve from: `self` (they resolve from this package), a companion
 * package.json, or nowhere. `needs`: the tools this run uses (default: all of them; a plain check
 * asks only for its own, one resolution instead of eleven, start-up).
 *
 * `self` only when each tool found from this package is the companion's own copy (npm hoisted it):
 * an app with another major of one of them at its top level (a ts-morph 12 that `@vercel/node`
 * brings, a yargs 17) keeps the companion's copy nested under it, and the CLI must load that one.
 */
export function findCliTools(options: {
  cwd: string;
  env: NodeJS.ProcessEnv;
  from: string;
  needs?: readonly string[];
}): { kind: 'self' } | { kind: 'companion'; packageJson: string } | { kind: 'missing' } {
  const needs = options.needs ?? CLI_TOOLS;
  const companion = findCompanion(options);
  if (needs.every((name) => packageDir(options.from, name) !== undefined)) {
    if (!companion || needs.every((name) => packageDir(companion, name) === packageDir(options.from, name))) return { kind: 'self' };
  }
  return companion ? { kind: 'companion', packageJson: companion } : { kind: 'missing' };
}

function findCompanion(options: { cwd: string; env: NodeJS.ProcessEnv; from: string }): string | undefined {
  const candidates = [options.env.CTRLRUN_GEN_CLI_TOOLS, path.join(options.cwd, 'package.json'), options.from];
  for (const base of candidates) {
    if (!base) continue;
    if (base === options.env.CTRLRUN_GEN_CLI_TOOLS) return base;
    const dir = packageDir(base, 'ctrlrun-gen-cli');
    if (dir) return path.join(dir, 'package.json');
  }
  return undefined;
}

/**
 * The directory of the package `name` as a require from `base` finds it (the node_modules folders
 * from `base` up), or undefined. By folder, not by `name/package.json`: an exports map may hide
 * package.json (hono's does).
 */
export function packageDir(base: string, name: string): string | undefined {
  for (const dir of createRequire(base).resolve.paths(name) ?? []) {
    const candidate = path.join(dir, name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
  }
  return undefined;
}

/**
 * The companion npm fetches when it is not installed: `ctrlrun-gen-cli` of this exact version, or
 * `CTRLRUN_GEN_CLI_SPEC` (one or more npm package specs separated by spaces: a tarball, a mirror's
 * version; the tests point it at packed tarballs).
 */
export function companionSpecs(env: NodeJS.ProcessEnv): string[] {
  const named = env.CTRLRUN_GEN_CLI_SPEC?.trim();
  return named ? named.split(/\s+/) : [`ctrlrun-gen-cli@${VERSION}`];
}

/** The npm command that runs the companion's bin with `args` (what `npx ctrlrun-gen-cli@<version> …` does). */
export function npmExecArgs(specs: string[], args: string[]): string[] {
  return ['exec', '--yes', ...specs.map((spec) => `--package=${spec}`), '--', 'ctrlrun-gen-cli', ...args];
}

function missingHint(args: string[]): string {
  return (
    `  hint: npm install --save-dev ctrlrun-gen-cli@${VERSION}   then: npx ctrlrun-gen ${args.join(' ')}\n` +
    `        or, without installing: npx ctrlrun-gen-cli@${VERSION} ${args.join(' ')}\n`
  );
}

/**
 * Journey 1 (`npx ctrlrun-gen init` in a repo that has neither package): the companion is not
 * installed, so npm runs the companion of this exact version, with these arguments, stdio and exit
 * code. The child marks a file when its CLI starts: an exit without the mark means npm could not
 * fetch or start it (offline, no such version), which ends in the install hint and exit 2.
 * `CTRLRUN_GEN_NO_FETCH=1` skips the fetch (and stops a loop: the child never fetches again).
 */
async function runCompanionThroughNpm(args: string[]): Promise<number> {
  const specs = companionSpecs(process.env);
  if (process.env.CTRLRUN_GEN_NO_FETCH === '1') {
    process.stderr.write(
      `ctrlrun-gen: the command line's tools are not installed here (this install of ctrlrun-gen ${VERSION} carries the runtime only).\n${missingHint(args)}`,
    );
    return 2;
  }
  process.stderr.write(
    `ctrlrun-gen: the command line's tools are not installed here; running ${specs.join(' ')} through npm exec ` +
      `(install it as a dev dependency to skip this: npm install --save-dev ctrlrun-gen-cli@${VERSION}).\n`,
  );
  const markDir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-gen-'));
  const mark = path.join(markDir, 'started');
  try {
    const code = await new Promise<number>((resolve) => {
      // node:child_process loaded here only: every other run of the CLI starts without it
      const child = process.getBuiltinModule('node:child_process').spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', npmExecArgs(specs, args), {
        stdio: 'inherit',
        shell: process.platform === 'win32',
        env: { ...process.env, CTRLRUN_GEN_NO_FETCH: '1', CTRLRUN_GEN_STARTED_MARK: mark },
      });
      child.on('error', () => resolve(-1)); // no npm on PATH
      child.on('close', (status, signal) => resolve(status ?? (signal ? 128 + 1 : 1)));
    });
    if (existsSync(mark)) return code;
    process.stderr.write(`ctrlrun-gen: npm could not run ${specs.join(' ')} (offline, or no such version?).\n${missingHint(args)}`);
    return 2;
  } finally {
    rmSync(markDir, { recursive: true, force: true });
  }
}

/** Runs the CLI with `args`; returns the exit code. */
export async function launch(args: string[]): Promise<number> {
  dropOutputToClosedPipe(process.stdout);
  dropOutputToClosedPipe(process.stderr);
  const plain = plainCommandArgs(args);
  const tools = findCliTools({ cwd: process.cwd(), env: process.env, from: fileURLToPath(import.meta.url), ...(plain ? { needs: PLAIN_CHECK_TOOLS } : {}) });
  if (tools.kind === 'missing') return runCompanionThroughNpm(args);
  const mark = process.env.CTRLRUN_GEN_STARTED_MARK;
  if (mark) {
    // started by a parent ctrlrun-gen through npm exec: tell it the CLI runs (see runCompanionThroughNpm)
    writeFileSync(mark, '');
    delete process.env.CTRLRUN_GEN_STARTED_MARK;
  }
  enableCompileCache(tools.kind === 'companion' ? tools.packageJson : fileURLToPath(import.meta.url), plain !== undefined);
  if (tools.kind === 'companion') {
    // The CLI's tools resolve from the companion package first (an app may hoist another version
    // of one), and any other bare import the CLI cannot resolve from ctrlrun-gen resolves from it
    // too (whatever the package manager's layout: hoisted, nested or pnpm's).
    register('./resolve-from.js', import.meta.url, {
      data: { parentURL: pathToFileURL(tools.packageJson).href, selfURL: new URL('../../', import.meta.url).href, tools: [...CLI_TOOLS] },
    });
    process.env[TOOLS_FROM_ENV] = tools.packageJson;
  }
  // --debug prints stack traces: the CLI runs from a bundle (dist/bin), whose source maps name the
  // modules and lines they come from. Turned on before the bundle's chunks load (only they are mapped).
  if (args.includes('--debug')) process.setSourceMapsEnabled(true);
  const io = {
    cwd: process.cwd(),
    env: process.env,
    stdout: (text: string) => process.stdout.write(text),
    stderr: (text: string) => process.stderr.write(text),
    isTTY: process.stdout.isTTY === true,
    columns: process.stdout.isTTY === true ? process.stdout.columns : undefined,
  };
  // a plain codemod or check is one short process: no TurboFan, Maglev later, set before its file and the compiler load (one-shot-tiering.ts)
  if (plain?.command === 'codemod' || plain?.command === 'check') oneShotTiering();
  const runPlain = plain ? plainCommandFile(plain) : undefined;
  if (plain && runPlain) return runPlain(io);
  const { runCli } = await import('./run.js');
  return runCli(args, io);
}

/**
 * Start-up (issue 10): the CLI's bundle has a plain check in one CommonJS file of its own
 * (dist/bin/plain-check.cjs, scripts/bundle-cli.mjs), which V8's code cache covers on Node 20 (ES
 * modules it does not: every run compiled them again), and a plain codemod likewise
 * (dist/bin/plain-codemod.cjs, issue 40, item 8). Undefined where there is no such file (tsc's
 * output): the command then runs from the ES modules. With --debug it is required as usual, so
 * stack traces go through its source map.
 */
function plainCommandFile(plain: PlainCommand): ((io: CliIo) => Promise<number>) | undefined {
  const file = fileURLToPath(new URL(plain.command === 'check' ? './plain-check.cjs' : './plain-codemod.cjs', import.meta.url));
  if (!existsSync(file)) return undefined;
  const cacheDir = process.env[CODE_CACHE_ENV];
  const mod = cacheDir && !plain.debug ? requireWithCodeCache(file, cacheDir) : createRequire(file)(file);
  if (plain.command === 'check') return (io) => (mod as typeof import('./plain-main.js')).runPlainCheck(plain, io);
  return (io) => (mod as typeof import('./plain-codemod.js')).runPlainCodemod(plain, io);
}

/**
 * Start-up time: V8 keeps the code it compiled for the CLI's CommonJS modules (the TypeScript
 * compiler above all, about 9 MB of JavaScript) in a cache, so a later run does not compile them
 * again. On every Node the compiler (and the plain check's file and the YAML parser, which load
 * through the same helper) gets a cache of its own, written after the run so that it holds every
 * function the run compiled (src/scan/code-cache.ts): Node's built-in cache (22.1+,
 * `module.enableCompileCache`) is made right after compiling and holds the top level only, so the
 * parser's functions were compiled again on every run (issue 40, item 8: ~8% of the codemod's CPU
 * on the SDK's examples, ~5% of check's); with a cache of its own, check also compiles the compiler
 * while it waits for its reading thread (src/check/engine.ts). The built-in cache covers the rest
 * (the bundle's ES modules); on Node 20, `v8-compile-cache` (a dependency of the CLI's tools)
 * covers the other CommonJS modules (ts-morph's, for codemod and init). Best effort: when none is
 * there, or `DISABLE_V8_COMPILE_CACHE` is set, nothing changes.
 */
function enableCompileCache(resolveFrom: string, plainCommand: boolean): void {
  if (process.env.DISABLE_V8_COMPILE_CACHE) return;
  process.env[CODE_CACHE_ENV] ??= defaultCodeCacheDir();
  const builtIn = (moduleApi as { enableCompileCache?: () => unknown }).enableCompileCache;
  if (typeof builtIn === 'function') {
    builtIn();
    return;
  }
  // A plain check or codemod (src/cli/plain-check.ts) loads no CommonJS but the compiler, which has its own cache.
  if (plainCommand) return;
  try {
    createRequire(resolveFrom)('v8-compile-cache');
  } catch {
    // not installed: start-up compiles as usual
  }
}
