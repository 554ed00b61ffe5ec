import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { sourceFolder } from './layout.js';
import { mergeManifest, mergePolicy, readExisting } from './merge.js';
import { ensureStoreDriver } from './store-driver.js';
import { tscBuild, type TscBuild } from '../scan/tsc-build.js';
import { assertImportLoads, createModuleSettingsLookup } from '../scan/specifier.js';
import { unreachableBuildError } from './build-refusal.js';
import { writeStarterTests } from '../policy-test/starter.js';
import { schemaBase, withSchemaBase } from './schema-path.js';
import {
  type findTools,
  realtimeUse,
  planActions,
  renderControl,
  renderManifest,
  renderPolicy,
  type FoundDoors,
  type FoundServer,
  type FoundTool,
  type InitPlan,
  type RemoteRuntime,
} from './render.js';
import { isEdgeReason } from '../scan/browser-target.js';
import type { IdentityProposal } from './identity.js';
import { displayPath } from '../format-diagnostics.js';
import { MANIFEST_DEFAULTS, parseManifest } from '../manifest/load.js';
import { outputKind, packageType, typingsPath, type OutputKind } from '../generate/javascript.js';
import type { ActionSchemas } from '../generate/tool-schemas.js';
import type { Manifest } from '../manifest/types.js';
import { readRegularText } from '../safe-read.js';

export const POLICY = MANIFEST_DEFAULTS.policy;
export const MANIFEST = 'ctrlrun.tools.yaml';

/**
 * Where init puts the generated module and the control, and in which language. The language
 * follows the files that will import the module (the tool files, which the codemod rewrites):
 * when any of them is plain JavaScript (`.js`, `.mjs`, `.cjs`, `.jsx`), Node runs it as it is and
 * cannot load a `.ts` module, so the module is JavaScript plus a declaration file (TypeScript
 * importers read the declarations) (issue 21 item 2). Its module system: ESM when every
 * JavaScript importer is ESM, else CommonJS (an ES module imports CommonJS; on Node 20 the reverse
 * fails); its extension says so where the package.json `type` would not (`.mjs`, `.cjs`).
 * Otherwise a TypeScript project (a TypeScript tool file, a tsconfig.json, or `typescript` among
 * package.json's dependencies) gets the defaults (`src/*.ts`).
 */
export function initLayout(root: string, toolFiles: string[] = []): { output: string; control: string; kind: OutputKind } {
  const dir = existsSync(path.join(root, 'src')) ? 'src/' : '';
  const js = toolFiles.filter((f) => JS_FILE.test(f));
  if (js.length > 0) {
    const type = packageType(root);
    const esm = js.every((f) => moduleSystemOf(f) === 'esm');
    const ext = esm ? (type === 'module' ? '.js' : '.mjs') : type === 'module' ? '.cjs' : '.js';
    return { output: `${dir}ctrlrun.generated${ext}`, control: `${dir}ctrlrun.control${ext}`, kind: esm ? 'esm' : 'cjs' };
  }
  if (usesTypeScript(root, toolFiles)) return { output: MANIFEST_DEFAULTS.output, control: MANIFEST_DEFAULTS.control, kind: 'ts' };
  return { output: `${dir}ctrlrun.generated.js`, control: `${dir}ctrlrun.control.js`, kind: packageType(root) === 'module' ? 'esm' : 'cjs' };
}

const JS_FILE = /\.(?:js|cjs|mjs|jsx)$/;

/** How Node loads a JavaScript file: by its extension, else by the nearest package.json `type`. */
function moduleSystemOf(file: string): 'esm' | 'cjs' {
  if (file.endsWith('.mjs')) return 'esm';
  if (file.endsWith('.cjs')) return 'cjs';
  return packageType(path.dirname(file)) === 'module' ? 'esm' : 'cjs';
}

function usesTypeScript(root: string, toolFiles: string[]): boolean {
  if (toolFiles.some((f) => /\.(?:ts|tsx|mts|cts)$/.test(f))) return true;
  if (existsSync(path.join(root, 'tsconfig.json'))) return true;
  try {
    const pkg = JSON.parse(readRegularText(path.join(root, 'package.json'))) as Record<string, unknown>;
    return ['dependencies', 'devDependencies', 'peerDependencies'].some((field) => {
      const deps = pkg[field];
      return typeof deps === 'object' && deps !== null && Object.hasOwn(deps, 'typescript');
    });
  } catch {
    return false;
  }
}

/**
 * Marks the generated files for GitHub (diffs collapsed, left out of language statistics) in the
 * repo's `.gitattributes`: appends `<path> linguist-generated=true` for each path not named yet.
 * Returns the file's new text, or undefined when it names them all already.
 */
