import { builtinModules } from 'node:module';
import path from 'node:path';
import { readLayout } from './layout.js';
import { resolveSpecifier, type RepoLayout } from './links.js';
import { dependencyNames, PackageFacts } from './package-facts.js';
import { isRealtimeEntry } from './realtime.js';
import type { FileScan, ModuleImport } from './types.js';
import { clientCode, isComponentFile } from './component-script.js';

/*
 * Where code runs, as far as the files say (issue 21 item 1): a package built for the browser (a
 * Vite app, a `browser` field or export condition), a Next.js client component (`'use client'`), or
 * code that reaches a realtime session. init gives such tools the browser-safe control (httpStore);
 * check reports a Node-only module such code reaches. Shared by both, so they agree.
 */

const VITE_CONFIGS = ['vite.config.ts', 'vite.config.js', 'vite.config.mjs', 'vite.config.mts', 'vite.config.cjs', 'vite.config.cts'];

/** Why a package's code runs in a browser (`vite`, `browser field`), or undefined when nothing says so. */
export function browserBuild(packageDir: string, facts: PackageFacts = new PackageFacts(packageDir)): string | undefined {
  if (VITE_CONFIGS.some((f) => facts.exists(path.join(packageDir, f)))) return 'a Vite app';
  const pkg = facts.packageJson(packageDir);
  if (!pkg) return undefined;
  if (dependencyNames(pkg, ['dependencies', 'devDependencies']).includes('vite')) return 'a Vite app';
  if (pkg['browser'] !== undefined) return 'its package.json has a `browser` field';
  if (hasBrowserCondition(pkg['exports'])) return 'its package.json exports have a `browser` condition';
  return undefined;
}

function hasBrowserCondition(exports: unknown): boolean {
  if (typeof exports !== 'object' || exports === null) return false;
  return Object.entries(exports).some(([key, value]) => key === 'browser' || hasBrowserCondition(value));
}

/**
 * An edge runtime has no Node builtins either (Next.js/Vercel `export const runtime = 'edge'`,
 * `export const config = { runtime: 'edge' }`; a Cloudflare Workers project): what reaches it is
 * treated as browser code, but only the Node-only stores count there (edge runtimes polyfill some
 * `node:` modules). Every reason of such code contains this phrase (`isEdgeReason`).
 */
