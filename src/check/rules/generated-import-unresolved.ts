import { existsSync } from 'node:fs';
import path from 'node:path';
import { isGeneratedSpecifier } from '../../scan/imports.js';
import { type NodeRunsTs, nodeRunsTs } from '../../scan/node-runs-ts.js';
import { emittedPath, type JsBlocker, jsBlocker, tscPrograms, type TscProgram } from '../../scan/tsc-build.js';
import type { FileScan } from '../../scan/types.js';
import { nearestDenoConfig } from '../../scan/deno-import-map.js';
import type { FileRule, Finding, ProjectContext, RuleMeta } from '../types.js';
import { findingOf } from './rule-finding.js';

export const generatedImportUnresolvedMeta: RuleMeta = {
  id: 'generated-import-unresolved',
  severity: 'error',
  short: 'An import of the generated module names a file that does not exist where the importer runs.',
  full: "The codemod makes a file import `protectedTool` (or another door function) from the generated module. A plain JavaScript file runs as it is: Node loads exactly the path written, so `import ... from \"./ctrlrun.generated.js\"` fails with ERR_MODULE_NOT_FOUND when the module is TypeScript (`ctrlrun.generated.ts`), though every type check passes. A TypeScript file resolves `.js` to `.ts`, `.mjs` to `.mts` and their declaration files, as tsc does. Reported when the generated module exists and the import resolves to no file; an import through a path alias is not followed. An `.mjs` file is an ES module that Node runs as it is, so its import must name the file exactly (`'../ctrlrun.generated'` is reported; a CommonJS `require` or a bundled `.js` file may leave the extension out). A TypeScript file below a `deno.json` or `deno.jsonc` (the nearest config, unless a tsconfig is nearer) runs in Deno, which loads a relative import only by the file's own name: `./ctrlrun.generated.js` or no extension is reported there. Also reported: a TypeScript importer of a JavaScript module that the package's own tsc (its build script's `-p` config or the projects `tsc -b` builds, following project references, else tsconfig.json) compiles into an `outDir` without copying the module (tsc copies JavaScript only with `allowJs`, only a file its `include` takes, since an import resolves to the `.d.ts` beside the module, and fails on it when it writes declarations), when the same specifier from the emitted file names no file: tsc reads the module's declarations but does not copy the module into the build.",
  help: "Make the generated module JavaScript when a JavaScript file imports it: `output: src/ctrlrun.generated.mjs` and a JavaScript `control:` in ctrlrun.tools.yaml, then `npx ctrlrun-gen generate` (init chooses so when an importer is JavaScript); or fix the import's path. In a package Node runs as TypeScript, name the `.ts` file and set `allowImportingTsExtensions: true` (with `noEmit`) in the tsconfig.",
};

const JS_IMPORTER = /\.(?:js|mjs|cjs|jsx)$/;

/** The files a specifier may load from an importer: what Node loads for plain JavaScript, what tsc resolves for TypeScript. */
export function candidatesFor(importerIsJs: boolean, target: string, exact = false): string[] {
  const written = path.extname(target);
  const ext = /^\.(?:[cm]?[jt]sx?|json)$/.test(written) ? written : '';
  const stem = target.slice(0, target.length - ext.length);
  const withIndex = (exts: string[]) => [...exts.map((e) => `${target}${e}`), ...exts.map((e) => path.join(target, `index${e}`))];
  if (importerIsJs) {
    // An ES module loads the exact path; `require` and bundlers also try these extensions when none is written.
    return ext === '' && !exact ? withIndex(['.js', '.mjs', '.cjs', '.jsx', '.json']) : [target];
  }
  switch (ext) {
    case '.js':
    case '.jsx':
      return [`${stem}.ts`, `${stem}.tsx`, `${stem}.d.ts`, target];
    case '.mjs':
      return [`${stem}.mts`, `${stem}.d.mts`, target];
    case '.cjs':
      return [`${stem}.cts`, `${stem}.d.cts`, target];
    case '':
      return withIndex(['.ts', '.tsx', '.d.ts', '.js', '.jsx']);
    default:
      return [target];
  }
}

/**
 * `generated-import-unresolved` (error): an import (or require) of the generated module, by a
 * relative specifier, that loads no file from this importer. `exists` is the file system's answer
 * (passed in so the rule's logic stays a function of its inputs).
 */