export function markGenerated(
  root: string,
  files: string[],
  readText: (file: string) => string | undefined = readIfThere,
): { file: string; text: string } | undefined {
  const file = path.join(root, '.gitattributes');
  const current = readText(file) ?? '';
  const named = new Set(current.split(/\r?\n/).map((line) => line.trim().split(/\s+/)[0]));
  const missing = files.filter((f) => !named.has(f) && !named.has(`/${f}`));
  if (missing.length === 0) return undefined;
  const lead = current === '' || current.endsWith('\n') ? current : `${current}\n`;
  return {
    file,
    text: `${lead}${current === '' ? '# Written by ctrlrun-gen init: generated files (collapsed in diffs).\n' : ''}${missing.map((f) => `${f} linguist-generated=true`).join('\n')}\n`,
  };
}

const readIfThere = (file: string): string | undefined => (existsSync(file) ? readRegularText(file) : undefined);

/**
 * What init writes, planned before anything is: the files (absolute path → text) and the lines it
 * prints about them. Reads see the planned text first (a later step reads what an earlier one plans).
 */
export interface WritePlan {
  files: Map<string, string>;
  lines: string[];
}

const planned =
  (plan: WritePlan) =>
  (file: string): string | undefined =>
    plan.files.get(path.resolve(file)) ?? readIfThere(file);

/** A Cloudflare Workers project: its code runs on workerd, where the SQLite and Postgres drivers do not load. */
const WRANGLER_CONFIGS = ['wrangler.jsonc', 'wrangler.json', 'wrangler.toml'];

export interface PackagePlan {
  dir: string;
  kind: OutputKind;
  /** Its tools run where SQLite and Postgres cannot (a realtime session, an edge runtime): the control gets httpStore. */
  remote: RemoteRuntime | undefined;
  /** Only some of its tool() declarations come from the realtime entry: the control is written for Node; these are named in a note. */
  realtimePlaces?: Array<{ file: string; line: number }>;
  plan: InitPlan;
  /** A JavaScript module for TypeScript importers that the package's own tsc builds into an outDir (src/init/tsc-build.ts). */
  build?: TscBuild;
  output: string;
  control: string;
  policyText?: string;
  manifestText?: string;
}

/** The tools of one package (places relative to it) and what to write there. */
export function planPackage(
  dir: string,
  files: string[],
  found: ReturnType<typeof findTools>,
  servers: FoundDoors,
  cwd: string,
  browserDirs: string[],
  browser: ReadonlyMap<string, string>,
): PackagePlan {
  const inPackage = new Set(files);
  // tools marked browser-side only because an edge route reaches them: the edge control, not the realtime one
  const marked = found.tools.flatMap((t) => t.places).filter((p) => p.realtime === true && inPackage.has(path.resolve(cwd, p.file)));
  const edgeOnly = marked.length > 0 && marked.every((p) => isEdgeReason(browser.get(p.file)));
  const rel = (file: string) => path.relative(dir, path.resolve(cwd, file)).split(path.sep).join('/');
  const tools: FoundTool[] = found.tools
    .map((t) => {
      const places = t.places.filter((p) => inPackage.has(path.resolve(cwd, p.file))).map((p) => ({ ...p, file: rel(p.file) }));
      const { realtime: _repoWide, ...rest } = t;
      return { ...rest, places, ...(places.some((p) => p.realtime === true) ? { realtime: true } : {}) };
    })
    .filter((t) => t.places.length > 0);
  const unnamed = found.unnamed.filter((u) => inPackage.has(path.resolve(cwd, u.file))).map((u) => ({ ...u, file: rel(u.file) }));
  const local = <T extends FoundServer>(list: T[]): T[] =>
    list
      .map((s) => ({ ...s, places: s.places.filter((p) => inPackage.has(path.resolve(cwd, p.file))).map((p) => ({ ...p, file: rel(p.file) })) }))
      .filter((s) => s.places.length > 0);
  const read = (f: string) => (existsSync(path.join(dir, f)) ? readRegularText(path.join(dir, f)) : undefined);
  const policyText = read(POLICY);
  const manifestText = read(MANIFEST);
  const existing = readExisting(policyText, manifestText, {
    policy: displayPath(path.join(dir, POLICY), cwd),
    manifest: displayPath(path.join(dir, MANIFEST), cwd),
  });
  const layout = initLayout(dir, files);
  // a JavaScript module tsc would not copy into its outDir goes where sources and build reach it alike
  const tsFiles = files.filter((f) => /\.[cm]?tsx?$/.test(f));
  const ext = path.extname(layout.output);
  const build = layout.kind === 'ts' || manifestText !== undefined ? undefined : tscBuild(dir, tsFiles, sourceFolder(dir, files), `ctrlrun.generated${ext}`);
  // no folder serves both the sources and their build: refuse rather than let the codemod break the built app
  if (build?.kind === 'unreachable')
    throw unreachableBuildError(
      build,
      dir,
      tsFiles,
      files.filter((f) => JS_FILE.test(f)),
      cwd,
    );
  const folder = build?.kind === 'beside' ? build.folder : sourceFolder(dir, files);
  const fresh = { output: `${folder}ctrlrun.generated${ext}`, control: `${folder}ctrlrun.control${ext}` };
  const paths = manifestPaths(manifestText) ?? fresh;
  // the imports generate and the codemod would write: refused now, before anything is written, when Node could not load them
  const settings = createModuleSettingsLookup(dir)(path.dirname(path.join(dir, paths.output)));
  assertImportLoads(settings, paths.output, 'init', cwd);
  // merging keeps the manifest's paths: the control's language follows its own extension
  const kind = manifestText === undefined ? layout.kind : outputKind(path.join(dir, paths.control));
  return {
    dir,
    kind,
    remote:
      edgeOnly && realtimeUse(tools) === 'realtime'
        ? 'edge'
        : realtimeUse(tools) === 'realtime' || (tools.length === 0 && browserDirs.some((d) => isInsideDir(dir, d)))
          ? 'realtime'
          : WRANGLER_CONFIGS.some((f) => existsSync(path.join(dir, f)))
            ? 'edge'
            : undefined,
    ...(realtimeUse(tools) === 'mixed' ? { realtimePlaces: tools.flatMap((t) => t.places.filter((p) => p.realtime === true)) } : {}),
    plan: planActions({ tools, unnamed }, existing, {
      hosted: local(servers.hosted),
      mcp: local(servers.mcp),
      sandbox: local(servers.sandbox ?? []),
      handoffs: local(servers.handoffs ?? []),
      sandboxUnlisted: (servers.sandboxUnlisted ?? []).filter((u) => inPackage.has(path.resolve(cwd, u.file))).map((u) => ({ ...u, file: rel(u.file) })),
      ...(servers.mcpTools ? { mcpTools: servers.mcpTools } : {}),
    }),
    ...(build ? { build } : {}),
    ...paths,
    ...(policyText !== undefined ? { policyText } : {}),
    ...(manifestText !== undefined ? { manifestText } : {}),
  };
}

