/**
 * How one module of the repo reaches another, without a type checker: relative specifiers, a
 * package.json `imports` map (`#sdk`), tsconfig `paths` / `baseUrl`, and workspace packages (a
 * package.json `name` in the repo). Pure functions of the repo's config files and file list.
 */
import path from 'node:path';

export interface PackageInfo {
  /** Absolute directory. */
  dir: string;
  name?: string;
  imports?: unknown;
  exports?: unknown;
  main?: string;
  module?: string;
}

export interface TsconfigInfo {
  dir: string;
  /** Absolute base for `paths` (baseUrl, or the tsconfig's directory). */
  base: string;
  /** Whether a baseUrl was given (non-relative specifiers then resolve against it). */
  hasBaseUrl: boolean;
  paths: Record<string, string[]>;
}

/** Where a specifier leads: an SDK (or other bare) specifier, or a file of the repo. */
export type Target = { kind: 'bare'; specifier: string } | { kind: 'file'; file: string };

const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const JS_EXT = /\.(?:[cm]?js|jsx)$/;

export interface RepoLayout {
  /** Absolute paths of the repo's source files. */
  files: ReadonlySet<string>;
  packages: PackageInfo[];
  tsconfigs: TsconfigInfo[];
}

/** A file of the repo a path names: itself, with a source extension, a `.js` written for a `.ts`, or an index file. */
export function resolveFile(layout: RepoLayout, abs: string): string | undefined {
  if (layout.files.has(abs)) return abs;
  const stems = [abs];
  if (JS_EXT.test(abs)) stems.push(abs.replace(JS_EXT, ''));
  for (const stem of stems) {
    for (const ext of EXTENSIONS) if (layout.files.has(stem + ext)) return stem + ext;
  }
  // one join for the eight names: \`path.join(abs, 'index' + ext)\` is this join with ext appended (no
  // separator or dot segment in \`index.ts\`), and each join normalized the whole path again
  const stem = path.join(abs, 'index');
  for (const ext of EXTENSIONS) {
    const index = stem + ext;
    if (layout.files.has(index)) return index;
  }
  return undefined;
}

/** The nearest item whose directory holds `file` (the deepest one), remembered by the file's folder. */
export function nearest<T extends { dir: string }>(items: readonly T[], file: string): T | undefined {
  let cache = nearestCache.get(items) as NearestCache<T> | undefined;
  if (!cache) {
    cache = { byDir: new Map(), dirs: items.map((it) => path.resolve(it.dir)) };
    nearestCache.set(items, cache);
  }
  const dir = path.dirname(file);
  if (cache.byDir.has(dir)) return cache.byDir.get(dir);
  const abs = path.resolve(file);
  let best: T | undefined;
  for (let i = 0; i < items.length; i++) {
    const it = items[i]!;
    if (!holds(cache.dirs[i]!, abs, it.dir)) continue;
    if (!best || it.dir.length > best.dir.length) best = it;
  }
  cache.byDir.set(dir, best);
  return best;
}

/**
 * Whether `path.relative(dir, file)` stays inside `dir` (neither starts with `..` nor is absolute),
 * the test `nearest` makes for every item. On POSIX, with both resolved, it is a test of the text
 * (issue 40, item 8: `path.relative` resolved both paths again for each of a layout's items, ~3% of
 * the codemod's dry run on the SDK's examples): `file` is `dir` itself or lies under `dir/`, and
 * the rest does not start with `..` (a folder named `..x`, which `relative` reads as going up).
 * Elsewhere (Windows: drive letters, case) it asks `path.relative`.
 */
export function holds(resolvedDir: string, resolvedFile: string, dir: string, p: Pick<typeof path, 'sep' | 'relative' | 'isAbsolute'> = path): boolean {
  if (p.sep !== '/') {
    const rel = p.relative(dir, resolvedFile);
    return !rel.startsWith('..') && !p.isAbsolute(rel);
  }
  if (resolvedFile === resolvedDir) return true;
  const start = resolvedDir.endsWith('/') ? resolvedDir.length : resolvedDir.length + 1;
  if (!resolvedFile.startsWith(resolvedDir) || (start > resolvedDir.length && resolvedFile[resolvedDir.length] !== '/')) return false;
  return !resolvedFile.startsWith('..', start);
}

interface NearestCache<T> {
  /** The answer by folder. */
  byDir: Map<string, T | undefined>;
  /** Each item's folder, resolved, in the items' order. */
  dirs: string[];
}

