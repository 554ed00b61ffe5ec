import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { readCapped } from '../safe-read.js';
import { parseJsonc } from './jsonc.js';
import { exportsTarget, sourcePathOf } from './links.js';

/**
 * A package of the app's own workspace imported by name from outside the scanned folder (check run
 * in `examples/agent` of a pnpm workspace whose root is the package `@acme/kit`): found as Node
 * finds it (the `node_modules` folders up from the importer), only when the entry there leads, once
 * links are resolved, out of every `node_modules` (the links pnpm, yarn and npm workspaces make),
 * never to an installed package (a folder of `node_modules`, or a link into a package store). Its entry file for reading declarations: the `.d.ts` its package.json names (`exports`
 * `types`, `types`, `typings`), or beside its JavaScript entry, or the source a `dist/` entry is
 * built from. Undefined when any step cannot be read: the caller fails closed.
 */
export function linkedWorkspaceEntry(specifier: string, fromAbs: string): string | undefined {
  return linkedEntry(specifier, fromAbs, declarationFile);
}

/**
 * The same package's entry as code to read for its doors (unlisted-imports.ts): the source its
 * entry paths name (`src/index.ts` for a `dist/index.js`), or the JavaScript itself; never a
 * declaration file. Undefined as `linkedWorkspaceEntry` is.
 */
export function linkedWorkspaceSource(specifier: string, fromAbs: string): string | undefined {
  return linkedEntry(specifier, fromAbs, sourceFile);
}

function linkedEntry(specifier: string, fromAbs: string, fileFor: (abs: string) => string | undefined): string | undefined {
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  // a subpath (`@acme/kit/tools`) is not read: its exports map entry would be needed
  if (!name || name !== specifier || specifier.startsWith('.')) return undefined;
  for (let dir = path.dirname(fromAbs); ; dir = path.dirname(dir)) {
    const link = path.join(dir, 'node_modules', name);
    const stat = lstatOrUndefined(link);
    if (stat) return entryOf(link, fileFor);
    if (path.dirname(dir) === dir) return undefined;
  }
}

function lstatOrUndefined(p: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
}

function entryOf(link: string, fileFor: (abs: string) => string | undefined): string | undefined {
  let dir: string;
  try {
    dir = realpathSync(link);
  } catch {
    return undefined;
  }
  if (dir.split(path.sep).includes('node_modules')) return undefined;
  const read = readCapped(path.join(dir, 'package.json'), 1_000_000);
  const json = read.ok ? (parseJsonc(read.text) as Record<string, unknown> | undefined) : undefined;
  if (!json || typeof json !== 'object') return undefined;
  for (const target of entryTargets(json)) {
    const found = fileFor(path.resolve(dir, target));
    if (found) return found;
  }
  return undefined;
}

/**
 * The package's entry paths, types first: what its `exports` names for the package under `types`,
 * `import` and `default` (the scanner's reading of `exports`, links.ts), then `types`, `typings`,
 * `module`, `main`.
 */
function entryTargets(json: Record<string, unknown>): string[] {
  const out = ['types', 'import', 'default'].flatMap((c) => exportsTarget(json['exports'], '.', [c]) ?? []);
  for (const key of ['types', 'typings', 'module', 'main']) if (typeof json[key] === 'string') out.push(json[key]);
  return [...new Set(out)].filter((t) => t.startsWith('./') || !t.startsWith('.'));
}

const SOURCE_EXT = ['.d.ts', '.d.mts', '.ts', '.mts', '.tsx'];

/** A file to read declarations from for an entry path: itself when a declaration or source file, its `.d.ts`, or the source of a `dist/` file. */
export function declarationFile(abs: string): string | undefined {
  const isFile = (p: string): boolean => lstatOrUndefined(p)?.isFile() ?? false;
  if (/\.(?:d\.[cm]?ts|[cm]?tsx?)$/.test(abs) && isFile(abs)) return abs;
  const stem = abs.replace(/\.(?:[cm]?js|jsx)$/, '');
  const swapped = sourcePathOf(stem);
  for (const base of stem === swapped ? [stem] : [stem, swapped]) {
    for (const ext of SOURCE_EXT) if (isFile(base + ext)) return base + ext;
    for (const ext of SOURCE_EXT) if (isFile(path.join(base, `index${ext}`))) return path.join(base, `index${ext}`);
  }
  return undefined;
}

const CODE_EXT = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];

/** A module to read code from for an entry path: the source a build output is made from (`dist/` → `src/`), else the path itself, with a source extension or as a folder's index. */
function sourceFile(abs: string): string | undefined {
  const isFile = (p: string): boolean => lstatOrUndefined(p)?.isFile() ?? false;
  if (/\.d\.[cm]?ts$/.test(abs)) return undefined;
  const stem = abs.replace(/\.(?:[cm]?[jt]s|[jt]sx)$/, '');
  const swapped = sourcePathOf(stem);
  for (const base of stem === swapped ? [stem] : [swapped, stem]) {
    for (const ext of CODE_EXT) if (isFile(base + ext)) return base + ext;
    for (const ext of CODE_EXT) if (isFile(path.join(base, `index${ext}`))) return path.join(base, `index${ext}`);
  }
  return undefined;
}
