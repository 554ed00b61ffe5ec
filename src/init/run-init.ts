import { existsSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../diagnostics.js';
import { displayPath } from '../format-diagnostics.js';
import { describeWriteFailure, WriteSetError, writeAll } from '../fs/write-all.js';
import { findManifest } from '../manifest/load.js';
import type { Manifest } from '../manifest/types.js';
import { packagesBelow } from '../manifest/workspace.js';
import { schemasInScans } from '../generate/project-schemas.js';
import { sdkToolName } from '../runtime/tool-name.js';
import { browserSideFiles } from '../scan/browser-target.js';
import { readSourceText, scanRepo } from '../scan/index.js';
import type { FileScan } from '../scan/types.js';
import { RESOLVABLE_NAMES, unresolvedNameMessage } from '../scan/names.js';
import { shellWord } from '../shell-word.js';
import { setComponentsApart } from './component-notes.js';
import { doorNotes, findSandboxAndHandoffs } from './doors.js';
import { handDoorNotes } from './hand-door-notes.js';
import { groupByPackage } from './layout.js';
import { doorsInitMaps, identityNotes, parseIdentityOption, proposeIdentity, runsWithoutContext, type IdentityProposal } from './identity.js';
import { mcpNotes, mcpToolsOfRepo } from './mcp-notes.js';
import { MANIFEST, POLICY, planPackage, planPackageWrites, type PackagePlan, type WritePlan } from './package-plan.js';
import { computedEntry, findServers, findTools, yamlString, type FoundDoors } from './render.js';
import { testOnlyTools, testOnlyToolsNote, type TestOnlyTools } from './test-tools.js';

/** What `init` was asked: merge into existing files, who a run acts for, whether to ask MCP servers for their tools. */
export interface InitOptions {
  cwd: string;
  force?: boolean | undefined;
  identity?: string | undefined;
  discoverMcp?: boolean | undefined;
}

/** init's plan, made before anything is written: the files, and what the summary says of them. */
export type InitPlanned =
  | { kind: 'tests-only'; inTests: TestOnlyTools }
  | {
      kind: 'planned';
      writes: WritePlan;
      plans: PackagePlan[];
      summary: InitSummary;
    };

/** What the summary after the writes reports. */
export interface InitSummary {
  filesConsidered: number;
  controlsWritten: number;
  identity: IdentityProposal;
  chosen: boolean;
  proposed: ReturnType<typeof proposeIdentity>;
  without: ReturnType<typeof runsWithoutContext>;
  mcp: Awaited<ReturnType<typeof mcpToolsOfRepo>>;
  componentNotes: string[];
  inTests: TestOnlyTools;
  files: FileScan[];
}

/**
 * Scans the repo and plans every file init writes, in every package that holds tools; refuses
 * (a located UserError) before anything is written when a package has no package.json or, without
 * `force`, already has a policy or manifest.
 */
export async function planInit(options: InitOptions): Promise<InitPlanned> {
  const { cwd } = options;

  const chosen = options.identity !== undefined ? parseIdentityOption(options.identity) : undefined;
  // the doors in components (.vue, .svelte, .astro, .mdx) are not mapped: said in notes below
  const { scan, notes: componentNotes } = setComponentsApart(await scanRepo({ root: cwd }));
  const browser = browserSideFiles(scan.files, cwd, (rel) => readSourceText(path.resolve(cwd, rel)));
  const found = markBrowserSide(findTools(scan), browser);
  const mapped = new Set(found.tools.map((t) => t.name));
  const proposed = proposeIdentity(scan.files);
  const identity = chosen ?? proposed.proposal;
  const inTests = testOnlyTools(scan, mapped);
  const doors = findSandboxAndHandoffs(scan);
  const found0 = findServers(scan);
  const mcp = await mcpToolsOfRepo(found0.mcp, cwd, options.discoverMcp === true);
  const servers: FoundDoors = { ...found0, mcpTools: mcp.found, sandbox: doors.sandbox, handoffs: doors.handoffs, sandboxUnlisted: doors.unlisted };
  // the runs named for passing no context: those that reach a door init maps (issue 40, item 3)
  const without = runsWithoutContext(scan.files, identity, doorsInitMaps(mapped, found.unnamed, servers.hosted, mcp.found));
  const abs = (rel: string) => path.resolve(cwd, rel);
  const serverFiles = [...servers.hosted, ...servers.mcp, ...doors.sandbox, ...doors.handoffs, ...doors.unlisted.map((u) => ({ places: [u] }))].flatMap((s) =>
    s.places.map((p) => abs(p.file)),
  );
  const toolFiles = [...new Set([...found.tools.flatMap((t) => t.places.map((p) => abs(p.file))), ...found.unnamed.map((u) => abs(u.file)), ...serverFiles])];
  // no tool found: the files go where the SDK is used (the Vite client of a root of sibling
  // packages), in the language and for the runtime of that code; else the working directory
  const sdkFiles = scan.files.filter((f) => f.importsSdk).map((f) => abs(f.file));
  // tools only in test files: nothing to protect, and no starter written for them either
  if (toolFiles.length === 0 && inTests.count > 0) return { kind: 'tests-only', inTests };
  const groups = toolFiles.length > 0 ? groupByPackage(toolFiles, cwd) : sdkFiles.length > 0 ? groupByPackage(sdkFiles, cwd) : new Map([[cwd, []]]);
  const packages = [...groups.keys()].sort();

  // refuse before writing anything anywhere
  refuseWithoutPackageJson(packages, cwd);
  if (!options.force) {
    const existing = packages.flatMap((dir) => [POLICY, MANIFEST].map((f) => path.join(dir, f)).filter((f) => existsSync(f)));
    if (existing.length > 0) {
      throw new UserError(
        `${existing.map((f) => displayPath(f, cwd)).join(', ')} already exist${existing.length === 1 ? 's' : ''}; nothing was written. ` +
          'Run `ctrlrun-gen init --force` to add the tools found since (actions and mappings already there are kept), or edit the files by hand.',
      );
    }
  }
  const browserDirs = [...browser.keys()].map((rel) => path.dirname(abs(rel)));
  const plans = packages.map((dir) => planPackage(dir, groups.get(dir) ?? [], found, servers, cwd, browserDirs, browser));
  const controlsWritten = plans.filter((p) => !existsSync(path.join(p.dir, p.control))).length;
  const writes: WritePlan = { files: new Map(), lines: [] };
  // the starter tests keep to the tools' parameter schemas, read from this scan as generate would read them
  const readSchemas = (manifest: Manifest) => schemasInScans(manifest, cwd, scan.files, (s) => readSourceText(abs(s.file)));
  for (const p of plans) planPackageWrites(p, writes, { cwd: cwd, identity, readSchemas });
  return {
    kind: 'planned',
    writes,
    plans,
    summary: {
      filesConsidered: scan.filesConsidered,
      controlsWritten,
      identity,
      chosen: chosen !== undefined,
      proposed,
      without,
      mcp,
      componentNotes,
      inTests,
      files: scan.files,
    },
  };
}

/** The summary init prints after its writes: counts, the identity, and a note for each door it could not map as it stands. */
export function initSummaryLines(plans: PackagePlan[], s: InitSummary, cwd: string): string[] {
  const out: string[] = [];
  const say = (line: string) => void out.push(line);
  const { identity, proposed, without, mcp, componentNotes, inTests, controlsWritten } = s;

  const tools = plans.reduce((n, p) => n + p.plan.tools.length, 0);
  const kept = plans.reduce((n, p) => n + p.plan.kept.length, 0);
  const declared = plans.reduce((n, p) => n + p.plan.tools.reduce((m, t) => m + t.places.length, 0), 0);
  const sandboxTools = plans.reduce((n, p) => n + (p.plan.sandbox ?? []).length, 0);
  const handoffs = plans.reduce((n, p) => n + (p.plan.handoffs ?? []).length, 0);
  const allowed = plans.reduce((n, p) => n + [...(p.plan.sandbox ?? []), ...(p.plan.handoffs ?? [])].filter((d) => d.decision === 'allow').length, 0);
  const otherDoors =
    sandboxTools + handoffs > 0 ? `, ${sandboxTools} sandbox tool${sandboxTools === 1 ? '' : 's'} and ${handoffs} handoff${handoffs === 1 ? '' : 's'}` : '';
  say(
    `\nFound ${tools} new tool name${tools === 1 ? '' : 's'} in ${declared} call${declared === 1 ? '' : 's'}${otherDoors}` +
      ` (${s.filesConsidered} files looked at)${kept > 0 ? `; ${kept} already mapped, kept` : ''}; every new action starts at decision: approve${allowed > 0 ? `, except ${allowed} at allow (the notes below say which)` : ''}.\n`,
  );
  if (plans.length > 1) say(`The tools are in ${plans.length} packages; each has its own policy, manifest and control.\n`);
  for (const line of identityNotes(identity, s.chosen, proposed, controlsWritten > 0, without)) say(`${line}\n`);
  for (const { dir, plan } of plans) {
    const manifest = displayPath(path.join(dir, MANIFEST), cwd);
    for (const tool of plan.tools.filter((t) => t.renamedFrom)) {
      say(`note: tool ${JSON.stringify(tool.name)} is action ${tool.action} (${tool.renamedFrom} was taken)\n`);
    }
    for (const place of plan.unnamed) {
      const file = displayPath(path.join(dir, place.file), cwd);
      if (place.what === 'asTool()') {
        say(
          `note: ${file}:${place.line}: this asTool() has neither a literal \`toolName\` nor an agent with a literal \`name\`, so it cannot be mapped to a policy action; give it a literal toolName, or map it by hand in ${manifest}\n`,
        );
      } else if (place.what === 'hostedMcpTool()') {
        say(
          `note: ${file}:${place.line}: this hostedMcpTool() cannot be mapped: ${place.reason}; write \`serverLabel: '<label>'\` in the call, or map it by hand in ${manifest} (\`- hosted_mcp: { server_label: <label> }\`)\n`,
        );
      } else say(`note: ${file}:${place.line}: ${unresolvedNameMessage(place.reason)}; write it as ${RESOLVABLE_NAMES}, or map it by hand in ${manifest}\n`);
    }
    for (const c of plan.computed ?? []) {
      say(
        `note: ${displayPath(path.join(dir, c.file), cwd)}:${c.lines.join(', ')}: ${c.lines.length === 1 ? 'this tool() computes its name' : 'these tool() calls compute their names'}; the tools made there are action ${c.action}, mapped by their place (\`${computedEntry(c).head}\` in ${manifest}): narrow \`names\` to the names they take\n`,
      );
    }
    for (const tool of plan.clashes ?? []) {
      say(
        `note: ${displayPath(path.join(dir, tool.places[0]!.file), cwd)}:${tool.places[0]!.line}: tool ${JSON.stringify(tool.name)} is left unmapped: the SDK names it like ${JSON.stringify(tool.sameAs)} (both reach the model as \`${sdkToolName(tool.name)}\`), and one manifest entry cannot tell them apart; rename one of them and run init --force\n`,
      );
    }
    for (const server of plan.hosted ?? []) {
      say(`note: hosted MCP server ${JSON.stringify(server.name)} is action ${server.action} (decision: approve); protect it with protectHostedMcp\n`);
    }
    for (const line of doorNotes(plan, manifest)) say(line);
    for (const server of plan.mcpServers ?? []) {
      const at = server.places[0]!;
      say(
        `note: ${displayPath(path.join(dir, at.file), cwd)}:${at.line}: MCP server ${JSON.stringify(server.name)} lists its tools only at run time: map each as ` +
          `\`- mcp: { server: ${yamlString(server.name)}, tool: <tool> }\` in ${manifest} (an example is there, commented; \`init --force --discover-mcp\` asks the server); a tool no entry maps is denied\n`,
      );
    }
  }
  for (const line of mcpNotes(plans, mcp, cwd)) say(line);
  for (const line of handDoorNotes(s.files)) say(line);
  for (const line of componentNotes) say(line);
  const testNote = testOnlyToolsNote(inTests);
  if (testNote) say(testNote);
  say(
    nextSteps(
      plans.map((p) => p.dir),
      cwd,
    ),
  );
  return out;
}

/** Writes the plan all or nothing (src/fs/write-all.ts); a file that cannot be written is a located user error. */
export function commitPlan(plan: WritePlan, cwd: string): string[] {
  try {
    writeAll([...plan.files].map(([file, text]) => ({ file, text })));
  } catch (error) {
    if (!(error instanceof WriteSetError)) throw error;
    const n = plan.files.size;
    throw new UserError(
      `init: cannot write ${displayPath(error.file, cwd)}: ${describeWriteFailure(error)}; nothing was written (${n} file${n === 1 ? '' : 's'} planned, none left behind). Make the folder writable and run init again`,
    );
  }
  return plan.lines;
}

/** init where every tool is in a test file: it says so and writes nothing (exit 0: nothing of the app is open). */
export function nothingButTestsLines(inTests: TestOnlyTools): string[] {
  return [testOnlyToolsNote(inTests) ?? '', 'Nothing written: no tool outside test files, so no policy, manifest or control is needed here.\n'];
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
