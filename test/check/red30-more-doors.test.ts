import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/check/types.js';
import { cli } from '../helpers/cli.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';
import { lines, lintRepo, testProject } from './rule-tester.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) removeDir(d);
});

/*
 * Issue 40 item 4, what session 29 left silent (docs/DECISIONS.md "Session 30: more doors check
 * reads"): a listed module building its exports with an unlisted module's code, a literal door
 * whose `type` check cannot read, a handoff cloned with overrides from a spread, a hosted shell
 * made local after it is made.
 */

/** A git-ignored module whose function builds a raw tool (line 4). */
const GEN = {
  '.gitignore': 'src/gen/\n',
  'src/gen/make.ts': lines(
    "import { tool } from '@openai/agents';",
    "import { z } from 'zod';",
    'export function makeTools() {',
    "  return [tool({ name: 'refund', description: 'From the spec', parameters: z.object({ payment_id: z.string() }), execute: async () => 'sent', errorFunction: null })];",
    '}',
  ),
};

const withTools = (tools: string, agentImport = "import { tools } from './tools.js';"): Record<string, string> => ({
  ...GEN,
  'src/tools.ts': tools,
  'src/agent.ts': lines(
    "import { Agent } from '@openai/agents';",
    agentImport,
    "export const desk = new Agent({ name: 'desk', instructions: 'Help.', tools });",
  ),
});

const genFindings = (files: Record<string, string>): number[] =>
  lintRepo(files, { project: testProject(), ruleId: 'unprotected-tool', file: 'src/gen/make.ts' }).map((f) => f.line);

describe('a listed module that builds its exports with an unlisted module (item 1)', () => {
  it('a named import whose binding the listed module calls', () => {
    expect(genFindings(withTools(lines("import { makeTools } from './gen/make.js';", 'export const tools = makeTools();')))).toEqual([4]);
  });

  it('a default import, a namespace import, a renamed binding, a default with names', () => {
    const gen = { ...GEN, 'src/gen/make.ts': `${GEN['src/gen/make.ts']}export default makeTools;\n` };
    const forms = [
      lines("import make from './gen/make.js';", 'export const tools = make();'),
      lines("import * as gen from './gen/make.js';", 'export const tools = gen.makeTools();'),
      lines("import { makeTools as m } from './gen/make.js';", 'export const tools = m();'),
      lines("import make, { makeTools } from './gen/make.js';", 'export const tools = [...make(), ...makeTools()];'),
    ];
    for (const tools of forms) expect(genFindings({ ...withTools(tools), ...gen })).toEqual([4]);
  });

  it('through a second listed module, reached from the first by an import it uses', () => {
    const files = {
      ...withTools(lines("import { build } from './build.js';", 'export const tools = build();')),
      'src/build.ts': lines("import { makeTools } from './gen/make.js';", 'export const build = () => makeTools();'),
    };
    expect(genFindings(files)).toEqual([4]);
  });

  it('through the CLI in a git work tree: init names the tool, the codemod leaves it (exit 1), check reports it', async () => {
    const dir = makeTempDir('red30-gen-');
    dirs.push(dir);
    writeFiles(dir, {
      ...withTools(lines("import { makeTools } from './gen/make.js';", 'export const tools = makeTools();')),
      'package.json': JSON.stringify({ name: 'app', private: true, type: 'module', dependencies: { '@openai/agents': '0.20.0', zod: '*' } }),
    });
    execFileSync('git', ['init', '-q'], { cwd: dir });
    const init = await cli(['init'], { cwd: dir });
    expect(init.stdout).toContain('Found 1 new tool name');
    expect((await cli(['generate'], { cwd: dir })).code).toBe(0);
    const codemod = await cli(['codemod', '--write'], { cwd: dir });
    expect(codemod.code).toBe(1);
    expect(codemod.stdout).toContain("src/gen/make.ts:4:11: the tool 'refund' is in a module git ignores");
    const r = await cli(['check', '--format', 'json'], { cwd: dir });
    expect(r.code).toBe(1);
    const errors = (JSON.parse(r.stdout) as { findings: Finding[] }).findings.filter((f) => f.severity === 'error');
    expect(errors.map((f) => `${f.ruleId} ${f.file}:${f.line}`)).toEqual(['unprotected-tool src/gen/make.ts:4']);
  });

  it('silent: a type-only import, an import whose binding is never used', () => {
    const forms = [
      lines("import type { makeTools } from './gen/make.js';", 'export const tools: ReturnType<typeof makeTools> = [];'),
      lines("import { type makeTools } from './gen/make.js';", 'export const tools: ReturnType<typeof makeTools> = [];'),
      lines("import { makeTools } from './gen/make.js';", 'export const tools = [];'),
    ];
    for (const tools of forms) expect(genFindings(withTools(tools)), tools).toEqual([]);
  });

  it('a side-effect import runs the module: read as a scanned file importing it is (session 31)', () => {
    expect(genFindings(withTools(lines("import './gen/make.js';", 'export const tools = [];')))).toEqual([4]);
  });
});

