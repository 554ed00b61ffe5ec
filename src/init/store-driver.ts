/**
 * The driver package a control's store needs in the app's `dependencies` (issue 22.4): an app that
 * imports `sqliteStore` or `postgresStore` must install the driver itself in production, where the
 * CLI's dev dependency is not there. The SQLite store needs none on a Node with `node:sqlite`.
 */

/** The store a control builds, as init writes it or a user changed it. */
export type ControlStore = 'sqlite' | 'sqlite-better' | 'postgres' | 'other';

/** The driver ranges: ctrlrun-gen's peer ranges (a test keeps them in step with package.json). */
export const DRIVER_RANGES = { 'better-sqlite3': '^12.0.0', pg: '^8.11.0' } as const;

/** `node:sqlite` without a flag: Node 22.13+ and 23.4+ (and every later line). */
export function hasNodeSqlite(nodeVersion: string): boolean {
  const [major = 0, minor = 0] = nodeVersion.replace(/^v/, '').split('.').map(Number);
  return major > 23 || (major === 23 && minor >= 4) || (major === 22 && minor >= 13);
}

/** Which store a control's source builds, from its code (comments left out: init's own control names postgresStore in one). */
export function controlStore(source: string): ControlStore {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
  if (/\bpostgresStore\s*\(/.test(code)) return 'postgres';
  if (/\bsqliteStore\s*\(/.test(code)) return /driver\s*:\s*['"]better-sqlite3['"]/.test(code) ? 'sqlite-better' : 'sqlite';
  return 'other';
}

/** The packages (name → range) the store needs in the app's dependencies on this Node. */
export function storeDriverDependencies(store: ControlStore | 'sqlite', nodeVersion: string): Record<string, string> {
  if (store === 'postgres') return { pg: DRIVER_RANGES.pg };
  if (store === 'sqlite-better' || (store === 'sqlite' && !hasNodeSqlite(nodeVersion))) return { 'better-sqlite3': DRIVER_RANGES['better-sqlite3'] };
  return {};
}

/** Why the driver is needed, for init's message. */
export function driverReason(store: ControlStore, nodeVersion: string): string {
  if (store === 'postgres') return "the Postgres store's driver";
  if (store === 'sqlite-better') return "the SQLite store's driver the control chooses (driver: 'better-sqlite3')";
  return `the SQLite store's driver on Node ${nodeVersion}, which has no node:sqlite (22.13+ has)`;
}

/**
 * package.json's text with `wanted` added to `dependencies` where the app declares it nowhere
 * (dependencies, optionalDependencies, peerDependencies; a devDependencies entry is not installed
 * in production, so it is added too). Keeps the file's indentation and final newline. Returns the
 * names added; `text` unchanged when none.
 */
export function addDependencies(text: string, wanted: Record<string, string>): { text: string; added: string[] } {
  const value: unknown = JSON.parse(text);
  // a top level that is no object (Node refuses it too) has no dependencies to add to: JSON would drop them
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new TypeError('package.json holds no object');
  const pkg = value as Record<string, unknown>;
  const declared = (field: string) => (typeof pkg[field] === 'object' && pkg[field] !== null ? (pkg[field] as Record<string, string>) : {});
  const present = { ...declared('peerDependencies'), ...declared('optionalDependencies'), ...declared('dependencies') };
  const added = Object.keys(wanted).filter((name) => !Object.hasOwn(present, name));
  if (added.length === 0) return { text, added };
  const dependencies = { ...declared('dependencies') };
  for (const name of added) dependencies[name] = wanted[name]!;
  pkg.dependencies = Object.fromEntries(Object.entries(dependencies).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const indent = /^[ \t]+(?=")/m.exec(text)?.[0] ?? '  ';
  return { text: `${JSON.stringify(pkg, null, indent)}${text.endsWith('\n') ? '\n' : ''}`, added };
}

/** What init did about the driver of the control at `controlFile` in the package at `dir`. */
export type DriverOutcome =
  | { kind: 'none-needed'; store: ControlStore }
  | { kind: 'declared'; names: string[] }
  | { kind: 'added'; names: string[]; range: Record<string, string>; reason: string }
  | { kind: 'no-package-json'; names: string[]; reason: string };

/** The I/O shell: reads the control and package.json, adds the driver the store needs. */
export function ensureStoreDriver(
  io: { readText: (file: string) => string | undefined; writeText: (file: string, text: string) => void },
  dir: string,
  controlFile: string,
  nodeVersion: string,
): DriverOutcome {
  const store = controlStore(io.readText(`${dir}/${controlFile}`) ?? '');
  const wanted = storeDriverDependencies(store, nodeVersion);
  const names = Object.keys(wanted);
  if (names.length === 0) return { kind: 'none-needed', store };
  const pkgFile = `${dir}/package.json`;
  const text = io.readText(pkgFile);
  if (text === undefined) return { kind: 'no-package-json', names, reason: driverReason(store, nodeVersion) };
  let next: ReturnType<typeof addDependencies>;
  try {
    next = addDependencies(text, wanted);
  } catch {
    // not JSON init can edit: left as it is, and the user told what to add
    return { kind: 'no-package-json', names, reason: driverReason(store, nodeVersion) };
  }
  if (next.added.length === 0) return { kind: 'declared', names };
  io.writeText(pkgFile, next.text);
  return { kind: 'added', names: next.added, range: wanted, reason: driverReason(store, nodeVersion) };
}