export function generatedImportUnresolvedRule(exists: (file: string) => boolean = existsSync): FileRule {
  const programs = new Map<string, TscProgram[]>();
  // the program of the package's build (a project it references, for `tsc -b`) that compiles the importer
  const programOf = (root: string, importer: string): TscProgram | undefined => {
    if (!programs.has(root)) programs.set(root, tscPrograms(root));
    return programs.get(root)!.find((p) => p.files.has(importer));
  };
  const starts = new Map<string, NodeRunsTs | undefined>();
  const nodeRunsFor = (root: string): NodeRunsTs | undefined => {
    if (!starts.has(root)) starts.set(root, nodeRunsTs(root));
    return starts.get(root);
  };
  return (scan: FileScan, project: ProjectContext | undefined): Finding[] => {
    if (!project) return [];
    const output = path.resolve(project.manifest.output);
    if (!exists(output)) return []; // stale-generated reports a missing module
    const importer = path.resolve(project.manifest.root, scan.file);
    const isJs = JS_IMPORTER.test(scan.file);
    const findings: Finding[] = [];
    for (const imp of scan.moduleImports ?? []) {
      const spec = imp.module;
      if (imp.typeOnly || !(spec.startsWith('./') || spec.startsWith('../'))) continue;
      if (!isGeneratedSpecifier(spec, { generatedModule: output, fileAbs: importer })) continue;
      const target = path.resolve(path.dirname(importer), spec);
      // an .mjs file is an ES module, which Node runs as it is: the exact path or nothing; so is TypeScript that Node runs as it is
      const nodeRuns = isJs ? undefined : nodeRunsFor(project.manifest.root);
      // Deno (a folder below a deno.json) loads a relative import only by the file's own name, as Node running TypeScript does
      const deno = isJs ? undefined : denoConfigOf(path.dirname(importer), project.manifest.root, exists);
      const exact = scan.file.endsWith('.mjs') || nodeRuns !== undefined || deno !== undefined;
      if ((nodeRuns || deno ? [target] : candidatesFor(isJs, target, exact)).some(exists)) {
        const built =
          isJs || /\.(?:ts|tsx|mts|cts)$/.test(output)
            ? undefined
            : notInBuild(programOf(path.resolve(project.manifest.root), importer), importer, spec, output, exists, project.manifest.root);
        if (built) findings.push(findingOf(generatedImportUnresolvedMeta, scan.file, imp.span, built, BUILD_HELP));
        continue;
      }
      const shown = path.relative(project.manifest.root, output).split(path.sep).join('/');
      const why =
        isJs && /\.(?:ts|tsx|mts|cts)$/.test(output)
          ? `the generated module is ${shown}, TypeScript, which a plain JavaScript file cannot load`
          : deno
            ? `the generated module is ${shown}, and this file is below ${path.relative(project.manifest.root, deno).split(path.sep).join('/')}: Deno loads a relative import only by the file's own name (\`.ts\`)`
            : nodeRuns
              ? `the generated module is ${shown}, and the package runs \`${nodeRuns.command}\` (its \`${nodeRuns.script}\` script): Node runs this TypeScript as it is and loads an import only by the file's own name`
              : `the generated module is ${shown}`;
      findings.push(
        findingOf(
          generatedImportUnresolvedMeta,
          scan.file,
          imp.span,
          `'${spec}' loads no file from this ${isJs ? 'JavaScript' : 'TypeScript'} file: ${why}; the app fails to start (ERR_MODULE_NOT_FOUND).`,
          generatedImportUnresolvedMeta.help,
        ),
      );
    }
    return findings;
  };
}

/**
 * The Deno config that decides how the files of `dir` import (the codemod's rule, scan/specifier.ts):
 * the nearest `deno.json`/`deno.jsonc` up to `root`, unless a tsconfig or jsconfig is nearer.
 */
function denoConfigOf(dir: string, root: string, exists: (file: string) => boolean): string | undefined {
  return nearestDenoConfig(dir, root, exists, (at) => ['tsconfig.json', 'jsconfig.json'].some((n) => exists(path.join(at, n))));
}

const BUILD_HELP =
  "Put the JavaScript module and its control in the folder that holds both the sources and tsc's outDir (`output: ctrlrun.generated.js`, `control: ctrlrun.control.js` in ctrlrun.tools.yaml when `src/` builds to `dist/`; init chooses so), let tsc copy it (`allowJs: true`, an `include` that takes the module, declarations off), or copy the module into the build.";

const NOT_COPIED: Record<JsBlocker, string> = {
  allowJs: 'no allowJs',
  include: 'allowJs, but its include does not take the module',
  declaration: 'allowJs, but declarations on',
};

/**
 * A TypeScript importer of a JavaScript generated module that the package's tsc builds into an
 * outDir without copying the module (`jsBlocker`): the built file's import (the same specifier,
 * from the emitted file's folder) must reach it where it is. The message, or undefined.
 */
function notInBuild(
  program: TscProgram | undefined,
  importer: string,
  spec: string,
  output: string,
  exists: (file: string) => boolean,
  root: string,
): string | undefined {
  if (!program?.files.has(importer)) return undefined;
  const blocker = jsBlocker(program, output);
  if (blocker === undefined) return undefined;
  const emitted = emittedPath(program, importer);
  const target = path.resolve(path.dirname(emitted), spec);
  if (candidatesFor(true, target).some(exists)) return undefined;
  const shown = (p: string) => path.relative(root, p).split(path.sep).join('/');
  return `tsc (${shown(program.tsconfig)}, ${NOT_COPIED[blocker]}) builds this file to ${shown(emitted)}, where '${spec}' names ${shown(target)}: tsc does not copy the JavaScript generated module there, so the built app fails to start (ERR_MODULE_NOT_FOUND).`;
}
