import { existsSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../diagnostics.js';
import { findManifest } from '../manifest/load.js';
import { manifestsBelowPlainFolder } from '../manifest/plain-folder.js';
import { StoreError } from '../runtime/stores/errors.js';
import type { Store } from '../runtime/types.js';
import { shellWord } from '../shell-word.js';
import type { CliContext } from './context.js';
import { workspaceManifests } from './workspace.js';

/** Where the operator's commands find the store. */
export type StoreSelection =
  | { kind: 'sqlite'; path: string; source: StoreSource }
  | { kind: 'postgres'; connectionString: string; schema?: string; source: StoreSource };
export type StoreSource = '--store' | 'CTRLRUN_STORE' | 'default';

export const STORE_ENV = 'CTRLRUN_STORE';
export const DEFAULT_SQLITE_PATH = path.join('.ctrlrun', 'state.db');

/** The `--store` option every operator command takes. */
export const storeOption = {
  type: 'string',
  global: true,
  describe: `The store: sqlite:PATH or postgres://… (default: $${STORE_ENV}, else ${DEFAULT_SQLITE_PATH} at the repo root)`,
} as const;

/**
 * Picks the store: `--store`, else `$CTRLRUN_STORE`, else `.ctrlrun/state.db` under the repo root
 * (the directory holding ctrlrun.tools.yaml, searched upward from cwd; else cwd itself), the
 * same file the control module written by `init` opens when the app runs from the repo root.
 */
export function selectStore(options: { flag?: string | undefined; env: Record<string, string | undefined>; cwd: string; root?: string }): StoreSelection {
  if (options.flag !== undefined) return parseStoreUrl(options.flag, '--store', options.cwd);
  const fromEnv = options.env[STORE_ENV];
  if (fromEnv !== undefined && fromEnv !== '') return parseStoreUrl(fromEnv, STORE_ENV, options.cwd);
  return { kind: 'sqlite', path: path.join(options.root ?? repoRoot(options.cwd), DEFAULT_SQLITE_PATH), source: 'default' };
}

/** `sqlite:PATH` (relative to cwd) or `postgres://…` / `postgresql://…` (`?schema=NAME` picks the schema). */
export function parseStoreUrl(value: string, source: StoreSource, cwd: string): StoreSelection {
  const text = value.trim();
  if (text.startsWith('sqlite:')) {
    const file = text.slice('sqlite:'.length);
    if (file === '') throw badStore(value, source, 'sqlite: needs a file path');
    return { kind: 'sqlite', path: path.resolve(cwd, file), source };
  }
  if (/^postgres(ql)?:\/\//.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw badStore(value, source, 'not a valid URL');
    }
    const schema = url.searchParams.get('schema');
    url.searchParams.delete('schema');
    return schema ? { kind: 'postgres', connectionString: url.toString(), schema, source } : { kind: 'postgres', connectionString: url.toString(), source };
  }
  throw badStore(value, source, 'unknown kind of store');
}

function badStore(value: string, source: StoreSource, why: string): UserError {
  const shown = /^postgres/.test(value) ? maskPassword(value) : value;
  return new UserError(
    `${source}: ${JSON.stringify(shown)} is not a store (${why}).\nhint: use sqlite:PATH (e.g. sqlite:.ctrlrun/state.db) or postgres://USER@HOST:PORT/DB`,
  );
}

/**
 * At a workspace root (or a package with packages of its own below it), the default stores the
 * packages' apps have written other than `selected` (paths relative to cwd): each package's app
 * writes its own, and an operator at the root reads one of them only when told which.
 */
function packageStores(below: ProjectsBelow, cwd: string, selected: string): PackageStore[] {
  return below.manifests
    .map((m) => ({ dir: path.dirname(m), file: path.join(path.dirname(m), DEFAULT_SQLITE_PATH) }))
    .filter((s) => s.file !== selected && existsSync(s.file))
    .map((s) => ({ dir: shownFrom(cwd, s.dir), store: shownFrom(cwd, s.file) }));
}

/**
 * The projects whose stores a command at `cwd` may mean: a workspace's packages, or the projects
 * with a manifest below a plain folder (no project of its own, so no store of its own either).
 */
interface ProjectsBelow {
  manifests: string[];
  kind: 'workspace' | 'plain';
}

function projectsBelow(cwd: string): ProjectsBelow {
  const workspace = workspaceManifests(cwd);
  if (workspace !== undefined) return { manifests: workspace, kind: 'workspace' };
  return { manifests: manifestsBelowPlainFolder(cwd), kind: 'plain' };
}