/** `nearest`'s answers, by item list (a layout's packages or tsconfigs) and folder: resolving asks it for every import. */
const nearestCache = new WeakMap<readonly object[], NearestCache<unknown>>();

/** Matches a specifier against a map key with at most one `*`; the captured part, or undefined. */
function matchPattern(key: string, specifier: string): string | undefined {
  const star = key.indexOf('*');
  if (star < 0) return key === specifier ? '' : undefined;
  const pre = key.slice(0, star);
  const post = key.slice(star + 1);
  if (specifier.length < pre.length + post.length || !specifier.startsWith(pre) || !specifier.endsWith(post)) return undefined;
  return specifier.slice(pre.length, specifier.length - post.length);
}

/** The conditions a module's code is loaded under, in the order the scanner prefers them. */
const CODE_CONDITIONS = ['import', 'node', 'default', 'require', 'types'] as const;

/** A conditional-exports value: the first string under `conditions` (in that order), or the first string found. */
function conditionalTarget(value: unknown, conditions: readonly string[]): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    for (const v of value) {
      const t = conditionalTarget(v, conditions);
      if (t) return t;
    }
    return undefined;
  }
  if (!value || typeof value !== 'object') return undefined;
  const obj = value as Record<string, unknown>;
  for (const k of conditions) {
    const t = k in obj ? conditionalTarget(obj[k], conditions) : undefined;
    if (t) return t;
  }
  for (const v of Object.values(obj)) {
    const t = conditionalTarget(v, conditions);
    if (t) return t;
  }
  return undefined;
}

/** Looks a specifier up in an `imports` / `exports` map: the target with `*` substituted. */
function lookupMap(map: unknown, specifier: string, conditions: readonly string[] = CODE_CONDITIONS): string | undefined {
  if (!map || typeof map !== 'object' || Array.isArray(map)) return undefined;
  for (const [key, value] of Object.entries(map as Record<string, unknown>)) {
    const captured = matchPattern(key, specifier);
    if (captured === undefined) continue;
    const t = conditionalTarget(value, conditions);
    if (t) return t.replace('*', captured);
  }
  return undefined;
}

/**
 * What a package's `exports` names for `key` (`.` for the package itself, `./tools` for a subpath),
 * preferring `conditions` in order: a subpath map's entry (`*` substituted), or, for the package
 * itself, the conditions given directly. The scanner's one reading of `exports`: the module reader
 * (here, code first) and the reader of an outside workspace package's declarations
 * (workspace-links.ts, `types` first) both go through it.
 */
export function exportsTarget(exp: unknown, key: string, conditions: readonly string[] = CODE_CONDITIONS): string | undefined {
  if (exp === undefined) return undefined;
  const isMap = exp && typeof exp === 'object' && !Array.isArray(exp) && Object.keys(exp).some((k) => k.startsWith('.'));
  return isMap ? lookupMap(exp, key, conditions) : key === '.' ? conditionalTarget(exp, conditions) : undefined;
}

/** A target string of a map: a relative path is a file under `dir`; anything else a bare specifier. */
function mapTarget(layout: RepoLayout, dir: string, target: string): Target | undefined {
  if (target.startsWith('./') || target.startsWith('../')) {
    const file = sourceFor(layout, path.resolve(dir, target));
    return file ? { kind: 'file', file } : undefined;
  }
  return { kind: 'bare', specifier: target };
}

/** A build output path with its build folder named `src` (`pkg/dist/x.js` → `pkg/src/x.js`); the path itself when it names none. */
export function sourcePathOf(abs: string): string {
  return abs.replace(/([/\\])(?:dist|build|lib|out)([/\\])/, '$1src$2');
}

/** The source file for a path, also when it names build output (`dist/x.js` → `src/x.ts`). */
function sourceFor(layout: RepoLayout, abs: string): string | undefined {
  const direct = resolveFile(layout, abs);
  if (direct) return direct;
  const swapped = sourcePathOf(abs);
  if (swapped !== abs) return resolveFile(layout, swapped.replace(/\.d\.[cm]?ts$/, ''));
  return undefined;
}

