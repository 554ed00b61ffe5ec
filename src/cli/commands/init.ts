import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { UserError } from '../../diagnostics.js';
import { describeWriteFailure, WriteSetError, writeAll } from '../../fs/write-all.js';
import { groupByPackage, sourceFolder } from '../../init/layout.js';
import { doorNotes, findSandboxAndHandoffs } from '../../init/doors.js';
import { mergeManifest, mergePolicy, readExisting } from '../../init/merge.js';
import { ensureStoreDriver } from '../../init/store-driver.js';
import { tscBuild, type TscBuild } from '../../scan/tsc-build.js';
import { assertImportLoads, createModuleSettingsLookup } from '../../scan/specifier.js';
import { unreachableBuildError } from '../../init/build-refusal.js';
import { writeStarterTests } from '../../policy-test/starter.js';
import { schemaBase, withSchemaBase } from '../../init/schema-path.js';
import { testOnlyTools, testOnlyToolsNote, type TestOnlyTools } from '../../init/test-tools.js';
import {
  findServers,
  findTools,
  computedEntry,
  realtimeUse,
  planActions,
  renderControl,
  renderManifest,
  renderPolicy,
  yamlString,
  type FoundDoors,
  type FoundServer,
  type FoundTool,
  type InitPlan,
  type RemoteRuntime,
} from '../../init/render.js';
import { readSourceText, scanRepo } from '../../scan/index.js';
import { browserSideFiles, isEdgeReason } from '../../scan/browser-target.js';
import { doorsInitMaps, identityNotes, parseIdentityOption, proposeIdentity, runsWithoutContext, type IdentityProposal } from '../../init/identity.js';
import { RESOLVABLE_NAMES, unresolvedNameMessage } from '../../scan/names.js';
import { sdkToolName } from '../../runtime/tool-name.js';
import type { CliContext, CommandSpec } from '../context.js';
import { displayPath } from '../../format-diagnostics.js';
import { findManifest, MANIFEST_DEFAULTS, parseManifest } from '../../manifest/load.js';
import { packagesBelow } from '../../manifest/workspace.js';
import { outputKind, packageType, typingsPath, type OutputKind } from '../../generate/javascript.js';
import { schemasInScans } from '../../generate/project-schemas.js';
import type { ActionSchemas } from '../../generate/tool-schemas.js';
import type { Manifest } from '../../manifest/types.js';
import { mcpNotes, mcpToolsOfRepo } from '../../init/mcp-notes.js';
import { readRegularText } from '../../safe-read.js';
import { setComponentsApart } from '../../init/component-notes.js';

interface InitArgs {
  force?: boolean;
  identity?: string;
  discoverMcp?: boolean;
}

const POLICY = MANIFEST_DEFAULTS.policy;
const MANIFEST = 'ctrlrun.tools.yaml';

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
interface WritePlan {
  files: Map<string, string>;
  lines: string[];
}

const planned =
  (plan: WritePlan) =>
  (file: string): string | undefined =>
    plan.files.get(path.resolve(file)) ?? readIfThere(file);

/** Writes the plan all or nothing (src/fs/write-all.ts); a file that cannot be written is a located user error. */
function commitPlan(plan: WritePlan, ctx: CliContext): void {
  try {
    writeAll([...plan.files].map(([file, text]) => ({ file, text })));
  } catch (error) {
    if (!(error instanceof WriteSetError)) throw error;
    const n = plan.files.size;
    throw new UserError(
      `init: cannot write ${displayPath(error.file, ctx.cwd)}: ${describeWriteFailure(error)}; nothing was written (${n} file${n === 1 ? '' : 's'} planned, none left behind). Make the folder writable and run init again`,
    );
  }
  for (const line of plan.lines) ctx.stdout(line);
}