const isInsideDir = (dir: string, p: string): boolean => {
  const rel = path.relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/** `output` and `control` of an existing manifest (merging keeps them), else undefined. */
function manifestPaths(text: string | undefined): { output: string; control: string } | undefined {
  if (text === undefined) return undefined;
  const doc = parseDocument(text);
  const output = doc.get('output');
  const control = doc.get('control');
  if (doc.errors.length > 0 || doc.contents === null) return undefined;
  return { output: typeof output === 'string' ? output : MANIFEST_DEFAULTS.output, control: typeof control === 'string' ? control : MANIFEST_DEFAULTS.control };
}

export interface WriteContext {
  cwd: string;
  identity: IdentityProposal;
  readSchemas: (manifest: Manifest) => ActionSchemas;
}

export function planPackageWrites(p: PackagePlan, out: WritePlan, { cwd, identity, readSchemas }: WriteContext): void {
  const say = (line: string) => void out.lines.push(line);
  const schemaDir = schemaBase(p.dir);
  const write = (rel: string, text: string, verb: string) => {
    const target = path.join(p.dir, rel);
    // the editor's schema line points at the installed copy (hoisted to a workspace root's node_modules)
    out.files.set(path.resolve(target), verb === 'wrote' ? withSchemaBase(text, schemaDir) : text);
    say(`${verb} ${displayPath(target, cwd)}\n`);
  };
  const policyFile = displayPath(path.join(p.dir, POLICY), cwd);
  const manifestFile = displayPath(path.join(p.dir, MANIFEST), cwd);
  const mergedPolicy = p.policyText === undefined ? undefined : mergePolicy(p.policyText, p.plan, policyFile);
  const mergedManifest = p.manifestText === undefined ? undefined : mergeManifest(p.manifestText, p.plan, manifestFile);
  // an existing file that is empty (or only comments) is written afresh
  if (mergedPolicy === undefined || isBlank(p.policyText)) write(POLICY, renderPolicy(p.plan), 'wrote');
  else if (mergedPolicy !== p.policyText) write(POLICY, mergedPolicy, 'merged into');
  else say(`kept ${policyFile}\n`);
  const fresh = mergedManifest === undefined || isBlank(p.manifestText);
  const manifestText = mergedManifest === undefined || fresh ? renderManifest(p.plan, { output: p.output, control: p.control }) : mergedManifest;
  // the manifest as it will be written says which tool each action is; one that does not load gives no schemas
  const schemas = () => {
    const manifest = parseManifest(manifestText, path.join(p.dir, MANIFEST)).value;
    return manifest ? readSchemas(manifest) : undefined;
  };
  writeStarterTests(p.dir, POLICY, (rel, text) => write(rel, text, 'wrote'), { readText: planned(out), schemas });
  if (fresh) write(MANIFEST, manifestText, 'wrote');
  else if (mergedManifest !== p.manifestText) write(MANIFEST, manifestText, 'merged into');
  else say(`kept ${manifestFile}\n`);
  if (existsSync(path.join(p.dir, p.control))) say(`kept ${displayPath(path.join(p.dir, p.control), cwd)} (yours to edit; never overwritten)\n`);
  else {
    write(p.control, renderControl(p.kind, { ...(p.remote ? { remote: p.remote } : {}), identity }), 'wrote');
    if (p.remote === 'realtime') {
      say(
        `  (its tools run in a realtime session, usually a browser page: the control keeps the ledger behind \`npx ctrlrun-gen serve --cors-origin <your app's origin>\` through httpStore; set its URL and runtime token)\n`,
      );
    } else if (p.remote === undefined && p.realtimePlaces) {
      const at = p.realtimePlaces.map((place) => `${displayPath(path.join(p.dir, place.file), cwd)}:${place.line}`);
      say(
        `note: ${at.length} tool() declaration${at.length === 1 ? '' : 's'} of this package come${at.length === 1 ? 's' : ''} from the realtime entry (${at.slice(0, 3).join(', ')}${at.length > 3 ? ', …' : ''}) and the others do not: ` +
          'its one control is written for Node (SQLite). If those tools run in a browser session, give them a package of their own (init writes it an httpStore control) or switch this control to httpStore (docs/runtime.md)\n',
      );
    } else if (p.remote === 'edge') {
      say(
        `  (its tools run on an edge runtime (a wrangler config, or a route with \`export const runtime = 'edge'\`): the control keeps the ledger behind \`npx ctrlrun-gen serve\` through httpStore; set its URL and runtime token)\n`,
      );
    }
  }
  if (p.build?.kind === 'beside') say(`${buildNote(p.build, cwd)}\n`);
  planStoreDriver(p.dir, p.control, out, cwd);
  const marks = markGenerated(p.dir, p.kind === 'ts' ? [p.output] : [p.output, typingsPath(p.output)], planned(out));
  if (marks) {
    out.files.set(path.resolve(marks.file), marks.text);
    say(`wrote ${displayPath(marks.file, cwd)} (marks the generated module as generated)\n`);
  }
}

/** What init says about a JavaScript module that TypeScript importers built by the package's tsc load. */
function buildNote(build: Extract<TscBuild, { kind: 'beside' }>, cwd: string): string {
  const rel = (p: string) => `${displayPath(p, cwd)}/`;
  const builds = build.programs.map((p) => `${rel(p.rootDir)} to ${rel(p.outDir)}`).join(', ');
  return `  (tsc builds ${builds} without allowJs and would not copy a JavaScript module there: the module and the control are in ${build.folder === '' ? 'the package folder' : build.folder}, which the sources, their build and the scripts import by the same path)`;
}

/** The store's driver in the app's dependencies (src/init/store-driver.ts), said either way. */
function planStoreDriver(dir: string, control: string, out: WritePlan, cwd: string): void {
  const io = { readText: planned(out), writeText: (f: string, t: string) => void out.files.set(path.resolve(f), t) };
  const outcome = ensureStoreDriver(io, dir, control, process.versions.node);
  const pkg = displayPath(path.join(dir, 'package.json'), cwd);
  const say = (line: string) => void out.lines.push(line);
  if (outcome.kind === 'added') {
    say(`added ${outcome.names.map((n) => `${n}@${outcome.range[n]}`).join(', ')} to ${pkg}'s dependencies (${outcome.reason}); run npm install\n`);
  } else if (outcome.kind === 'no-package-json') {
    say(`note: the control's store needs ${outcome.names.join(', ')} (${outcome.reason}): add it to your app's dependencies\n`);
  } else if (outcome.kind === 'none-needed' && outcome.store === 'sqlite') {
    say(`  (the SQLite store uses node:sqlite, built into Node 22.13+: no driver to install; on an older Node add better-sqlite3 to ${pkg}'s dependencies)\n`);
  }
}

function isBlank(text: string | undefined): boolean {
  return text !== undefined && parseDocument(text).contents === null;
}
