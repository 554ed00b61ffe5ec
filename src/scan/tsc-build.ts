import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ts } from 'ts-morph';
import { readConfigText } from './tsconfig.js';
import { typescript } from './typescript.js';
import { readRegularText } from '../safe-read.js';

/**
 * Where a JavaScript generated module goes when the package's TypeScript half is built by its own
 * `tsc` into an `outDir` and does not copy it (issue 21 item 2; `allowJs` off, or see `jsBlocker`).
 * tsc reads the module's declarations but never copies the `.js` into `outDir`, so
 * `node dist/server.js` would not find `dist/ctrlrun.generated.js`. When `rootDir` (as tsc computes it) and `outDir` are siblings, a
 * file in their parent folder is reached by the same relative specifier from a source file and
 * from its emitted copy (`src/a/x.ts` and `dist/a/x.js` both say `../../ctrlrun.generated.js`), and
 * from scripts beside them: the module and the control go there. With project references
 * (`tsc -b`) every referenced program that compiles a tool file must reach the one folder. When
 * none is reached alike (`rootDir: .`, an outDir outside the package) init refuses.
 */
export type TscBuild =
  /** The TS tool files are built by tsc to outDirs; `folder` (relative to the package, `''` or `x/`) is reached alike from each program's sources and build. */
  | { kind: 'beside'; folder: string; programs: TscProgram[] }
  /** Built to an outDir, but no folder of the package is reached alike from this program's sources and its build. */
  | { kind: 'unreachable'; program: TscProgram; blocker: JsBlocker; module: string }
  | undefined;

/**
 * The tsconfigs `npm run build` hands tsc: `tsc -p <file>`/`--project <file>`, or the projects of
 * `tsc -b`/`--build [<project>…]` (the package's tsconfig.json when none is named); else tsconfig.json.
 */
export function buildConfigs(packageDir: string): string[] {
  let named: string[] = [];
  try {
    const pkg = JSON.parse(readRegularText(path.join(packageDir, 'package.json'))) as { scripts?: Record<string, unknown> };
    const build = pkg.scripts?.build;
    const m = typeof build === 'string' ? /\btsc\b[^&|;]*?\s(-p|--project|-b|--build)((?:\s+[^\s&|;]+)*)/.exec(build) : null;
    const args = (m?.[2] ?? '').split(/\s+/).filter((a) => a !== '');
    const options = args.findIndex((a) => a.startsWith('-'));
    const before = options === -1 ? args : args.slice(0, options);
    // -b builds every project named before the next option; -p takes one
    const projects = m?.[1] === '-b' || m?.[1] === '--build' ? before : before.slice(0, 1);
    named = projects.map((a) => path.join(packageDir, a));
  } catch {
    // no readable package.json: the default config
  }
  return named.length > 0 ? named : [path.join(packageDir, 'tsconfig.json')];
}

interface ParsedConfig {
  parsed: ts.ParsedCommandLine;
  /** Whether the config's `files`/`include` (less `exclude`) name `file`, existing or not, whatever its extension. */
  covers: (file: string) => boolean;
}

function parse(config: string): ParsedConfig | undefined {
  const read = typescript.readConfigFile(config, readConfigText);
  if (read.error) return undefined;
  // the include and exclude specs tsc matches files against, kept to ask later about a file not written yet
  let spec: Parameters<ts.ParseConfigHost['readDirectory']> | undefined;
  const host: ts.ParseConfigHost = {
    useCaseSensitiveFileNames: typescript.sys.useCaseSensitiveFileNames,
    fileExists: typescript.sys.fileExists,
    readFile: readConfigText,
    readDirectory: (...args) => {
      spec = args;
      return typescript.sys.readDirectory(...args);
    },
  };
  const parsed = typescript.parseJsonConfigFileContent(read.config, host, path.dirname(config), undefined, config);
  const listed = new Set(parsed.fileNames.map((f) => path.resolve(f)));
  return { parsed, covers: (file) => listed.has(path.resolve(file)) || (spec !== undefined && matchesSpec(spec, path.resolve(file))) };
}

/**
 * Whether tsc's include/exclude matching takes `file`: its own matcher (`matchFiles`, which
 * `sys.readDirectory` runs over the disk) over a file system holding only `file`, so the answer
 * is tsc's for a module init has not written yet. Not part of the compiler's typed API: when it
 * is missing, no file is taken (the caller then treats the module as not copied and refuses).
 */