export const initCommand: CommandSpec<InitArgs> = {
  command: 'init',
  describe: "Scan this repo and write ctrlrun.yaml, ctrlrun.tools.yaml and the operator's control in the package that holds the tools",
  builder: (y) =>
    y
      .option('force', {
        type: 'boolean',
        default: false,
        describe: 'Merge into files that already exist: their actions and mappings are kept, new tools are added',
      })
      .option('discover-mcp', {
        type: 'boolean',
        default: false,
        describe:
          "Ask each MCP server the code configures for its tools by starting it (a stdio server's literal command, or an HTTP server on this machine), each for at most 15 s; without it, init maps only the tools of servers defined in this repository",
      })
      .option('identity', {
        type: 'string',
        describe:
          "Who a run acts for, as the control reads it: a key path of the context passed to run() (`userId`, `session.user`), or `env:NAME` for runs no person stands behind. Default: proposed from the code's run() calls, else `user`",
      }),
  examples: [
    ['ctrlrun-gen init', 'Write a policy that asks a human before any tool runs'],
    ['ctrlrun-gen init --force', 'Add the tools found since, keeping every action and mapping already there'],
    ['ctrlrun-gen init --cwd packages/agent', 'One package of a workspace'],
    ['ctrlrun-gen init --identity env:CTRLRUN_PRINCIPAL', 'A script or job: the principal comes from an environment variable'],
    ['ctrlrun-gen init --discover-mcp', "Map the tools of the MCP servers the code starts, as they list them (runs each server's command)"],
  ],
  run: async (args, ctx) => {
    const chosen = args.identity !== undefined ? parseIdentityOption(args.identity) : undefined;
    // the doors in components (.vue, .svelte, .astro, .mdx) are not mapped: said in notes below
    const { scan, notes: componentNotes } = setComponentsApart(await scanRepo({ root: ctx.cwd }));
    const browser = browserSideFiles(scan.files, ctx.cwd, (rel) => readSourceText(path.resolve(ctx.cwd, rel)));
    const found = markBrowserSide(findTools(scan), browser);
    const mapped = new Set(found.tools.map((t) => t.name));
    const proposed = proposeIdentity(scan.files);
    const identity = chosen ?? proposed.proposal;
    const inTests = testOnlyTools(scan, mapped);
    const doors = findSandboxAndHandoffs(scan);
    const found0 = findServers(scan);
    const mcp = await mcpToolsOfRepo(found0.mcp, ctx.cwd, args.discoverMcp === true);
    const servers: FoundDoors = { ...found0, mcpTools: mcp.found, sandbox: doors.sandbox, handoffs: doors.handoffs, sandboxUnlisted: doors.unlisted };
    // the runs named for passing no context: those that reach a door init maps (issue 40, item 3)
    const without = runsWithoutContext(scan.files, identity, doorsInitMaps(mapped, found.unnamed, servers.hosted, mcp.found));
    const abs = (rel: string) => path.resolve(ctx.cwd, rel);
    const serverFiles = [...servers.hosted, ...servers.mcp, ...doors.sandbox, ...doors.handoffs, ...doors.unlisted.map((u) => ({ places: [u] }))].flatMap((s) =>
      s.places.map((p) => abs(p.file)),
    );
    const toolFiles = [...new Set([...found.tools.flatMap((t) => t.places.map((p) => abs(p.file))), ...found.unnamed.map((u) => abs(u.file)), ...serverFiles])];
    // no tool found: the files go where the SDK is used (the Vite client of a root of sibling
    // packages), in the language and for the runtime of that code; else the working directory
    const sdkFiles = scan.files.filter((f) => f.importsSdk).map((f) => abs(f.file));
    // tools only in test files: nothing to protect, and no starter written for them either
    if (toolFiles.length === 0 && inTests.count > 0) return nothingButTests(inTests, ctx);
    const groups =
      toolFiles.length > 0 ? groupByPackage(toolFiles, ctx.cwd) : sdkFiles.length > 0 ? groupByPackage(sdkFiles, ctx.cwd) : new Map([[ctx.cwd, []]]);
    const packages = [...groups.keys()].sort();

    // refuse before writing anything anywhere
    refuseWithoutPackageJson(packages, ctx.cwd);
    if (!args.force) {
      const existing = packages.flatMap((dir) => [POLICY, MANIFEST].map((f) => path.join(dir, f)).filter((f) => existsSync(f)));
      if (existing.length > 0) {
        throw new UserError(
          `${existing.map((f) => displayPath(f, ctx.cwd)).join(', ')} already exist${existing.length === 1 ? 's' : ''}; nothing was written. ` +
            'Run `ctrlrun-gen init --force` to add the tools found since (actions and mappings already there are kept), or edit the files by hand.',
        );
      }
    }
    const browserDirs = [...browser.keys()].map((rel) => path.dirname(abs(rel)));
    const plans = packages.map((dir) => planPackage(dir, groups.get(dir) ?? [], found, servers, ctx.cwd, browserDirs, browser));
    const controlsWritten = plans.filter((p) => !existsSync(path.join(p.dir, p.control))).length;
    const writes: WritePlan = { files: new Map(), lines: [] };
    // the starter tests keep to the tools' parameter schemas, read from this scan as generate would read them
    const readSchemas = (manifest: Manifest) => schemasInScans(manifest, ctx.cwd, scan.files, (s) => readSourceText(abs(s.file)));
    for (const p of plans) planPackageWrites(p, writes, { cwd: ctx.cwd, identity, readSchemas });
    commitPlan(writes, ctx);

    const tools = plans.reduce((n, p) => n + p.plan.tools.length, 0);
    const kept = plans.reduce((n, p) => n + p.plan.kept.length, 0);
    const declared = plans.reduce((n, p) => n + p.plan.tools.reduce((m, t) => m + t.places.length, 0), 0);
    const sandboxTools = plans.reduce((n, p) => n + (p.plan.sandbox ?? []).length, 0);
    const handoffs = plans.reduce((n, p) => n + (p.plan.handoffs ?? []).length, 0);
    const allowed = plans.reduce((n, p) => n + [...(p.plan.sandbox ?? []), ...(p.plan.handoffs ?? [])].filter((d) => d.decision === 'allow').length, 0);
    const otherDoors =
      sandboxTools + handoffs > 0 ? `, ${sandboxTools} sandbox tool${sandboxTools === 1 ? '' : 's'} and ${handoffs} handoff${handoffs === 1 ? '' : 's'}` : '';
    ctx.stdout(
      `\nFound ${tools} new tool name${tools === 1 ? '' : 's'} in ${declared} call${declared === 1 ? '' : 's'}${otherDoors}` +
        ` (${scan.filesConsidered} files looked at)${kept > 0 ? `; ${kept} already mapped, kept` : ''}; every new action starts at decision: approve${allowed > 0 ? `, except ${allowed} at allow (the notes below say which)` : ''}.\n`,
    );
    if (plans.length > 1) ctx.stdout(`The tools are in ${plans.length} packages; each has its own policy, manifest and control.\n`);
    for (const line of identityNotes(identity, chosen !== undefined, proposed, controlsWritten > 0, without)) ctx.stdout(`${line}\n`);
    for (const { dir, plan } of plans) {
      const manifest = displayPath(path.join(dir, MANIFEST), ctx.cwd);
      for (const tool of plan.tools.filter((t) => t.renamedFrom)) {
        ctx.stdout(`note: tool ${JSON.stringify(tool.name)} is action ${tool.action} (${tool.renamedFrom} was taken)\n`);
      }
      for (const place of plan.unnamed) {
        const file = displayPath(path.join(dir, place.file), ctx.cwd);
        if (place.what === 'asTool()') {
          ctx.stdout(
            `note: ${file}:${place.line}: this asTool() has neither a literal \`toolName\` nor an agent with a literal \`name\`, so it cannot be mapped to a policy action; give it a literal toolName, or map it by hand in ${manifest}\n`,
          );
        } else if (place.what === 'hostedMcpTool()') {
          ctx.stdout(
            `note: ${file}:${place.line}: this hostedMcpTool() cannot be mapped: ${place.reason}; write \`serverLabel: '<label>'\` in the call, or map it by hand in ${manifest} (\`- hosted_mcp: { server_label: <label> }\`)\n`,
          );
        } else
          ctx.stdout(
            `note: ${file}:${place.line}: ${unresolvedNameMessage(place.reason)}; write it as ${RESOLVABLE_NAMES}, or map it by hand in ${manifest}\n`,
          );
      }
      for (const c of plan.computed ?? []) {
        ctx.stdout(
          `note: ${displayPath(path.join(dir, c.file), ctx.cwd)}:${c.lines.join(', ')}: ${c.lines.length === 1 ? 'this tool() computes its name' : 'these tool() calls compute their names'}; the tools made there are action ${c.action}, mapped by their place (\`${computedEntry(c).head}\` in ${manifest}): narrow \`names\` to the names they take\n`,
        );
      }
      for (const tool of plan.clashes ?? []) {
        ctx.stdout(
          `note: ${displayPath(path.join(dir, tool.places[0]!.file), ctx.cwd)}:${tool.places[0]!.line}: tool ${JSON.stringify(tool.name)} is left unmapped: the SDK names it like ${JSON.stringify(tool.sameAs)} (both reach the model as \`${sdkToolName(tool.name)}\`), and one manifest entry cannot tell them apart; rename one of them and run init --force\n`,
        );
      }
      for (const server of plan.hosted ?? []) {
        ctx.stdout(`note: hosted MCP server ${JSON.stringify(server.name)} is action ${server.action} (decision: approve); protect it with protectHostedMcp\n`);
      }
      for (const line of doorNotes(plan, manifest)) ctx.stdout(line);
      for (const server of plan.mcpServers ?? []) {
        const at = server.places[0]!;
        ctx.stdout(
          `note: ${displayPath(path.join(dir, at.file), ctx.cwd)}:${at.line}: MCP server ${JSON.stringify(server.name)} lists its tools only at run time: map each as ` +
            `\`- mcp: { server: ${yamlString(server.name)}, tool: <tool> }\` in ${manifest} (an example is there, commented; \`init --force --discover-mcp\` asks the server); a tool no entry maps is denied\n`,
        );
      }
    }
    for (const line of mcpNotes(plans, mcp, ctx.cwd)) ctx.stdout(line);
    for (const line of objectToolNotes(scan.files)) ctx.stdout(line);
    for (const line of componentNotes) ctx.stdout(line);
    const testNote = testOnlyToolsNote(inTests);
    if (testNote) ctx.stdout(testNote);
    ctx.stdout(
      nextSteps(
        plans.map((p) => p.dir),
        ctx.cwd,
      ),
    );
    return 0;
  },
};