function shownFrom(cwd: string, file: string): string {
  return path.relative(cwd, file).split(path.sep).join('/') || '.';
}

/** The hint when the default store is missing: the stores below, the projects below, or how a store comes. */
function missingStoreHint(below: ProjectsBelow, cwd: string, elsewhere: readonly PackageStore[]): string {
  const whose = below.kind === 'workspace' ? "the workspace's packages" : 'the projects below this folder';
  if (elsewhere.length > 0) {
    return `${whose} have ${elsewhere.map((s) => s.store).join(', ')}: run it in that ${below.kind === 'workspace' ? 'package' : 'project'} (--cwd ${elsewhere[0]!.dir}) or pass --store sqlite:${elsewhere[0]!.store}`;
  }
  if (below.kind === 'plain' && below.manifests.length > 0) {
    // a plain folder is no project: its own default store would be nobody's, so name where the stores will be
    const dirs = below.manifests.map((m) => shownFrom(cwd, path.dirname(m)));
    return `this folder is no project; the projects below it (${dirs.join(', ')}) keep their own stores, which their runs create: run it in a project's folder (--cwd ${shellWord(dirs[0]!)})`;
  }
  return `runs create it on first use; pass --store sqlite:PATH or set ${STORE_ENV} to use another one`;
}

/** A package's default store, both paths relative to cwd. */
interface PackageStore {
  dir: string;
  store: string;
}

/** The line on stderr when the default store is read while packages below have stores of their own (stdout and the exit code are the command's). */
function otherStoresNote(label: string, stores: readonly PackageStore[]): string {
  return (
    `note: this reads ${label}; packages here have stores of their own: ${stores.map((s) => s.store).join(', ')}. ` +
    `To read one, pass --store sqlite:${stores[0]!.store}, or run the command in its package (--cwd ${stores[0]!.dir})\n`
  );
}

/** The directory of the nearest ctrlrun.tools.yaml upward from cwd, else cwd. */
export function repoRoot(cwd: string): string {
  const manifest = findManifest(cwd);
  return manifest ? path.dirname(manifest) : path.resolve(cwd);
}

/** The store, for messages: a path relative to cwd, or the URL without its password. */
export function describeStore(selection: StoreSelection, cwd: string): string {
  if (selection.kind === 'sqlite') return `sqlite:${path.relative(cwd, selection.path) || selection.path}`;
  return maskPassword(selection.connectionString) + (selection.schema ? ` (schema ${selection.schema})` : '');
}

function maskPassword(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return connectionString.replace(/:[^:@/]*@/, ':***@');
  }
}

/** Opens the selected store (the runtime's own store factories). */
export async function openStore(selection: StoreSelection): Promise<Store> {
  if (selection.kind === 'sqlite') return (await import('../runtime/sqlite.js')).sqliteStore({ path: selection.path });
  const { postgresStore } = await import('../runtime/postgres.js');
  return postgresStore(
    selection.schema ? { connectionString: selection.connectionString, schema: selection.schema } : { connectionString: selection.connectionString },
  );
}

/**
 * Runs `fn` with the store the command's `--store` selects and closes it after. A store that
 * cannot be used (missing file, unreachable, locked, foreign) is a user error: exit 2, no stack.
 */
export async function withStore<T>(
  args: { store?: string | undefined },
  ctx: CliContext,
  fn: (store: Store, label: string) => Promise<T>,
  options: { create?: boolean; root?: string } = {},
): Promise<T> {
  const selection = selectStore({ flag: args.store, env: ctx.env, cwd: ctx.cwd, ...(options.root !== undefined ? { root: options.root } : {}) });
  const label = describeStore(selection, ctx.cwd);
  // the workspace's packages or a plain folder's projects, listed once for the note and the hint
  let below: ProjectsBelow | undefined;
  const listed = (): ProjectsBelow => (below ??= projectsBelow(ctx.cwd));
  const elsewhere =
    selection.kind === 'sqlite' && selection.source === 'default' && options.root === undefined ? packageStores(listed(), ctx.cwd, selection.path) : [];
  if (selection.kind === 'sqlite' && !existsSync(selection.path) && options.create !== true) {
    const hint = missingStoreHint(listed(), ctx.cwd, elsewhere);
    throw new UserError(`${label}: no store here yet (the file does not exist).\nhint: ${hint}`);
  }
  if (elsewhere.length > 0) ctx.stderr(otherStoresNote(label, elsewhere));
  const store = await openStore(selection);
  try {
    return await fn(store, label);
  } catch (error) {
    if (error instanceof StoreError) throw new UserError(error.message);
    throw error;
  } finally {
    await store.close().catch(() => undefined);
  }
}
