import path from 'node:path';
import { UserError } from '../diagnostics.js';
import { displayPath } from '../format-diagnostics.js';
import { locateKey } from './tsconfig.js';
import { readRegularText } from '../safe-read.js';

/** A package whose script has Node run a TypeScript file as it is (type stripping): `node src/main.ts`. */
export interface NodeRunsTs {
  packageJson: string;
  /** The script's name (`start`, `dev`, `dev:api`). */
  script: string;
  /** The script, as written. */
  command: string;
}

/**
 * The scripts that run the package's own modules under Node, so that Node loads the imports we
 * write: the app started (`start`, `dev`, `serve`, `watch`, `preview`) or its tests (`test`), and
 * their variants (`dev:api`, `test:unit`). Not `build` or a tool's script (`node scripts/build.ts`
 * that bundles the app): Node runs that script, not the app's modules, and a refusal there would
 * ask a bundler app to change its tsconfig for nothing. In this order when several match.
 */
export const RUN_SCRIPTS = ['start', 'dev', 'serve', 'watch', 'preview', 'test'] as const;

// `node [options] <file>.ts|.mts|.cts` at the start of the script or after `&&`, `;`, `|`
const NODE_TS = /(?:^|[;&|]\s*)node(?:\s+--?[\w-]+(?:=\S+)?)*\s+["']?[^\s"';&|]+\.[cm]?ts\b/;

/** The first script of `RUN_SCRIPTS` in `packageDir`'s package.json that runs a `.ts`/`.mts`/`.cts` file with `node`; undefined when none does. */
export function nodeRunsTs(packageDir: string): NodeRunsTs | undefined {
  const packageJson = path.join(packageDir, 'package.json');
  let scripts: unknown;
  try {
    scripts = (JSON.parse(readRegularText(packageJson)) as { scripts?: unknown }).scripts;
  } catch {
    return undefined;
  }
  if (typeof scripts !== 'object' || scripts === null) return undefined;
  const rank = (name: string): number => (RUN_SCRIPTS as readonly string[]).indexOf(name.split(':')[0]!);
  const matched = Object.entries(scripts)
    .filter((e): e is [string, string] => rank(e[0]) >= 0 && typeof e[1] === 'string' && NODE_TS.test(e[1]))
    .sort((a, b) => rank(a[0]) - rank(b[0]));
  const [first] = matched;
  return first ? { packageJson, script: first[0], command: first[1] } : undefined;
}

/**
 * The refusal when the module settings make an import of a TypeScript module that Node cannot load
 * (see `ModuleSettings.nodeRunsTs`): Node's type stripping finds a relative import only by the file's
 * own name (`./ctrlrun.generated.ts`), while the tsconfig has tsc refuse that name (TS5097)
 * without `allowImportingTsExtensions`. No specifier works for both, so nothing is written; `what`
 * says which command refuses and why it needs the import.
 */
export function unloadableImportError(
  runs: NodeRunsTs,
  settings: { tsconfig?: string; extension: 'js' | 'ts' | 'none' },
  what: string,
  cwd: string,
): UserError {
  const config = settings.tsconfig ?? path.join(path.dirname(runs.packageJson), 'tsconfig.json');
  const written = settings.extension === 'js' ? 'with a .js extension' : 'without an extension';
  const message =
    `${displayPath(runs.packageJson, cwd)} runs \`${runs.command}\` (its \`${runs.script}\` script): Node runs the TypeScript as it is and loads a relative import only by the ` +
    `file's own name (./ctrlrun.generated.ts), but ${displayPath(config, cwd)} has tsc accept a TypeScript file's import only ${written}, ` +
    'which Node cannot load (ERR_MODULE_NOT_FOUND); no import works for both';
  const hint = `Set "allowImportingTsExtensions": true (with "noEmit": true) in ${displayPath(config, cwd)}, so the imports name the .ts file, which tsc and Node both load; then run this again`;
  return new UserError(`${what}: the app's imports would not load under Node; nothing was written`, [
    { severity: 'error', file: config, ...locateKey(config, 'compilerOptions'), message, hint, code: 'unloadable-import' },
  ]);
}
