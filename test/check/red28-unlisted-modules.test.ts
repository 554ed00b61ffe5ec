import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/check/types.js';
import { scanRepoSync } from '../../src/scan/index.js';
import { cli, cliProcess } from '../helpers/cli.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';
import { lines, lintRepo, testProject } from './rule-tester.js';

/*
 * Gaps G and H of the session 27 red team (issue 40 item 4, docs/DECISIONS.md): a door in a module
 * the listing leaves out, which a checked file imports. G: a module of a folder git ignores (code
 * generated at build time). H: a module outside the package that holds the manifest (a workspace
 * dependency with no manifest, a relative import of a sibling folder), when check, init and the
 * codemod run in that package. The module is read as a file of the scan (src/scan/unlisted-imports.ts).
 */

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) removeDir(d);
});

const TSCONFIG = JSON.stringify({
  compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true },
  include: ['src'],
});
const SDK_DEPS = { '@openai/agents': '0.20.0', zod: '*' };

/** A module exporting a raw `wire_money` tool (line 3). */
const WIRE = lines(
  "import { tool } from '@openai/agents';",
  "import { z } from 'zod';",
  "export const wire = tool({ name: 'wire_money', description: 'Wire money', parameters: z.object({ to: z.string(), amount: z.number() }), errorFunction: null, execute: async () => 'sent' });",
);

/** The package's agent: its own `refund` (line 5) and `wire` imported from `specifier` (line 3) in its tools. */
const agentImporting = (specifier: string): string =>
  lines(
    "import { Agent, run, tool, setTracingDisabled } from '@openai/agents';",
    "import { z } from 'zod';",
    `import { wire } from '${specifier}';`,
    'setTracingDisabled(true);',
    "export const refund = tool({ name: 'refund', description: 'Refund', parameters: z.object({ payment_id: z.string(), amount: z.number() }), execute: async ({ payment_id }) => payment_id });",
    "export const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: [refund, wire] });",
    "export const go = (input: string) => run(desk, input, { context: { user: 'u1' } });",
  );

/** The red team's workspace (gap H): `packages/extra` (no manifest) exports the raw tool; `packages/agents` depends on it and uses it. */
function workspace(): string {
  const dir = makeTempDir('red28-ws-');
  dirs.push(dir);
  writeFiles(dir, {
    'package.json': JSON.stringify({ name: 'ws', private: true, type: 'module', workspaces: ['packages/*'] }),
    'packages/extra/package.json': JSON.stringify({ name: 'extra', version: '1.0.0', type: 'module', main: 'src/index.ts', dependencies: SDK_DEPS }),
    'packages/extra/src/index.ts': WIRE,
    'packages/agents/package.json': JSON.stringify({ name: 'agents', version: '1.0.0', type: 'module', dependencies: { ...SDK_DEPS, extra: 'workspace:*' } }),
    'packages/agents/tsconfig.json': TSCONFIG,
    'packages/agents/src/agent.ts': agentImporting('extra'),
  });
  // the link a workspace install makes
  symlinkSync(path.join(dir, 'packages/extra'), path.join(dir, 'node_modules/extra'), 'dir');
  execFileSync('git', ['init', '-q'], { cwd: dir });
  return dir;
}

/** The same without a workspace: `agents/` imports the tool from `../../shared/src/index.js`. */
function siblings(): string {
  const dir = makeTempDir('red28-rel-');
  dirs.push(dir);
  writeFiles(dir, {
    'shared/src/index.ts': WIRE,
    'agents/package.json': JSON.stringify({ name: 'app', private: true, type: 'module', dependencies: SDK_DEPS }),
    'agents/tsconfig.json': TSCONFIG,
    'agents/src/agent.ts': agentImporting('../../shared/src/index.js'),
  });
  execFileSync('git', ['init', '-q'], { cwd: dir });
  return dir;
}

/** `init`, `generate`, `codemod --write` in `cwd` (the red team's steps); the codemod's result. */
async function protect(cwd: string): Promise<{ init: string; codemod: { code: number; stdout: string } }> {
  const init = await cli(['init'], { cwd });
  expect(init.code).toBe(0);
  expect((await cli(['generate'], { cwd })).code).toBe(0);
  const codemod = await cli(['codemod', '--write'], { cwd });
  return { init: init.stdout, codemod };
}

