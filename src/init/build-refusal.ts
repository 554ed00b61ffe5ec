import { readFileSync } from 'node:fs';
import path from 'node:path';
import { displayPath } from '../format-diagnostics.js';
import { UserError } from '../diagnostics.js';
import { emittedPath, type TscProgram } from '../scan/tsc-build.js';

/**
 * init's refusal when a JavaScript generated module (some tool file is plain JavaScript) would be
 * imported by TypeScript files that the package's tsc builds into an outDir where no folder of the
 * package is reached by the same relative path from a source and from its built copy (`rootDir: .`,
 * a composite project with no rootDir, an outDir outside the package). Writing it anyway would let
 * the codemod break the built app; the user changes the build (or writes the manifest) instead.
 */
export function unreachableBuildError(program: TscProgram, packageDir: string, tsFiles: string[], jsFiles: string[], cwd: string): UserError {
  const shown = (p: string, dir = false) => `${displayPath(p, cwd)}${dir ? '/' : ''}`;
  const importer = tsFiles.find((f) => program.files.has(path.resolve(f))) ?? tsFiles[0]!;
  const outside = path.relative(path.resolve(packageDir), program.outDir).startsWith('..');
  const config = shown(program.tsconfig);
  const message =
    `tsc (${config}) builds ${shown(program.rootDir, true)} to ${shown(program.outDir, true)} without allowJs, and no folder of the package is imported by the same ` +
    `relative path from the TypeScript tool files and from their build (${shown(importer)} runs as ${shown(emittedPath(program, importer))}); the generated module must be ` +
    `JavaScript (${shown(jsFiles[0]!)}${jsFiles.length > 1 ? ` and ${jsFiles.length - 1} more JavaScript file${jsFiles.length > 2 ? 's' : ''}` : ''} import${jsFiles.length > 1 ? '' : 's'} it), ` +
    'tsc would not copy it into the build, and the built app would not start';
  const hint =
    `${outside ? `its outDir is outside the package. ` : ''}Set "allowJs": true in ${config} (tsc then copies the module into the build), ` +
    `or make rootDir and outDir sibling folders${outside ? ' inside the package' : ''} ("rootDir": "src", "outDir": "dist"), then run init again`;
  const at = locate(program.tsconfig, 'outDir');
  const summary = `init: the TypeScript build of ${path.resolve(packageDir) === path.resolve(cwd) ? 'this package' : shown(packageDir)} would not carry a JavaScript generated module; nothing was written`;
  return new UserError(summary, [{ severity: 'error', file: program.tsconfig, ...at, message, hint, code: 'unreachable-build' }]);
}

/** The line and column of `"key"` in a config's text; its first line when the key is inherited (`extends`). */
function locate(file: string, key: string): { line: number; column: number } {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { line: 1, column: 1 };
  }
  const at = text.indexOf(`"${key}"`);
  if (at < 0) return { line: 1, column: 1 };
  const before = text.slice(0, at).split('\n');
  return { line: before.length, column: before.at(-1)!.length + 1 };
}