/** The entry of a workspace package for `subpath` ('' for the package itself). */
function packageEntry(layout: RepoLayout, pkg: PackageInfo, subpath: string): Target | undefined {
  const key = subpath ? `./${subpath}` : '.';
  if (pkg.exports !== undefined) {
    const target = exportsTarget(pkg.exports, key);
    if (target) {
      const t = mapTarget(layout, pkg.dir, target);
      if (t) return t;
    }
  }
  if (!subpath) {
    for (const m of [pkg.module, pkg.main]) {
      if (!m) continue;
      const file = sourceFor(layout, path.resolve(pkg.dir, m));
      if (file) return { kind: 'file', file };
    }
    for (const guess of ['src/index', 'index']) {
      const file = resolveFile(layout, path.join(pkg.dir, guess));
      if (file) return { kind: 'file', file };
    }
    return undefined;
  }
  const file = resolveFile(layout, path.join(pkg.dir, subpath)) ?? resolveFile(layout, path.join(pkg.dir, 'src', subpath));
  return file ? { kind: 'file', file } : undefined;
}

/**
 * Where `specifier`, imported from `fromFile`, leads: a file of the repo, a bare specifier an alias
 * stands for (`#sdk` → `@openai/agents`), or undefined (a package outside the repo, or nothing).
 */
export function resolveSpecifier(layout: RepoLayout, specifier: string, fromFile: string): Target | undefined {
  if (specifier.startsWith('./') || specifier.startsWith('../') || specifier === '.' || specifier === '..') {
    const file = resolveFile(layout, path.resolve(path.dirname(fromFile), specifier));
    return file ? { kind: 'file', file } : undefined;
  }
  if (specifier.startsWith('#')) {
    const pkg = nearest(layout.packages, fromFile);
    const target = pkg ? lookupMap(pkg.imports, specifier) : undefined;
    if (pkg && target) return mapTarget(layout, pkg.dir, target);
    // not a package.json import: tsconfig `paths` may still map it (TypeScript tries paths first)
  }
  const tsconfig = nearest(layout.tsconfigs, fromFile);
  if (tsconfig) {
    for (const [key, targets] of Object.entries(tsconfig.paths)) {
      const captured = matchPattern(key, specifier);
      if (captured === undefined) continue;
      for (const t of targets) {
        const filled = t.replace('*', captured);
        const nm = filled.replace(/\\/g, '/').match(/(?:^|\/)node_modules\/(.+)$/);
        if (nm) return { kind: 'bare', specifier: nm[1]!.replace(/\/(?:index)?(?:\.d)?(?:\.[cm]?[jt]s)?$/, '') };
        const file = resolveFile(layout, path.resolve(tsconfig.base, filled));
        if (file) return { kind: 'file', file };
      }
    }
    if (tsconfig.hasBaseUrl) {
      const file = resolveFile(layout, path.resolve(tsconfig.base, specifier));
      if (file) return { kind: 'file', file };
    }
  }
  // A workspace package of this repo, by name (`@acme/shared`, `@acme/shared/tools`).
  for (const pkg of layout.packages) {
    if (!pkg.name) continue;
    if (specifier === pkg.name) return packageEntry(layout, pkg, '');
    if (specifier.startsWith(`${pkg.name}/`)) return packageEntry(layout, pkg, specifier.slice(pkg.name.length + 1));
  }
  return undefined;
}

/**
 * The strings a file importing `target` must contain (the cheap text test for barrels): its
 * base name (or its directory's, for an index file) right after a `/` or a quote, and the names of
 * the aliases and workspace packages that lead to it.
 */
export function importTokens(target: string): string[] {
  const base = path.basename(target).replace(/\.[^.]+$/, '');
  const names = base === 'index' ? [path.basename(path.dirname(target)), base] : [base];
  const out: string[] = [];
  for (const n of names) for (const before of ['/', "'", '"', '`']) out.push(`${before}${n}`);
  return out;
}

/**
 * Alias keys (package.json `imports`, tsconfig `paths`) an importer's text would contain: every
 * key without a `*`, and the part before the `*` of a key whose targets name the SDK. (A wildcard
 * alias to the repo's own folders, `@/*`, is covered by the barrel's own name.)
 */
export function aliasTokens(layout: RepoLayout): string[] {
  const out = new Set<string>();
  const add = (key: string, targets: string) => {
    if (!key.includes('*')) out.add(key);
    else if (targets.includes('@openai/agents')) out.add(key.split('*')[0]!);
  };
  for (const pkg of layout.packages) {
    if (pkg.imports && typeof pkg.imports === 'object') for (const [k, v] of Object.entries(pkg.imports)) add(k, JSON.stringify(v));
  }
  for (const t of layout.tsconfigs) for (const [k, v] of Object.entries(t.paths)) add(k, JSON.stringify(v));
  out.delete('');
  return [...out];
}
