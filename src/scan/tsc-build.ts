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
 * from scripts beside them: the module and the control go there. Otherwise the build cannot reach
 * it and init says so.
 */
export type TscBuild =
  /** The TS tool files are built by tsc to outDir; `folder` (relative to the package, `''` or `x/`) is reached from both trees. */
  | { kind: 'beside'; folder: string; rootDir: string; outDir: string }
  /** Built to outDir, but no folder is reached alike from both trees. */
  | { kind: 'unreachable'; rootDir: string; outDir: string; tsconfig: string }
  | undefined;

/** The tsconfig `npm run build` hands tsc (`tsc -p <file>`/`--project <file>`), else tsconfig.json. */
function buildConfig(packageDir: string): string | undefined {
  let named: string | undefined;
  try {
    const pkg = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { scripts?: Record<string, unknown> };
    const build = pkg.scripts?.build;
    const m = typeof build === 'string' ? /\btsc\b[^&|;]*?\s(?:-p|--project)\s+(\S+)/.exec(build) : null;
    if (m) named = path.join(packageDir, m[1]!);
  } catch {
    // no readable package.json: the default config
  }
  if (named && existsSync(named) && !named.endsWith('.json')) named = path.join(named, 'tsconfig.json');
  const config = named ?? path.join(packageDir, 'tsconfig.json');
  return existsSync(config) ? config : undefined;
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

/** What the package's own tsc build emits: sources under `rootDir` go to `outDir`, JavaScript is not copied. */
export interface TscProgram {
  tsconfig: string;
  rootDir: string;
  outDir: string;
  /** The program's input files (absolute). */
  files: ReadonlySet<string>;
}

/**
 * The build of `packageDir` when tsc emits into an outDir with `allowJs` off (not `noEmit`, not
 * declarations only); undefined otherwise, or when the config does not parse.
 */
export function tscProgram(packageDir: string): TscProgram | undefined {
  const config = buildConfig(packageDir);
  const parsed = config === undefined ? undefined : parse(config);
  if (!config || !parsed) return undefined;
  const { outDir, allowJs, noEmit, emitDeclarationOnly } = parsed.options;
  if (outDir === undefined || allowJs === true || noEmit === true || emitDeclarationOnly === true) return undefined;
  const rootDir = parsed.options.rootDir !== undefined ? path.resolve(parsed.options.rootDir) : commonSourceDir(parsed.fileNames);
  if (rootDir === undefined) return undefined;
  return { tsconfig: config, rootDir, outDir: path.resolve(outDir), files: new Set(parsed.fileNames.map((f) => path.resolve(f))) };
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
 * How the package's build treats a JavaScript generated module imported by `tsFiles` (absolute
 * TypeScript tool files): undefined when tsc does not build them into an outDir without allowJs
 * (no tsconfig, `noEmit`, `allowJs`, or none of them is in the program).
 */
export function tscBuild(packageDir: string, tsFiles: string[]): TscBuild {
  const program = tsFiles.length === 0 ? undefined : tscProgram(packageDir);
  if (!program || !tsFiles.some((f) => program.files.has(path.resolve(f)))) return undefined;
  const { rootDir, outDir } = program;
  const parent = path.dirname(rootDir);
  if (rootDir !== outDir && path.dirname(outDir) === parent && inside(path.resolve(packageDir), parent)) {
    const rel = path.relative(packageDir, parent).split(path.sep).join('/');
    return { kind: 'beside', folder: rel === '' ? '' : `${rel}/`, rootDir, outDir };
  }
  return { kind: 'unreachable', rootDir, outDir, tsconfig: program.tsconfig };
}
