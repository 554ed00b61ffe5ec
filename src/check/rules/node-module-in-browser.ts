import path from 'node:path';
import { browserImports, browserSideFiles, isEdgeReason } from '../../scan/browser-target.js';
import { isComponentFile } from '../../scan/component-script.js';
import { isGeneratedSpecifier } from '../../scan/imports.js';
import { readSourceText } from '../../scan/repo.js';
import type { ModuleImport } from '../../scan/types.js';
import type { Finding, ProjectContext, RepoFacts, RuleMeta, ScannedFile } from '../types.js';
import { findingOf } from './rule-finding.js';

export const nodeModuleInBrowserMeta: RuleMeta = {
  id: 'node-module-in-browser',
  severity: 'error',
  short: 'Code that runs in a browser imports a Node-only module, or the generated module with a Node-only control.',
  full: "A Vite app, a package with a `browser` field or export condition, a client component (`'use client'`), a Vue or Svelte component, the `<script>` tags of an Astro component (its frontmatter runs on the server) and a file that runs a realtime session (`RealtimeSession`, `RealtimeAgent`) run in a browser, and so does every file they import. There a `node:` module, the SQLite or Postgres store (`ctrlrun-gen/runtime/sqlite`, `ctrlrun-gen/runtime/postgres`) or their drivers do not load: `vite build` fails (`\"existsSync\" is not exported by \"__vite-browser-external\"`) though `tsc` and the tests pass. Reported at the browser file's import: of the Node-only module itself, or of the generated module when the control it loads imports one (the control's line is named). In a browser package, files of a `server/`, `api/` or `scripts/` folder, `*.server.*` files (a Nuxt `*.server.vue` too) and build configs are taken to run on the server. An edge runtime has no Node builtins either: a file that declares `export const runtime = 'edge'` (a Next.js route or page) or `export const config = { runtime: 'edge' }` (a Vercel function), whether or not it names the SDK itself, Next.js middleware (`middleware.ts` at the root or in `src/` of a package that depends on `next`, unless its config says `runtime: 'nodejs'`), and every file of a Cloudflare Workers package (a `wrangler.toml`/`wrangler.json(c)` beside its package.json), count too, with what they import (relative imports, tsconfig `paths` such as `@/agents/x`, and files no scan parsed, such as a barrel); there only the Node-only stores and their drivers are reported (`node:sqlite`, the SQLite and Postgres stores, `better-sqlite3`, `pg`), since edge runtimes polyfill some `node:` modules.",
  help: "Give the control the browser-safe store: `store: httpStore({ url, token })` from 'ctrlrun-gen/runtime' against `npx ctrlrun-gen serve --cors-origin <your app's origin>` (init writes it for a browser package), or move the Node-only code to the server.",
};

/** Modules that load only in Node: `node:` builtins, this package's Node stores and their drivers. */
export function isNodeOnly(specifier: string): boolean {
  return specifier.startsWith('node:') || isNodeOnlyStore(specifier);
}

/** The Node-only stores and their drivers: what an edge runtime (which polyfills some `node:` modules) cannot load either. */
export function isNodeOnlyStore(specifier: string): boolean {
  return (
    specifier === 'node:sqlite' || /^ctrlrun-gen\/runtime\/(?:sqlite|postgres)(?:\/|$)/.test(specifier) || specifier === 'better-sqlite3' || specifier === 'pg'
  );
}

const nodeOnlyImports = (imports: readonly ModuleImport[] | undefined, edge = false): ModuleImport[] =>
  (imports ?? []).filter((imp) => !imp.typeOnly && (edge ? isNodeOnlyStore(imp.module) : isNodeOnly(imp.module)));

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
    // a file no scan parsed (a barrel between an edge route and the tools) is read from disk
    (rel) => (texts.has(rel) ? texts.get(rel)!.text() : readSourceText(path.resolve(root, rel))),
    facts?.packages,
  );
  if (browser.size === 0) return [];
  const controlRel = path.relative(root, project.manifest.control).split(path.sep).join('/');
  const control = files.find((f) => f.scan.file === controlRel)?.scan;
  const controlNodeOnly = control ? nodeOnlyImports(control.moduleImports)[0] : undefined;
  const controlStore = control ? nodeOnlyImports(control.moduleImports, true)[0] : undefined;
  const output = path.resolve(project.manifest.output);
  const findings: Finding[] = [];
  for (const { scan, text } of files) {
    const why = browser.get(scan.file);
    if (why === undefined) continue;
    const edge = isEdgeReason(why);
    const where = edge ? 'on an edge runtime' : 'in a browser';
    // an Astro component's frontmatter runs on the server: only its `<script>` imports count
    const imports = browserImports(scan, isComponentFile(scan.file) ? text() : undefined);
    for (const imp of nodeOnlyImports(imports, edge)) {
      findings.push(
        findingOf(
          nodeModuleInBrowserMeta,
          scan.file,
          imp.span,
          `'${imp.module}' loads only in Node, and this file runs ${where}: ${why}. The bundle fails to build or the page fails to load.`,
          nodeModuleInBrowserMeta.help,
        ),
      );
    }
    const controlImport = edge ? controlStore : controlNodeOnly;
    if (!controlImport || scan.file === controlRel) continue;
    const fileAbs = path.resolve(root, scan.file);
    const generated = imports.find((imp) => !imp.typeOnly && isGeneratedSpecifier(imp.module, { generatedModule: output, fileAbs }));
    if (!generated) continue;
    findings.push(
      findingOf(
        nodeModuleInBrowserMeta,
        scan.file,
        generated.span,
        `this file runs ${where} (${why}) and imports the generated module, whose control ${controlRel} imports '${controlImport.module}' (line ${controlImport.span.line}), which loads only in Node: the bundle fails to build (${edge ? 'Next.js: UnhandledSchemeError: Reading from "node:sqlite"' : 'Vite: "is not exported by __vite-browser-external"'}).`,
        nodeModuleInBrowserMeta.help,
      ),
    );
  }
  return findings;
}