function matchesSpec([root, , excludes, includes, depth]: Parameters<ts.ParseConfigHost['readDirectory']>, file: string): boolean {
  const matchFiles = (typescript as unknown as { matchFiles?: MatchFiles }).matchFiles;
  if (typeof matchFiles !== 'function') return false;
  const target = file.split(path.sep).join('/');
  const entries = (dir: string): { files: string[]; directories: string[] } => {
    const prefix = dir.endsWith('/') ? dir : `${dir}/`;
    if (!target.startsWith(prefix)) return { files: [], directories: [] };
    const [first, ...rest] = target.slice(prefix.length).split('/');
    return rest.length === 0 ? { files: [first!], directories: [] } : { files: [], directories: [first!] };
  };
  const found = matchFiles(root, undefined, excludes, includes, typescript.sys.useCaseSensitiveFileNames, root, depth, entries, (p) => p);
  return found.some((f) => path.resolve(f) === file);
}

type MatchFiles = (
  root: string,
  extensions: readonly string[] | undefined,
  excludes: readonly string[] | undefined,
  includes: readonly string[],
  useCaseSensitiveFileNames: boolean,
  currentDirectory: string,
  depth: number | undefined,
  entries: (dir: string) => { files: string[]; directories: string[] },
  realpath: (p: string) => string,
) => string[];

/** tsc's common source directory when `rootDir` is not set: the longest folder prefix of the non-declaration inputs. */
function commonSourceDir(files: string[]): string | undefined {
  const dirs = files.filter((f) => !/\.d\.[cm]?ts$/.test(f) && /\.[cm]?tsx?$/.test(f)).map((f) => path.dirname(path.resolve(f)).split(path.sep));
  if (dirs.length === 0) return undefined;
  let common = dirs[0]!;
  for (const d of dirs.slice(1)) {
    let i = 0;
    while (i < common.length && i < d.length && common[i] === d[i]) i++;
    common = common.slice(0, i);
  }
  return common.join(path.sep) || path.sep;
}