const SHELL_HEAD = ["import { Agent, shellTool } from '@openai/agents';", 'declare const runner: any;'];
const hosted = "const box = shellTool({ environment: { type: 'container_auto' } });";
const doorLines = (...body: string[]): number[] =>
  lintRepo({ 'src/agent.ts': lines(...SHELL_HEAD, ...body) }, { project: testProject(), ruleId: 'unprotected-door', file: 'src/agent.ts' }).map((f) => f.line);

describe('a hosted shell made local after it is made (item 4)', () => {
  it('its environment replaced, its type set, Object.assign on it and inside it, a literal hosted shell, a copy, Reflect.set', () => {
    expect(doorLines(hosted, "box.environment = { type: 'local' };")).toEqual([4]);
    expect(doorLines(hosted, "box.environment.type = 'local';")).toEqual([4]);
    expect(doorLines(hosted, "Object.assign(box, { environment: { type: 'local' }, shell: runner });")).toEqual([4]);
    expect(doorLines(hosted, "Object.assign(box.environment, { type: 'local' });")).toEqual([4]);
    expect(doorLines(hosted, 'box.environment = undefined;')).toEqual([4]);
    expect(doorLines(hosted, 'declare const env: any;', 'box.environment = env;')).toEqual([5]);
    expect(doorLines(hosted, "Reflect.set(box, 'environment', { type: 'local' });")).toEqual([4]);
    expect(doorLines("const s = { type: 'shell', shell: runner, environment: { type: 'container_auto' } };", "s.environment.type = 'local';")).toEqual([4]);
    expect(doorLines(hosted, "export const desk = new Agent({ name: 'desk', tools: [{ ...box, environment: { type: 'local' } }] });")).toEqual([4]);
  });

  it('the message says what was written and that the SDK runs the call here', () => {
    const [f] = lintRepo(
      { 'src/agent.ts': lines(...SHELL_HEAD, hosted, "box.environment.type = 'local';") },
      { project: testProject(), ruleId: 'unprotected-door', file: 'src/agent.ts' },
    );
    expect(f?.message).toBe(
      "`box.environment` is changed in place (`type`) on a hosted shell tool: the SDK runs a shell call here unless `environment.type` is other than 'local', so this lets the model run shell commands with no policy: no decision, no recorded approval, no receipt.",
    );
  });

  it('silent: another hosted environment, another property, a write before the spread, a local shell made hosted', () => {
    expect(doorLines(hosted, "box.environment = { type: 'container_reference', containerId: 'c1' };")).toEqual([]);
    expect(doorLines(hosted, "box.environment.type = 'container_auto';")).toEqual([]);
    expect(doorLines(hosted, "box.environment.fileIds = ['f'];")).toEqual([]);
    expect(doorLines(hosted, "box.name = 'sh';")).toEqual([]);
    expect(doorLines(hosted, "const copy = { environment: { type: 'local' }, ...box };")).toEqual([]);
    expect(doorLines("const other = { environment: { type: 'container_auto' } };", "other.environment.type = 'local';")).toEqual([]);
    // a local shell is reported where it is made, once: its environment written again adds nothing
    expect(doorLines("const sh = shellTool({ environment: { type: 'container_auto' }, shell: runner });", "sh.environment = { type: 'local' };")).toEqual([3]);
    expect(doorLines("const s = { type: 'shell', shell: runner, environment: { type: 'local' } };", "s.environment.type = 'local';")).toEqual([3]);
  });
});