/** init where every tool is in a test file: it says so and writes nothing (exit 0: nothing of the app is open). */
function nothingButTests(inTests: TestOnlyTools, ctx: CliContext): number {
  ctx.stdout(testOnlyToolsNote(inTests) ?? '');
  ctx.stdout('Nothing written: no tool outside test files, so no policy, manifest or control is needed here.\n');
  return 0;
}

/**
 * Function tools written by hand (`{ type: 'function', name, invoke }`): the SDK runs them, but no
 * `tool()` call declares them, so init cannot map them and the codemod cannot rewrite them. Said
 * here, as `check` says it (`object-literal-tool`), rather than counted as no tool at all.
 */
function objectToolNotes(
  files: ReadonlyArray<{ file: string; objectLiteralTools?: Array<{ span: { line: number }; name?: string; form?: 'object' | 'class' }> }>,
): string[] {
  return files.flatMap((f) =>
    (f.objectLiteralTools ?? []).map(
      (t) =>
        `note: ${f.file}:${t.span.line}: the function tool${t.name !== undefined ? ` ${JSON.stringify(t.name)}` : ''} is ${t.form === 'class' ? 'a class whose instances are function tools, with its own `invoke`' : "an object literal with its own `invoke` (`{ type: 'function', … }`)"}: no tool() declares it, so init cannot map it and the codemod cannot protect it; ` +
        'build it with `tool({ name, description, parameters, execute })` and run `ctrlrun-gen init --force` (`check` reports it as object-literal-tool)\n',
    ),
  );
}