async function checkJson(cwd: string, args: string[] = []): Promise<{ code: number; findings: Finding[] }> {
  const r = await cli(['check', '--format', 'json', ...args], { cwd });
  return { code: r.code, findings: (JSON.parse(r.stdout) as { findings: Finding[] }).findings };
}

const errors = (findings: readonly Finding[]) => findings.filter((f) => f.severity === 'error').map((f) => `${f.ruleId} ${f.file}:${f.line}`);

describe('gap H: check in the package that holds the manifest reads the modules it imports from outside it', () => {
  it('a workspace dependency’s raw tool: init names it, the codemod leaves it as outside the package, check reports it there', async () => {
    const dir = workspace();
    const agents = path.join(dir, 'packages/agents');
    const { init, codemod } = await protect(agents);
    expect(init).toContain('Found 2 new tool names');
    expect(codemod.code).toBe(1);
    expect(codemod.stdout).toContain("../extra/src/index.ts:3:21: the tool 'wire_money' is in a module outside this package: the codemod does not rewrite it");
    expect(codemod.stdout).toContain('1 tools rewritten');
    // the built CLI, as CI runs it in the package
    const r = cliProcess(['check', '--format', 'json'], { cwd: agents });
    expect(r.code).toBe(1);
    const findings = (JSON.parse(r.stdout) as { findings: Finding[] }).findings;
    expect(errors(findings)).toEqual(['unprotected-tool ../extra/src/index.ts:3']);
    expect(findings[0]!.hint).toContain('protect it in its own package');
  });

  it('a raw tool imported from a sibling folder by a relative path (no workspace) is reported the same', async () => {
    const dir = siblings();
    const agents = path.join(dir, 'agents');
    await protect(agents);
    const r = await checkJson(agents);
    expect(r.code).toBe(1);
    expect(errors(r.findings)).toEqual(['unprotected-tool ../shared/src/index.ts:3']);
  });

  it('with a manifest that does not map it, the outside tool is unmapped-tool there', async () => {
    const dir = siblings();
    const agents = path.join(dir, 'agents');
    const raw = agentImporting('../../shared/src/index.js');
    // init before the agent takes the tool: the manifest maps refund only
    writeFiles(agents, { 'src/agent.ts': raw.replace("import { wire } from '../../shared/src/index.js';", '').replace(', wire] });', '] });') });
    await protect(agents);
    writeFiles(agents, { 'src/agent.ts': raw });
    const r = await checkJson(agents);
    expect(errors(r.findings)).toContain('unmapped-tool ../shared/src/index.ts:3');
  });

  it('at the workspace top, the tool is reported once, by its own package’s region', async () => {
    const dir = workspace();
    await protect(path.join(dir, 'packages/agents'));
    const r = await checkJson(dir);
    const wire = r.findings.filter((f) => f.file === 'packages/extra/src/index.ts' && f.line === 3);
    expect(wire.map((f) => f.ruleId)).toEqual(['unprotected-tool']);
    expect(wire[0]!.hint).not.toContain('outside this package');
  });

  it('control: a dependency with a manifest of its own, its tool protected there, is its own check’s (silent here)', async () => {
    const dir = workspace();
    const extra = path.join(dir, 'packages/extra');
    await protect(extra);
    const agents = path.join(dir, 'packages/agents');
    await protect(agents);
    const r = await checkJson(agents);
    expect(errors(r.findings)).toEqual([]);
    expect(r.code).toBe(0);
    // and its own check agrees the tool is protected
    expect(errors((await checkJson(extra)).findings)).toEqual([]);
  });

  it('control: a dependency with a manifest of its own, its tool still raw, is reported by its own check only', async () => {
    const dir = workspace();
    const extra = path.join(dir, 'packages/extra');
    expect((await cli(['init'], { cwd: extra })).code).toBe(0);
    const agents = path.join(dir, 'packages/agents');
    await protect(agents);
    expect(errors((await checkJson(agents)).findings)).toEqual([]);
    expect(errors((await checkJson(extra)).findings)).toContain('unprotected-tool src/index.ts:3');
  });

  it('control: a manifest at the workspace top covers the dependency: the package’s scan leaves it to that check', () => {
    const dir = workspace();
    writeFiles(dir, { 'ctrlrun.tools.yaml': 'tools: []\n' });
    const scan = scanRepoSync({ root: path.join(dir, 'packages/agents') });
    expect(scan.files.map((s) => s.file)).toEqual(['src/agent.ts']);
  });

  it('a dependency whose entry is build output is read from the source it is built from', () => {
    const dir = workspace();
    writeFiles(dir, {
      // its declarations named first, and built: no code to read there
      'packages/extra/package.json': JSON.stringify({ name: 'extra', type: 'module', types: './dist/index.d.ts', main: './dist/index.js' }),
      'packages/extra/dist/index.d.ts': 'export declare const wire: unknown;\n',
    });
    const scan = scanRepoSync({ root: path.join(dir, 'packages/agents') });
    expect(scan.files.map((s) => [s.file, s.unlisted])).toEqual([
      ['src/agent.ts', undefined],
      ['../extra/src/index.ts', 'outside'],
    ]);
  });

  it('control: a module outside the repository (above the git work tree) is not read', () => {
    const dir = siblings();
    const elsewhere = makeTempDir('red28-out-');
    dirs.push(elsewhere);
    writeFiles(elsewhere, { 'tool.ts': WIRE });
    const agents = path.join(dir, 'agents');
    writeFiles(agents, { 'src/agent.ts': agentImporting(`../../../${path.basename(elsewhere)}/tool.js`) });
    const scan = scanRepoSync({ root: agents });
    expect(scan.files.map((s) => s.file)).toEqual(['src/agent.ts']);
  });

  it('control: a package installed in node_modules is never read as the app’s code', async () => {
    const dir = siblings();
    const agents = path.join(dir, 'agents');
    writeFiles(agents, {
      'node_modules/wire-tools/package.json': JSON.stringify({ name: 'wire-tools', type: 'module', main: 'index.ts' }),
      'node_modules/wire-tools/index.ts': WIRE,
      'src/agent.ts': agentImporting('wire-tools'),
      'src/more.ts': lines(
        "import { Agent } from '@openai/agents';",
        "import { wire } from '../node_modules/wire-tools/index.js';",
        "export const more = new Agent({ name: 'more', tools: [wire] });",
      ),
    });
    const scan = scanRepoSync({ root: agents });
    expect(scan.files.map((s) => s.file)).toEqual(['src/agent.ts', 'src/more.ts']);
  });
});