export const EDGE_PHRASE = 'on an edge runtime';
const EDGE_EXPORT =
  /^[ \t]*export\s+const\s+(?:runtime\s*(?::[^=]+)?=\s*(['"`])(?:experimental-)?edge\1|config\s*(?::[^=]+)?=\s*\{[^}]*?\bruntime\s*:\s*(['"`])(?:experimental-)?edge\2)/m;
const WRANGLER_CONFIGS = ['wrangler.jsonc', 'wrangler.json', 'wrangler.toml'];

/** Whether a file's text declares the edge runtime for itself (a Next.js route or page, a Vercel function). */
export function declaresEdgeRuntime(text: string): boolean {
  // asked of every scanned file: the word the pattern needs first (a plain search), the pattern only where it is
  return text.includes('edge') && EDGE_EXPORT.test(text);
}

/**
 * Next.js middleware (`middleware.ts` at the package root or in `src/`, in a package that depends
 * on `next`) runs on the edge runtime unless its `config` says `runtime: 'nodejs'` (Next.js 15.5+);
 * Next.js 16's `proxy.ts` runs on Node.js and is not one.
 */
const MIDDLEWARE_FILES = ['ts', 'js', 'mjs', 'mts', 'tsx', 'jsx'].flatMap((ext) => [`middleware.${ext}`, `src/middleware.${ext}`]);
const NODE_RUNTIME = /\bruntime\s*:\s*(['"`])nodejs\1/;
export const MIDDLEWARE_REASON = `it runs ${EDGE_PHRASE} (Next.js middleware)`;

function dependsOnNext(packageDir: string, facts: PackageFacts): boolean {
  return dependencyNames(facts.packageJson(packageDir), ['dependencies', 'devDependencies', 'peerDependencies']).includes('next');
}

/** The Next.js middleware files (root-relative) of the packages that hold `files`, that run on the edge runtime. */
function edgeMiddleware(files: string[], facts: PackageFacts, readText: (rel: string) => string | undefined): string[] {
  const root = path.resolve(facts.root);
  const packages = new Set([root, ...files.map((f) => facts.packageDirOf(path.resolve(root, f)))]);
  const out: string[] = [];
  for (const dir of packages) {
    const found = MIDDLEWARE_FILES.map((f) => path.join(dir, f)).filter((f) => facts.exists(f));
    if (found.length === 0 || !dependsOnNext(dir, facts)) continue;
    for (const file of found) {
      const rel = toRel(root, file);
      if (!NODE_RUNTIME.test(readText(rel) ?? '')) out.push(rel);
    }
  }
  return out;
}

/** Whether a browser-side reason (of `browserSideFiles`) is an edge runtime's. */
export function isEdgeReason(why: string | undefined): boolean {
  return why?.includes(EDGE_PHRASE) === true;
}

/** A Cloudflare Workers package (a wrangler config beside its package.json): all its code runs on workerd. */
function workersBuild(packageDir: string, facts: PackageFacts): boolean {
  return WRANGLER_CONFIGS.some((f) => facts.exists(path.join(packageDir, f)));
}

const CLIENT_DIRECTIVE = /^(?:\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*(['"])use client\1/;

/** A file that starts with the `'use client'` directive (after comments): a React client component. */
export function isClientComponent(text: string): boolean {
  // asked of every scanned file: the directive's words first (a plain search), the pattern only where they are
  return text.includes('use client') && CLIENT_DIRECTIVE.test(text.replace(/^\uFEFF/, ''));
}

/** Files of a browser package that still run on the server: a server folder or file, an API route, build config, scripts (a Nuxt `*.server.vue` too). */
export function isServerSideFile(rel: string): boolean {
  return /(?:^|\/)(?:server|api|scripts?|bin)(?:\/|\.[cm]?[jt]sx?$)|\.server\.(?:[cm]?[jt]sx?|vue|svelte)$|(?:^|\/)(?:vite|vitest|next|eslint)\.config\./.test(
    rel,
  );
}

/**
 * The imports of a file that run where its browser code runs: all of them, but for an Astro
 * component only those in its `<script>` tags (its frontmatter runs on the server).
 */
export function browserImports(scan: FileScan, text: string | undefined): ModuleImport[] {
  const imports = scan.moduleImports ?? [];
  if (!isComponentFile(scan.file)) return imports;
  const client = clientCode(scan.file, text ?? '');
  if (client === 'all') return imports;
  return imports.filter((imp) => client.some(([start, end]) => imp.span.start >= start && imp.span.start < end));
}

/** A component whose script the bundler ships to the page: a Vue or Svelte component, an Astro component with a `<script>` that imports. */
function componentReason(scan: FileScan, text: string): string | undefined {
  if (!isComponentFile(scan.file) || isServerSideFile(scan.file)) return undefined;
  const client = clientCode(scan.file, text);
  if (client === 'all') return `it is a ${scan.file.toLowerCase().endsWith('.vue') ? 'Vue' : 'Svelte'} component (its script runs in the browser)`;
  return browserImports(scan, text).length > 0 ? "its `<script>` runs in the browser (an Astro component's client script)" : undefined;
}

/** The directory of the nearest package.json at or above the file (absolute), no higher than `root`. */
export function packageDirOf(fileAbs: string, root: string): string {
  return new PackageFacts(root).packageDirOf(fileAbs);
}

/** Whether a file imports a realtime session or agent (`RealtimeSession`, `RealtimeAgent`) from a realtime entry. */
export function importsRealtimeSession(scan: FileScan): boolean {
  return (scan.moduleImports ?? []).some(
    (imp) =>
      !imp.typeOnly &&
      isRealtimeEntry(imp.module) &&
      (imp.namespaceName !== undefined || imp.named.some((n) => !n.typeOnly && (n.imported === 'RealtimeSession' || n.imported === 'RealtimeAgent'))),
  );
}

/**
 * A realtime session also runs on a server (a Twilio bridge over WebSocket): a file that imports a
 * Node builtin or a server package itself is Node code, whatever session it runs.
 */
const SERVER_PACKAGES = new Set(['ws', 'express', 'fastify', 'hono', 'koa', '@hono/node-server']);
export function importsServerModule(scan: FileScan): boolean {
  return (scan.moduleImports ?? []).some(
    (imp) => imp.module.startsWith('node:') || builtinModules.includes(imp.module) || SERVER_PACKAGES.has(imp.module) || imp.module.startsWith('@fastify/'),
  );
}

const STRIP = /\.(?:[cm]?[jt]sx?)$/;
const SOURCE = /\.[cm]?[jt]sx?$/;

/** The scanned files by path without extension (`src/a` for `src/a.ts`), to resolve relative imports. */
export function stemsOf(scanned: ReadonlySet<string>): Map<string, string> {
  const byStem = new Map<string, string>();
  for (const f of scanned) byStem.set(f.replace(STRIP, ''), f);
  return byStem;
}

/** The scanned files a file imports by a relative specifier (root-relative paths). */
export function relativeImports(scan: FileScan, scanned: ReadonlySet<string>, byStem: ReadonlyMap<string, string> = stemsOf(scanned)): string[] {
  const out: string[] = [];
  for (const imp of scan.moduleImports ?? []) {
    if (!imp.module.startsWith('./') && !imp.module.startsWith('../')) continue;
    const joined = path.posix.normalize(path.posix.join(path.posix.dirname(scan.file), imp.module));
    const hit = scanned.has(joined) ? joined : (byStem.get(joined.replace(STRIP, '')) ?? byStem.get(`${joined}/index`));
    if (hit) out.push(hit);
  }
  return out;
}

/** A scanned file's own reason to run in a browser (its package's build, a realtime session, `'use client'`), or undefined. */
function ownReason(scan: FileScan, facts: PackageFacts, readText: (rel: string) => string | undefined): string | undefined {
  const fileAbs = path.resolve(facts.root, scan.file);
  const dir = facts.packageDirOf(fileAbs);
  const text = readText(scan.file) ?? '';
  if (declaresEdgeRuntime(text)) return `it runs ${EDGE_PHRASE} (\`export const runtime = 'edge'\`)`;
  if (workersBuild(dir, facts)) return `it runs ${EDGE_PHRASE} (a Cloudflare Workers package: wrangler config)`;
  const build = facts.buildOf(dir, (d) => browserBuild(d, facts));
  if (build !== undefined && !isServerSideFile(path.relative(dir, fileAbs).split(path.sep).join('/'))) return `it is part of ${build}`;
  if (importsRealtimeSession(scan) && !importsServerModule(scan)) return 'it runs a realtime session';
  if (isClientComponent(text)) return "it is a client component ('use client')";
  return componentReason(scan, text);
}

/** `ownReason`, once per scan object (the facts keep it). */
function seedOf(scan: FileScan, facts: PackageFacts, readText: (rel: string) => string | undefined): string | undefined {
  let seed = facts.seeds.get(scan);
  if (seed === undefined) {
    seed = ownReason(scan, facts, readText) ?? null;
    facts.seeds.set(scan, seed);
  }
  return seed ?? undefined;
}

/**
 * The scanned files (root-relative) whose code runs in a browser or a realtime session: the
 * non-server files of a package built for the browser, client components, files that import a
 * realtime session or agent; and every scanned file those import, transitively. Each with the reason.
 * `facts` remembers what the disk said (one per check run; the ESLint plugin keeps one per session).
 */
export function browserSideFiles(scans: FileScan[], root: string, readText: (rel: string) => string | undefined, given?: PackageFacts): Map<string, string> {
  const facts = given && path.resolve(given.root) === path.resolve(root) ? given : new PackageFacts(root);
  const byFile = new Map(scans.map((s) => [s.file, s]));
  const why = new Map<string, string>();
  const queue: string[] = [];
  for (const scan of scans) {
    const reason = seedOf(scan, facts, readText);
    if (reason !== undefined) {
      why.set(scan.file, reason);
      queue.push(scan.file);
    }
  }
  // middleware no scan parsed (it need not name the SDK): its imports are read from its text
  for (const file of edgeMiddleware(
    scans.map((sc) => sc.file),
    facts,
    readText,
  )) {
    if (why.has(file)) continue;
    why.set(file, MIDDLEWARE_REASON);
    queue.push(file);
  }
  if (queue.length === 0) return why;
  const scanned = new Set(byFile.keys());
  const byStem = stemsOf(scanned);
  const follow = importFollower(facts, scanned, byStem, readText);
  for (let i = 0; i < queue.length; i++) {
    const file = queue[i]!;
    for (const next of follow(file, byFile.get(file))) {
      if (why.has(next)) continue;
      why.set(next, `${file} imports it (${why.get(file)!.replace(/^it /, '')})`);
      queue.push(next);
    }
  }
  return why;
}

/** Import specifiers of a file no scan parsed (a barrel with no SDK name in it), read from its text. */
const SPECIFIER =
  /(?:\bimport|\bexport)\s[^'"`;]*?\bfrom\s*(['"])([^'"\n]+)\1|\bimport\s*\(\s*(['"])([^'"\n]+)\3\s*\)|\brequire\s*\(\s*(['"])([^'"\n]+)\5\s*\)|^[ \t]*import\s*(['"])([^'"\n]+)\7/gm;
export function specifiersIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(SPECIFIER)) out.push((m[2] ?? m[4] ?? m[6] ?? m[8])!);
  return out;
}

/**
 * The repo files a browser-side file imports (root-relative): its scan's imports, or the specifiers
 * of its text when no scan parsed it; relative specifiers and the nearest tsconfig/jsconfig `paths`
 * (`@/agents/x`), resolved against the scanned files first, then the disk (never node_modules).
 */
function importFollower(
  facts: PackageFacts,
  scanned: ReadonlySet<string>,
  byStem: ReadonlyMap<string, string>,
  readText: (rel: string) => string | undefined,
): (file: string, scan: FileScan | undefined) => string[] {
  const root = path.resolve(facts.root);
  const onDisk = {
    has: (abs: string) => SOURCE.test(abs) && !abs.includes(`${path.sep}node_modules${path.sep}`) && (scanned.has(toRel(root, abs)) || facts.exists(abs)),
  } as ReadonlySet<string>;
  const layouts = new Map<string, RepoLayout>();
  const layoutFor = (dir: string): RepoLayout => {
    let layout = layouts.get(dir);
    if (layout) return layout;
    const config = ['tsconfig.json', 'jsconfig.json'].map((f) => path.join(dir, f)).find((f) => facts.exists(f));
    const up = path.dirname(dir);
    layout =
      config !== undefined
        ? { ...readLayout([], [config]), files: onDisk }
        : dir === root || up === dir || path.relative(root, dir).startsWith('..')
          ? { files: onDisk, packages: [], tsconfigs: [] }
          : layoutFor(up);
    layouts.set(dir, layout);
    return layout;
  };
  return (file, scan) => {
    const specifiers = scan
      ? browserImports(scan, readText(file))
          .filter((imp) => !imp.typeOnly)
          .map((imp) => imp.module)
      : specifiersIn(readText(file) ?? '');
    const out: string[] = [];
    for (const spec of specifiers) {
      if (spec.startsWith('./') || spec.startsWith('../')) {
        const joined = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
        const hit = scanned.has(joined) ? joined : (byStem.get(joined.replace(STRIP, '')) ?? byStem.get(`${joined}/index`));
        if (hit) {
          out.push(hit);
          continue;
        }
      } else if (spec.startsWith('node:') || builtinModules.includes(spec)) continue;
      const fileAbs = path.resolve(root, file);
      const target = resolveSpecifier(layoutFor(path.dirname(fileAbs)), spec, fileAbs);
      if (target?.kind === 'file' && !toRel(root, target.file).startsWith('..')) out.push(toRel(root, target.file));
    }
    return out;
  };
}

const toRel = (root: string, abs: string): string => path.relative(root, abs).split(path.sep).join('/');