const inside = (dir: string, file: string): boolean => {
  const rel = path.relative(dir, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/** What one tsc program of the package's build emits: sources under `rootDir` go to `outDir`. */
export interface TscProgram {
  tsconfig: string;
  rootDir: string;
  outDir: string;
  /** The program's input files (absolute). */
  files: ReadonlySet<string>;
  allowJs: boolean;
  /** It writes declarations (`declaration` or `composite`): tsc cannot declare the generated JavaScript (TS9006, TS2742). */
  declares: boolean;
  /** A composite project (`tsc -b`): it always writes declarations. */
  composite: boolean;
  /** Whether its `files`/`include` take this file (absolute), written yet or not. */
  covers: (file: string) => boolean;
}

/**
 * Why `program` would not carry the JavaScript module `file` into its outDir, or undefined when it
 * does: tsc copies JavaScript only with `allowJs`, only a file its `include` takes (an import of the
 * module resolves to the `.d.ts` generate writes beside it, never to the `.js`), and fails on it when
 * it writes declarations.
 */
export type JsBlocker = 'allowJs' | 'include' | 'declaration';
export function jsBlocker(program: TscProgram, file: string): JsBlocker | undefined {
  if (!program.allowJs) return 'allowJs';
  if (!program.covers(file)) return 'include';
  return program.declares ? 'declaration' : undefined;
}

/** One config's program when it emits into an outDir (not `noEmit`, not declarations only). */
function programOf(config: string, { parsed, covers }: ParsedConfig): TscProgram | undefined {
  const { outDir, allowJs, noEmit, emitDeclarationOnly, rootDir: set, composite, declaration } = parsed.options;
  if (outDir === undefined || noEmit === true || emitDeclarationOnly === true) return undefined;
  // tsc's own default: a composite project's rootDir is its config's folder, else the common folder of the inputs
  const rootDir = set !== undefined ? path.resolve(set) : composite === true ? path.dirname(path.resolve(config)) : commonSourceDir(parsed.fileNames);
  if (rootDir === undefined) return undefined;
  const files = new Set(parsed.fileNames.map((f) => path.resolve(f)));
  return {
    tsconfig: config,
    rootDir,
    outDir: path.resolve(outDir),
    files,
    allowJs: allowJs === true,
    declares: declaration === true || composite === true,
    composite: composite === true,
    covers,
  };
}

/**
 * The programs of `packageDir`'s build that emit into an outDir: the build's
 * configs and, for project references (`tsc -b`, a solution config with `"files": []`), every
 * project they reference, transitively. Configs that do not parse are left out.
 */
export function tscPrograms(packageDir: string): TscProgram[] {
  const programs: TscProgram[] = [];
  const seen = new Set<string>();
  const visit = (config: string): void => {
    const file = existsSync(config) && !config.endsWith('.json') ? path.join(config, 'tsconfig.json') : config;
    if (seen.has(path.resolve(file)) || !existsSync(file)) return;
    seen.add(path.resolve(file));
    const parsed = parse(file);
    if (!parsed) return;
    const program = programOf(file, parsed);
    if (program) programs.push(program);
    for (const ref of parsed.parsed.projectReferences ?? []) visit(ref.path);
  };
  for (const config of buildConfigs(packageDir)) visit(config);
  return programs;
}

/** Where tsc writes the JavaScript of `source` (a file of the program). */
export function emittedPath(program: TscProgram, source: string): string {
  const rel = path.relative(program.rootDir, path.resolve(source));
  return path.join(
    program.outDir,
    rel.replace(/\.([cm]?)tsx?$/, (_m, c: string) => `.${c}js`),
  );
}

/**
 * A folder every source of `program` and its emitted copy name by the same relative path: outside
 * both trees, and as far from `rootDir` as from `outDir` (`src/a/x.ts` and `dist/a/x.js` both
 * reach the folder holding `src/` and `dist/` as `../..`).
 */
export function reachedAlike(program: TscProgram, folder: string): boolean {
  const { rootDir, outDir } = program;
  return !inside(rootDir, folder) && !inside(outDir, folder) && path.relative(rootDir, folder) === path.relative(outDir, folder);
}

/**
 * How the package's build treats a JavaScript generated module (`moduleName`) imported by `tsFiles`
 * (absolute TypeScript tool files): undefined when no program of its tsc build holds one of them
 * and emits into an outDir, or when every such program copies the module from where it would sit
 * (`preferred`, else beside the first tool file; see `jsBlocker`). Otherwise the first folder of
 * the package reached alike from every such program's sources and build, and whose module the
 * program does not take as an input (with `allowJs`, one its include takes is compiled, outside
 * rootDir): `preferred` (relative, `''` or `x/`), the parent of a program's rootDir, the package
 * folder; or the program no folder of the package serves, with why it does not copy the module.
 */
export function tscBuild(packageDir: string, tsFiles: string[], preferred?: string, moduleName = 'ctrlrun.generated.js'): TscBuild {
  const programs = tsFiles.length === 0 ? [] : tscPrograms(packageDir).filter((p) => tsFiles.some((f) => p.files.has(path.resolve(f))));
  if (programs.length === 0) return undefined;
  const pkg = path.resolve(packageDir);
  const stay = path.join(preferred !== undefined ? path.join(pkg, preferred) : path.dirname(path.resolve(tsFiles[0]!)), moduleName);
  if (programs.every((p) => jsBlocker(p, stay) === undefined)) return undefined;
  const candidates = [...(preferred !== undefined ? [path.join(pkg, preferred)] : []), ...programs.map((p) => path.dirname(p.rootDir)), pkg].filter((c) =>
    inside(pkg, c),
  );
  const serves = (p: TscProgram, c: string) => reachedAlike(p, c) && !(p.allowJs && p.covers(path.join(c, moduleName)));
  const folder = candidates.find((c) => programs.every((p) => serves(p, c)));
  if (folder !== undefined) {
    const rel = path.relative(pkg, folder).split(path.sep).join('/');
    return { kind: 'beside', folder: rel === '' ? '' : `${rel}/`, programs };
  }
  const unserved = programs.filter((p) => !candidates.some((c) => serves(p, c)));
  const program = unserved.find((p) => jsBlocker(p, stay) !== undefined) ?? unserved[0] ?? programs[0]!;
  return { kind: 'unreachable', program, blocker: jsBlocker(program, stay) ?? 'allowJs', module: stay };
}