/**
 * init writes into a package (the policy beside its package.json, the store's driver among its
 * dependencies, the control's module kind from its `type`): a folder with no package.json is not
 * one, and init refuses there rather than guess (issue 21 item 9).
 */
function refuseWithoutPackageJson(packages: string[], cwd: string): void {
  const bare = packages.filter((dir) => !existsSync(path.join(dir, 'package.json')));
  if (bare.length === 0) return;
  const where = bare.map((dir) => (dir === path.resolve(cwd) ? 'this folder' : displayPath(dir, cwd))).join(', ');
  throw new UserError(
    `init: no package.json in ${where}; nothing was written. init writes into the package that holds the tools: run it in the app's package folder (the one with its package.json, or \`--cwd <that folder>\`), or run \`npm init\` here first`,
  );
}

/**
 * The commands to run next, as they run when pasted: at the directory init ran in when that is the
 * package, or a workspace root whose packages hold every manifest (the commands then go through each
 * package's manifest); else with `--cwd <package>` for each package.
 */
export function nextSteps(dirs: string[], cwd: string): string {
  const packages = new Set(packagesBelow(cwd));
  const here = dirs.every((d) => d === cwd) || (dirs.every((d) => packages.has(d)) && findManifest(cwd) === undefined);
  const targets = here ? [''] : dirs.map((d) => (d === cwd ? '' : ` --cwd ${shellWord(displayPath(d, cwd))}`));
  const lines = ['', 'Next (commit first: codemod --write refuses a tree with uncommitted changes):'];
  for (const cd of targets) {
    lines.push(
      `  npx ctrlrun-gen generate${cd}        # write the generated module of protected tools`,
      `  npx ctrlrun-gen codemod --write${cd} # rewrite your tool() calls to protectedTool()`,
      `  npx ctrlrun-gen check${cd}           # the lint your CI runs on every pull request`,
    );
  }
  if (here && dirs.some((d) => d !== cwd))
    lines.push('  (run here, at the root, each command goes through every package below it that has a ctrlrun.tools.yaml)');
  return `${lines.join('\n')}\n`;
}

