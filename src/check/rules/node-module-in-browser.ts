import path from 'node:path';
import { browserSideFiles } from '../../scan/browser-target.js';
import { isGeneratedSpecifier } from '../../scan/imports.js';
import type { ModuleImport } from '../../scan/types.js';
import type { Finding, ProjectContext, RepoFacts, RuleMeta, ScannedFile } from '../types.js';
import { findingOf } from './rule-finding.js';

export const nodeModuleInBrowserMeta: RuleMeta = {
  id: 'node-module-in-browser',
  severity: 'error',
  short: 'Code that runs in a browser imports a Node-only module, or the generated module with a Node-only control.',
  full:
    'A Vite app, a package with a `browser` field or export condition, a client component (`\'use client\'`) and a file that runs a realtime session (`RealtimeSession`, `RealtimeAgent`) run in a browser, and so does every file they import. There a `node:` module, the SQLite or Postgres store (`ctrlrun-gen/runtime/sqlite`, `ctrlrun-gen/runtime/postgres`) or their drivers do not load: `vite build` fails (`"existsSync" is not exported by "__vite-browser-external"`) though `tsc` and the tests pass. Reported at the browser file\'s import: of the Node-only module itself, or of the generated module when the control it loads imports one (the control\'s line is named). In a browser package, files of a `server/`, `api/` or `scripts/` folder, `*.server.*` files and build configs are taken to run on the server.',
  help: 'Give the control the browser-safe store: `store: httpStore({ url, token })` from \'ctrlrun-gen/runtime\' against `npx ctrlrun-gen serve --cors-origin <your app\'s origin>` (init writes it for a browser package), or move the Node-only code to the server.',
};

/** Modules that load only in Node: `node:` builtins, this package's Node stores and their drivers. */
export function isNodeOnly(specifier: string): boolean {
  return specifier.startsWith('node:') || /^ctrlrun-gen\/runtime\/(?:sqlite|postgres)(?:\/|$)/.test(specifier) || specifier === 'better-sqlite3' || specifier === 'pg';
}

const nodeOnlyImports = (imports: readonly ModuleImport[] | undefined): ModuleImport[] => (imports ?? []).filter((imp) => !imp.typeOnly && isNodeOnly(imp.module));

/**
 * `node-module-in-browser` (error, repo-wide): code that runs in a browser (see
 * src/scan/browser-target.ts) imports a Node-only module, or imports the generated module while the
 * control it loads imports one (the SQLite control in a Vite app: `vite build` fails on
 * `existsSync`). Located at the browser file's import; the control's line is named.
 */
export function nodeModuleInBrowserRule(files: ScannedFile[], project: ProjectContext | undefined, facts?: RepoFacts): Finding[] {
  if (!project) return [];
  const root = project.manifest.root;
  const texts = new Map(files.map((f) => [f.scan.file, f]));
  const browser = browserSideFiles(
    files.map((f) => f.scan).filter((s) => !s.parseError),
    root,
    (rel) => texts.get(rel)?.text(),
    facts?.packages,
  );
  if (browser.size === 0) return [];
  const controlRel = path.relative(root, project.manifest.control).split(path.sep).join('/');
  const control = files.find((f) => f.scan.file === controlRel)?.scan;
  const controlNodeOnly = control ? nodeOnlyImports(control.moduleImports)[0] : undefined;
  const output = path.resolve(project.manifest.output);
  const findings: Finding[] = [];
  for (const { scan } of files) {
    const why = browser.get(scan.file);
    if (why === undefined) continue;
    for (const imp of nodeOnlyImports(scan.moduleImports)) {
      findings.push(findingOf(nodeModuleInBrowserMeta, scan.file, imp.span, `'${imp.module}' loads only in Node, and this file runs in a browser: ${why}. The bundle fails to build or the page fails to load.`, nodeModuleInBrowserMeta.help));
    }
    if (!controlNodeOnly || scan.file === controlRel) continue;
    const fileAbs = path.resolve(root, scan.file);
    const generated = (scan.moduleImports ?? []).find((imp) => !imp.typeOnly && isGeneratedSpecifier(imp.module, { generatedModule: output, fileAbs }));
    if (!generated) continue;
    findings.push(
      findingOf(
        nodeModuleInBrowserMeta,
        scan.file,
        generated.span,
        `this file runs in a browser (${why}) and imports the generated module, whose control ${controlRel} imports '${controlNodeOnly.module}' (line ${controlNodeOnly.span.line}), which loads only in Node: the bundle fails to build (Vite: "is not exported by __vite-browser-external").`,
        nodeModuleInBrowserMeta.help,
      ),
    );
  }
  return findings;
}