/** A module with an on-call agent and a protected handoff to it (lines 1-4); `rest` from line 5. */
const cloned = (...rest: string[]): number[] =>
  lintRepo(
    {
      'src/agent.ts': lines(
        "import { Agent } from '@openai/agents';",
        "import { protectHandoff } from './ctrlrun.generated.js';",
        "const oncall = new Agent({ name: 'oncall' });",
        "const h = protectHandoff('desk.page_oncall', oncall, { onHandoff: async () => {} });",
        ...rest,
      ),
    },
    { project: testProject(), ruleId: 'unprotected-handoff', file: 'src/agent.ts' },
  ).map((f) => f.line);

describe("a handoff cloned with overrides from a spread (item 3: SDK 0.20's Handoff.clone takes onInvokeHandoff)", () => {
  it('a spread of a parameter, of a call, of a const object holding the invoke, of a spread inside a known object', () => {
    expect(cloned('export const page = (o: object) => h.clone({ ...o });')).toEqual([5]);
    expect(cloned('declare const load: () => object;', 'export const copy = h.clone({ agent: oncall, ...load() });')).toEqual([6]);
    expect(cloned('const o = { onInvokeHandoff: async () => oncall };', 'export const copy = h.clone({ ...o });')).toEqual([6]);
    expect(cloned('declare const more: object;', 'const o = { agent: oncall, ...more };', 'export const copy = h.clone({ ...o });')).toEqual([7]);
  });

  it('the message names the handoff as given another invoke function', () => {
    const [f] = lintRepo(
      {
        'src/agent.ts': lines(
          "import { Agent } from '@openai/agents';",
          "import { protectHandoff } from './ctrlrun.generated.js';",
          "const oncall = new Agent({ name: 'oncall' });",
          "const h = protectHandoff('desk.page_oncall', oncall, { onHandoff: async () => {} });",
          'export const page = (o: object) => h.clone({ ...o });',
        ),
      },
      { project: testProject(), ruleId: 'unprotected-handoff', file: 'src/agent.ts' },
    );
    expect(f?.message).toContain("to 'oncall' is given another `onInvokeHandoff`");
  });

  it('silent: a spread of a known object without it, of an object literal in place, clone({ agent })', () => {
    expect(cloned("const o = { agent: oncall, toolDescriptionOverride: 'Page' };", 'export const copy = h.clone({ ...o });')).toEqual([]);
    expect(cloned('export const copy = h.clone({ ...{ agent: oncall } });')).toEqual([]);
    expect(cloned('export const copy = h.clone({ agent: oncall });')).toEqual([]);
  });
});

const literalDoors = (files: Record<string, string>): string[] =>
  lintRepo(files, { project: testProject(), ruleId: 'unprotected-door', file: 'src/agent.ts' }).map((f) => `${f.line}: ${f.message}`);
const agentWith = (...body: string[]): Record<string, string> => ({
  'src/consts.ts': lines("export const SHELL = ['sh', 'ell'].join('');", 'export const Kinds = { patch: process.env.PATCH_TYPE! };'),
  'src/agent.ts': lines("import { Agent } from '@openai/agents';", "import { SHELL, Kinds } from './consts.js';", 'declare const runner: any;', ...body),
});