/** A path as one shell word. */
function shellWord(word: string): string {
  return /^[\w./@-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Tools declared in a file whose code runs in a browser or a realtime session (a Vite app, a client
 * component, a file that runs a RealtimeSession or imported by one) run where the SQLite and
 * Postgres stores cannot load: their places count as realtime, whatever entry `tool` came from.
 */
function markBrowserSide(found: ReturnType<typeof findTools>, browser: ReadonlyMap<string, string>): ReturnType<typeof findTools> {
  return {
    ...found,
    tools: found.tools.map((t) => {
      const places = t.places.map((p) => (p.realtime === false && browser.has(p.file) ? { ...p, realtime: true } : p));
      return { ...t, places, ...(places.some((p) => p.realtime === true) ? { realtime: true } : {}) };
    }),
  };
}

/** A Cloudflare Workers project: its code runs on workerd, where the SQLite and Postgres drivers do not load. */
const WRANGLER_CONFIGS = ['wrangler.jsonc', 'wrangler.json', 'wrangler.toml'];

interface PackagePlan {
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
function planPackage(
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

interface WriteContext {
  cwd: string;
  identity: IdentityProposal;
  readSchemas: (manifest: Manifest) => ActionSchemas;
}

function planPackageWrites(p: PackagePlan, out: WritePlan, { cwd, identity, readSchemas }: WriteContext): void {
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
