import path from 'node:path';
import { displayPath } from '../format-diagnostics.js';
import { UserError } from '../diagnostics.js';
import { locateKey } from '../scan/tsconfig.js';
import { emittedPath, type JsBlocker, type TscProgram } from '../scan/tsc-build.js';

/**
 * init's refusal when a JavaScript generated module (some tool file is plain JavaScript) would be
 * imported by TypeScript files that the package's tsc builds into an outDir it does not copy the
 * module into (`jsBlocker`: allowJs off, the module outside `include`, declarations on), and where
 * no folder of the package is reached by the same relative path from a source and from its built
 * copy (`rootDir: .`, a composite project with no rootDir, an outDir outside the package). Writing
 * it anyway would let the codemod break the built app; the user changes the build (or writes the
 * manifest) instead. The hint names every setting tsc needs to copy the module, or none when it
 * cannot (a composite project writes declarations).
 */
export function unreachableBuildError(
  build: { program: TscProgram; blocker: JsBlocker; module: string },
  packageDir: string,
  tsFiles: string[],
  jsFiles: string[],
  cwd: string,
): UserError {
  const { program, blocker } = build;
  const shown = (p: string, dir = false) => `${displayPath(p, cwd)}${dir ? '/' : ''}`;
  const importer = tsFiles.find((f) => program.files.has(path.resolve(f))) ?? tsFiles[0]!;
  const outside = path.relative(path.resolve(packageDir), program.outDir).startsWith('..');
  const config = shown(program.tsconfig);
  const module = shown(build.module);
  const why: Record<JsBlocker, string> = {
    allowJs: 'without allowJs',
    include: `with allowJs, but its include does not take ${module} (an import of it resolves to the declaration file beside it, which tsc does not emit)`,
    declaration: `with allowJs and declarations on, which tsc cannot write for the generated JavaScript`,
  };
  const more = jsFiles.length > 1 ? ` and ${jsFiles.length - 1} more JavaScript file${jsFiles.length > 2 ? 's' : ''}` : '';
  const declare = `${more} declare${jsFiles.length > 1 ? '' : 's'}`;
  const message =
    `tsc (${config}) builds ${shown(program.rootDir, true)} to ${shown(program.outDir, true)} ${why[blocker]}, and no folder of the package is imported by the same ` +
    `relative path from the TypeScript tool files and from their build (${shown(importer)} runs as ${shown(emittedPath(program, importer))}); the generated module must be ` +
    `JavaScript (${shown(jsFiles[0]!)}${declare} tools and would import it), tsc would not copy it into the build, and the built app would not start`;
  const included = path.relative(path.dirname(program.tsconfig), build.module).split(path.sep).join('/');
  const steps = [
    ...(program.allowJs ? [] : ['set "allowJs": true']),
    ...(program.declares ? ['set "declaration": false'] : []),
    ...(program.covers(build.module) ? [] : [`add "${included}" to "include"`]),
  ];
  const listed = steps.length > 1 ? `${steps.slice(0, -1).join(', ')} and ${steps.at(-1)}` : steps[0];
  // a composite project always writes declarations, so allowJs cannot carry the module
  const copy = program.composite
    ? 'A composite project writes declarations, which tsc cannot write for the generated JavaScript: '
    : listed
      ? `${listed[0]!.toUpperCase()}${listed.slice(1)} in ${config} (tsc then copies the module into the build), or `
      : '';
  const siblings = `make rootDir and outDir sibling folders${outside ? ' inside the package' : ''} ("rootDir": "src", "outDir": "dist")`;
  const hint = `${outside ? `its outDir is outside the package. ` : ''}${copy}${siblings}, then run init again`;
  const at = locateKey(program.tsconfig, blocker === 'declaration' ? 'declaration' : blocker === 'include' ? 'include' : 'outDir');
  const summary = `init: the TypeScript build of ${path.resolve(packageDir) === path.resolve(cwd) ? 'this package' : shown(packageDir)} would not carry a JavaScript generated module; nothing was written`;
  return new UserError(summary, [{ severity: 'error', file: program.tsconfig, ...at, message, hint, code: 'unreachable-build' }]);
}
