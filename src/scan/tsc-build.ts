import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ts } from 'ts-morph';
import { typescript } from '../scan/typescript.js';

/**
 * Where a JavaScript generated module goes when the package's TypeScript half is built by its own
 * `tsc` into an `outDir` with `allowJs` off (issue 21 item 2). tsc reads the module's declarations
 * but never copies the `.js` into `outDir`, so `node dist/server.js` would not find
 * `dist/ctrlrun.generated.js`. When `rootDir` (as tsc computes it) and `outDir` are siblings, a
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
  | { kind: 'unreachable'; program: TscProgram }
  | undefined;

/**
 * The tsconfigs `npm run build` hands tsc: `tsc -p <file>`/`--project <file>`, or the projects of
 * `tsc -b`/`--build [<project>…]` (the package's tsconfig.json when none is named); else tsconfig.json.
 */
function buildConfigs(packageDir: string): string[] {
  let named: string[] = [];
  try {
    const pkg = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { scripts?: Record<string, unknown> };
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

function parse(config: string): ts.ParsedCommandLine | undefined {
  const read = typescript.readConfigFile(config, typescript.sys.readFile);
  if (read.error) return undefined;
  const parsed = typescript.parseJsonConfigFileContent(read.config, typescript.sys, path.dirname(config), undefined, config);
  return parsed;
}

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

/** What one tsc program of the package's build emits: sources under `rootDir` go to `outDir`, JavaScript is not copied. */
export interface TscProgram {
  tsconfig: string;
  rootDir: string;
  outDir: string;
  /** The program's input files (absolute). */
  files: ReadonlySet<string>;
}

/** One config's program when it emits into an outDir with `allowJs` off (not `noEmit`, not declarations only). */
function programOf(config: string, parsed: ts.ParsedCommandLine): TscProgram | undefined {
  const { outDir, allowJs, noEmit, emitDeclarationOnly, rootDir: set, composite } = parsed.options;
  if (outDir === undefined || allowJs === true || noEmit === true || emitDeclarationOnly === true) return undefined;
  // tsc's own default: a composite project's rootDir is its config's folder, else the common folder of the inputs
  const rootDir = set !== undefined ? path.resolve(set) : composite === true ? path.dirname(path.resolve(config)) : commonSourceDir(parsed.fileNames);
  if (rootDir === undefined) return undefined;
  return { tsconfig: config, rootDir, outDir: path.resolve(outDir), files: new Set(parsed.fileNames.map((f) => path.resolve(f))) };
}

/**
 * The programs of `packageDir`'s build that emit into an outDir with `allowJs` off: the build's
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
    for (const ref of parsed.projectReferences ?? []) visit(ref.path);
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
 * How the package's build treats a JavaScript generated module imported by `tsFiles` (absolute
 * TypeScript tool files): undefined when no program of its tsc build holds one of them and emits
 * into an outDir without allowJs. Otherwise the first folder of the package reached alike from
 * every such program's sources and build: `preferred` (relative, `''` or `x/`), the parent of a
 * program's rootDir, the package folder; or the program no folder of the package serves.
 */
export function tscBuild(packageDir: string, tsFiles: string[], preferred?: string): TscBuild {
  const programs = tsFiles.length === 0 ? [] : tscPrograms(packageDir).filter((p) => tsFiles.some((f) => p.files.has(path.resolve(f))));
  if (programs.length === 0) return undefined;
  const pkg = path.resolve(packageDir);
  const candidates = [...(preferred !== undefined ? [path.join(pkg, preferred)] : []), ...programs.map((p) => path.dirname(p.rootDir)), pkg].filter((c) =>
    inside(pkg, c),
  );
  const folder = candidates.find((c) => programs.every((p) => reachedAlike(p, c)));
  if (folder !== undefined) {
    const rel = path.relative(pkg, folder).split(path.sep).join('/');
    return { kind: 'beside', folder: rel === '' ? '' : `${rel}/`, programs };
  }
  return { kind: 'unreachable', program: programs.find((p) => !candidates.some((c) => reachedAlike(p, c))) ?? programs[0]! };
}