describe('a literal door whose `type` check cannot read (item 2: fail closed)', () => {
  it('an imported name, a member of an imported object, a parameter: the door whose body it holds', () => {
    expect(literalDoors(agentWith("export const desk = new Agent({ name: 'desk', tools: [{ type: SHELL, name: 'sh', shell: runner } as never] });"))).toEqual([
      "4: A shell tool 'sh' written as an object literal with its own `shell` and `type: SHELL`, a value check cannot read: if it is 'shell', the SDK finds the tool by it and lets the model run shell commands with no policy: no decision, no recorded approval, no receipt.",
    ]);
    expect(literalDoors(agentWith('export const patch = { type: Kinds.patch, editor: runner };')).map((f) => f.split(',')[0])).toEqual([
      '4: A apply_patch tool written as an object literal with its own `editor` and `type: Kinds.patch`',
    ]);
    expect(literalDoors(agentWith('export const make = (kind: string) => ({ type: kind, computer: runner });')).length).toBe(1);
    // a primitive `shell` (a task runner's option) beside an editor: the door is the editor's
    expect(literalDoors(agentWith("export const patch = { type: Kinds.patch, shell: '/bin/zsh', editor: runner };"))[0]).toMatch(/^4: A apply_patch tool/);
    // the brief's form: a const spelled in a module of its own
    const spelled = agentWith("export const desk = new Agent({ name: 'desk', tools: [{ type: SHELL, shell: runner } as never] });");
    spelled['src/consts.ts'] = "export const SHELL = 'shell';\n";
    spelled['src/agent.ts'] = spelled['src/agent.ts']!.replace('SHELL, Kinds', 'SHELL');
    expect(literalDoors(spelled).length).toBe(1);
  });

  it('silent: a hosted environment, a primitive body, a schema call, a file using neither the SDK nor the generated module', () => {
    expect(literalDoors(agentWith("export const box = { type: SHELL, shell: runner, environment: { type: 'container_auto' } };"))).toEqual([]);
    expect(literalDoors(agentWith("export const step = { type: SHELL, shell: '/bin/sh' };"))).toEqual([]);
    expect(literalDoors(agentWith('declare const z: any;', "export const schema = { type: z.literal('shell'), shell: z.any() };"))).toEqual([]);
    const plain = agentWith('export const column = { type: Kinds.patch, editor: runner };');
    // a quoted 'computer' makes the scan parse it (as ESLint, with no prefilter, always does)
    plain['src/agent.ts'] = plain['src/agent.ts']!.replace("import { Agent } from '@openai/agents';", "import { Grid } from 'grid'; const label = 'computer';");
    expect(literalDoors(plain)).toEqual([]);
  });
});

/** An answer on what `ReturnType<typeof api.load>` gives, `api` an object `src/api.ts` exports (sdk-approval). */
const answers = (server: string, api: string): number =>
  lintRepo(
    {
      'src/server.ts': lines(
        "import { protectedTool } from './ctrlrun.generated.js';",
        "import type { RunState } from '@openai/agents';",
        'interface Review { approve(i: Row): void; reject(i: Row): void }',
        server,
      ),
      'src/api.ts': api,
      'src/barrel.ts': "export { api as store } from './api.js';\n",
    },
    { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' },
  ).length;
const SDK_API = lines("import type { RunState } from '@openai/agents';", 'export const api = { load(): RunState<any, any> { return null!; } };');

describe('ReturnType<typeof api.load> with api an object another module exports (item 5)', () => {
  it('one finding: a method of the object, read with its own file’s imports', () => {
    expect(answers("import { api } from './api.js';\nexport function ok(s: ReturnType<typeof api.load>, i: Row) { s.approve(i); }", SDK_API)).toBe(1);
  });
  it('one finding: an arrow property, a typed variable, `export { a as api }`, through a renaming barrel', () => {
    const sdk = "import type { RunState } from '@openai/agents';";
    const use = "import { api } from './api.js';\nexport function ok(s: ReturnType<typeof api.load>, i: Row) { s.approve(i); }";
    expect(answers(use, lines(sdk, 'export const api = { load: (): RunState<any, any> => null! };'))).toBe(1);
    expect(answers(use, lines(sdk, 'export const api: { load(): RunState<any, any> } = null!;'))).toBe(1);
    expect(answers(use, lines(sdk, 'const inner = { load(): RunState<any, any> { return null!; } };', 'export { inner as api };'))).toBe(1);
    expect(answers("import { store } from './barrel.js';\nexport function ok(s: ReturnType<typeof store.load>, i: Row) { s.approve(i); }", SDK_API)).toBe(1);
  });
  it("none: the app's own type there, a RunState of the app's own there, a variable the module does not export", () => {
    const use = "import { api } from './api.js';\nexport function ok(s: ReturnType<typeof api.load>, i: Row) { s.approve(i); }";
    expect(answers(use, lines('interface Review { approve(i: unknown): void }', 'export const api = { load(): Review { return null!; } };'))).toBe(0);
    expect(
      answers(use, lines('interface RunState<A, B> { approve(i: unknown): void }', 'export const api = { load(): RunState<1, 2> { return null!; } };')),
    ).toBe(0);
    expect(answers(use, lines("import type { RunState } from '@openai/agents';", 'const api = { load(): RunState<any, any> { return null!; } };'))).toBe(0);
  });
});
