import { readFileSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../diagnostics.js';
import { displayPath } from '../format-diagnostics.js';
import { locateKey } from './tsconfig.js';

/** A package whose start script has Node run a TypeScript file as it is (type stripping): `node src/main.ts`. */
export interface NodeRunsTs {
  packageJson: string;
  /** The start script, as written. */
  start: string;
}

// `node [options] <file>.ts|.mts|.cts` at the start of the script or after `&&`, `;`, `|`
const NODE_TS = /(?:^|[;&|]\s*)node(?:\s+--?[\w-]+(?:=\S+)?)*\s+["']?[^\s"';&|]+\.[cm]?ts\b/;

/** The start script of `packageDir`'s package.json when it runs a `.ts`/`.mts`/`.cts` file with `node`; undefined otherwise. */
export function nodeRunsTs(packageDir: string): NodeRunsTs | undefined {
  const packageJson = path.join(packageDir, 'package.json');
  let start: unknown;
  try {
    start = (JSON.parse(readFileSync(packageJson, 'utf8')) as { scripts?: Record<string, unknown> }).scripts?.start;
  } catch {
    return undefined;
  }
  return typeof start === 'string' && NODE_TS.test(start) ? { packageJson, start } : undefined;
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
    `${displayPath(runs.packageJson, cwd)} starts the app with \`${runs.start}\`: Node runs the TypeScript as it is and loads a relative import only by the ` +
    `file's own name (./ctrlrun.generated.ts), but ${displayPath(config, cwd)} has tsc accept a TypeScript file's import only ${written}, ` +
    'which Node cannot load (ERR_MODULE_NOT_FOUND); no import works for both';
  const hint = `Set "allowImportingTsExtensions": true (with "noEmit": true) in ${displayPath(config, cwd)}, so the imports name the .ts file, which tsc and Node both load; then run this again`;
  return new UserError(`${what}: the app's imports would not load under Node; nothing was written`, [
    { severity: 'error', file: config, ...locateKey(config, 'compilerOptions'), message, hint, code: 'unloadable-import' },
  ]);
}