/** The red team's gap G case: `src/gen/` git-ignored, its `wire.ts` holding a mapped raw tool, imported into an agent by src/agent.ts. */
const GENERATED_APP: Record<string, string> = {
  '.gitignore': 'src/gen/\n',
  'src/gen/wire.ts': lines(
    "import { tool } from '@openai/agents';",
    "import { z } from 'zod';",
    "export const wire = tool({ name: 'refund', description: 'From the OpenAPI spec', parameters: z.object({ payment_id: z.string(), amount: z.number() }), execute: async () => 'sent', errorFunction: null });",
  ),
  'src/agent.ts': lines(
    "import { Agent } from '@openai/agents';",
    "import { wire } from './gen/wire.js';",
    "export const desk = new Agent({ name: 'desk', instructions: 'Help with payments.', tools: [wire] });",
  ),
};

describe('gap G: a module of a git-ignored folder that a checked file imports is read', () => {
  it('the red team’s case: unprotected-tool at the generated module', () => {
    const found = lintRepo(GENERATED_APP, { project: testProject(), ruleId: 'unprotected-tool', file: 'src/gen/wire.ts' });
    expect(found.map((f) => f.line)).toEqual([3]);
    expect(found[0]!.hint).toContain('git ignores');
  });

  it('through the CLI in a git work tree: init names the tool, the codemod leaves it, check reports it', async () => {
    const dir = makeTempDir('red28-gen-');
    dirs.push(dir);
    writeFiles(dir, { ...GENERATED_APP, 'package.json': JSON.stringify({ name: 'app', private: true, type: 'module', dependencies: SDK_DEPS }) });
    execFileSync('git', ['init', '-q'], { cwd: dir });
    const { init, codemod } = await protect(dir);
    expect(init).toContain('Found 1 new tool name');
    expect(codemod.code).toBe(1);
    expect(codemod.stdout).toContain("src/gen/wire.ts:3:21: the tool 'refund' is in a module git ignores");
    const r = await checkJson(dir);
    expect(r.code).toBe(1);
    expect(errors(r.findings)).toEqual(['unprotected-tool src/gen/wire.ts:3']);
    // a check given the importer's folder reads it too
    expect(errors((await checkJson(dir, ['src'])).findings)).toEqual(['unprotected-tool src/gen/wire.ts:3']);
  });

  it('an ignored barrel is followed to the module that builds the tool; the barrel itself, naming no SDK, is not scanned', () => {
    const dir = makeTempDir('red28-gen-');
    dirs.push(dir);
    writeFiles(dir, {
      ...GENERATED_APP,
      'src/gen/index.ts': "export * from './wire.js';\n",
      'src/agent.ts': GENERATED_APP['src/agent.ts']!.replace('./gen/wire.js', './gen/index.js'),
    });
    execFileSync('git', ['init', '-q'], { cwd: dir });
    const scan = scanRepoSync({ root: dir });
    expect(scan.files.map((s) => [s.file, s.unlisted])).toEqual([
      ['src/agent.ts', undefined],
      ['src/gen/wire.ts', 'ignored'],
    ]);
    // the listed file and the module read for it
    expect(scan.filesConsidered).toBe(2);
  });

  it('control: a check given paths does not read the root’s other listed files as unlisted', async () => {
    const dir = makeTempDir('red28-gen-');
    dirs.push(dir);
    writeFiles(dir, {
      'package.json': JSON.stringify({ name: 'app', private: true, type: 'module', dependencies: SDK_DEPS }),
      'src/other.ts': GENERATED_APP['src/gen/wire.ts']!,
      'src/agent.ts': GENERATED_APP['src/agent.ts']!.replace('./gen/wire.js', './other.js'),
    });
    execFileSync('git', ['init', '-q'], { cwd: dir });
    const scan = scanRepoSync({ root: dir, paths: ['src/agent.ts'] });
    expect(scan.files.map((s) => s.file)).toEqual(['src/agent.ts']);
    // and the whole root's scan reads the listed module once, as the listed file it is
    expect(scanRepoSync({ root: dir }).files.map((s) => [s.file, s.unlisted])).toEqual([
      ['src/agent.ts', undefined],
      ['src/other.ts', undefined],
    ]);
  });

  it('control: an ignored folder nothing imports stays unread, and a test’s import of one is the test’s', () => {
    const dir = makeTempDir('red28-gen-');
    dirs.push(dir);
    writeFiles(dir, {
      ...GENERATED_APP,
      '.gitignore': 'src/gen/\nscratch/\n',
      'scratch/tool.ts': GENERATED_APP['src/gen/wire.ts']!,
      'src/agent.ts': lines("import { Agent } from '@openai/agents';", "export const desk = new Agent({ name: 'desk' });"),
      'test/agent.test.ts': lines(
        "import { wire } from '../src/gen/wire.js';",
        "import { Agent } from '@openai/agents';",
        "new Agent({ name: 't', tools: [wire] });",
      ),
    });
    execFileSync('git', ['init', '-q'], { cwd: dir });
    const scan = scanRepoSync({ root: dir });
    expect(scan.files.map((s) => s.file)).toEqual(['src/agent.ts']);
    expect(scan.filesConsidered).toBe(2);
  });

  it('control: the generated module of the manifest is never read as the app’s code', () => {
    const dir = makeTempDir('red28-gen-');
    dirs.push(dir);
    mkdirSync(path.join(dir, 'src'), { recursive: true });
    writeFiles(dir, {
      'src/ctrlrun.generated.ts': GENERATED_APP['src/gen/wire.ts']!,
      'src/agent.ts': lines(
        "import { Agent } from '@openai/agents';",
        "import { wire } from './ctrlrun.generated.js';",
        "export const desk = new Agent({ name: 'desk', tools: [wire] });",
      ),
    });
    execFileSync('git', ['init', '-q'], { cwd: dir });
    const scan = scanRepoSync({ root: dir, generatedModule: path.join(dir, 'src/ctrlrun.generated.ts') });
    expect(scan.files.map((s) => s.file)).toEqual(['src/agent.ts']);
  });
});
