import { describe, expect, it } from 'vitest';
import { TOOLS } from './red27-apps.js';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Issue 40 item 4 ("no false green"), session 29: the forms sessions 28 left silent. A handoff's
 * `onInvokeHandoff` given by `Object.assign`, a copy or `clone`; a door held in an object's property
 * or a class field and written through it; a door passed to a function of the file that writes it.
 * Beside them, the safe code that must stay silent.
 */
interface Case {
  name: string;
  files: Record<string, string>;
  expect: { ruleId: string; file: string; line: number };
}

const AGENT = 'src/agent.ts';
const found = (c: Case): number[] => lintRepo(c.files, { project: testProject(), ruleId: c.expect.ruleId, file: c.expect.file }).map((f) => f.line);
const messages = (files: Record<string, string>, ruleId: string, file = AGENT): string[] =>
  lintRepo(files, { project: testProject(), ruleId, file }).map((f) => `${f.line}: ${f.message}`);

/** A module with an on-call agent and a handoff to it (lines 1-4); `rest` from line 5. */
const oncall = (make: string, ...rest: string[]): Record<string, string> => ({
  [AGENT]: lines(
    "import { Agent, handoff } from '@openai/agents';",
    "import { protectHandoff } from './ctrlrun.generated.js';",
    "const oncall = new Agent({ name: 'oncall' });",
    `const h = ${make};`,
    ...rest,
  ),
});
const PLAIN = 'handoff(oncall)';
const PROTECTED = "protectHandoff('desk.page_oncall', oncall, { onHandoff: async () => {} })";
const handoffAt = (line: number) => ({ ruleId: 'unprotected-handoff', file: AGENT, line });
const DESK = "export const desk = new Agent({ name: 'desk', handoffs: [h] });";

/** 1. A handoff's invoke function given by another form than an assignment. */
const handoffInvokes: Case[] = [
  {
    name: '`Object.assign(h, { onInvokeHandoff })` on a `handoff(agent)`',
    files: oncall(PLAIN, 'Object.assign(h, { onInvokeHandoff: async () => oncall });', DESK),
    expect: handoffAt(5),
  },
  {
    name: '`Object.assign(h, { onInvokeHandoff })` on a protectHandoff value',
    files: oncall(PROTECTED, 'Object.assign(h, { onInvokeHandoff: async () => oncall });', DESK),
    expect: handoffAt(5),
  },
  {
    name: 'a copy `{ ...h, onInvokeHandoff }` of a protectHandoff value',
    files: oncall(PROTECTED, "export const desk = new Agent({ name: 'desk', handoffs: [{ ...h, onInvokeHandoff: async () => oncall } as never] });"),
    expect: handoffAt(5),
  },
  {
    name: 'a copy spreading another object and the handoff, then the invoke: one finding',
    files: oncall(
      PROTECTED,
      'declare const extra: object;',
      "export const desk = new Agent({ name: 'desk', handoffs: [{ ...extra, ...h, onInvokeHandoff: async () => oncall } as never] });",
    ),
    expect: handoffAt(6),
  },
  {
    name: "`Reflect.set(h, 'onInvokeHandoff', f)`",
    files: oncall(PROTECTED, "Reflect.set(h, 'onInvokeHandoff', async () => oncall);", DESK),
    expect: handoffAt(5),
  },
  {
    name: "`h.clone({ onInvokeHandoff })` (the SDK's clone takes it as the copy's invoke function)",
    files: oncall(PROTECTED, "export const desk = new Agent({ name: 'desk', handoffs: [h.clone({ onInvokeHandoff: async () => oncall })] });"),
    expect: handoffAt(5),
  },
  {
    name: 'a handoff held in an object, given another invoke through it',
    files: oncall(PROTECTED, 'const kit = { h };', 'kit.h.onInvokeHandoff = async () => oncall;', DESK),
    expect: handoffAt(6),
  },
];

/** A module with the three protected local doors' bodies (lines 1-3); `rest` from line 4. */
const localDoors = (...rest: string[]): Record<string, string> => ({
  [AGENT]: lines(
    "import { Agent, type Computer, type Editor, type Shell } from '@openai/agents';",
    "import { protectApplyPatchTool, protectComputerTool, protectShellTool } from './ctrlrun.generated.js';",
    'declare const shell: Shell; declare const dockerShell: Shell; declare const editor: Editor; declare const computer: Computer;',
    ...rest,
  ),
});
const replaced = (line: number) => ({ ruleId: 'invoke-replaced', file: AGENT, line });
const SH = "protectShellTool('host.shell', { shell })";
const AP = "protectApplyPatchTool('repo.patch', { editor })";

/** A module with a guarded MCP server factory call (lines 1-3); `rest` from line 4. */
const servers = (...rest: string[]): Record<string, string> => ({
  [AGENT]: lines(
    "import { Agent, MCPServerStdio, hostedMcpTool } from '@openai/agents';",
    "import { protectMcpServer } from './ctrlrun.generated.js';",
    "const make = () => new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' });",
    ...rest,
  ),
});
const unguarded = (line: number) => ({ ruleId: 'mcp-server-unguarded', file: AGENT, line });
const HOSTED = "hostedMcpTool({ serverLabel: 'gh', serverUrl: 'https://example.com/mcp', requireApproval: 'always' })";

/** 2. A door held in an object's property or a class field, written through it. */
const heldDoors: Case[] = [
  {
    name: "a protected shell tool in a const object's property, its `shell` replaced (`kit.sh.shell = x`)",
    files: localDoors(`const kit = { sh: ${SH} };`, 'kit.sh.shell = dockerShell;', "export const desk = new Agent({ name: 'desk', tools: [kit.sh] });"),
    expect: replaced(5),
  },
  {
    name: 'a door held by shorthand two objects deep, written by a literal key (`kit.local["sh"].shell`)',
    files: localDoors(`const sh = ${SH};`, 'const kit = { local: { sh } };', "kit.local['sh'].shell = dockerShell;"),
    expect: replaced(6),
  },
  {
    name: 'a class field made by protectShellTool, its `shell` replaced in a method (`this.sh.shell = x`)',
    files: localDoors('class Desk {', `  sh = ${SH};`, '  swap() {', '    this.sh.shell = dockerShell;', '  }', '}'),
    expect: replaced(7),
  },
  {
    name: 'a field set in the constructor, its `editor` replaced in an arrow of a method (`Object.assign(this.ap, { editor })`)',
    files: localDoors('class Desk {', '  ap;', `  constructor() { this.ap = ${AP}; }`, '  later() { return () => Object.assign(this.ap, { editor }); }', '}'),
    expect: replaced(7),
  },
  {
    name: 'a method of an object literal writing its own door property (`this.sh.shell`)',
    files: localDoors(`export const kit = { sh: ${SH}, swap() { this.sh.shell = dockerShell; } };`),
    expect: replaced(4),
  },
  {
    name: 'a class field read from outside, on an instance of the class (`desk.sh.shell = x`)',
    files: localDoors(`class Desk { sh = ${SH}; }`, 'const desk = new Desk();', 'desk.sh.shell = dockerShell;'),
    expect: replaced(6),
  },
  {
    name: "a guarded MCP server in a const object's property, its guardrails replaced",
    files: servers('const kit = { github: protectMcpServer(make()) };', 'kit.github.toolInputGuardrails = [];'),
    expect: unguarded(5),
  },
  {
    name: 'a guarded MCP server in a class field, its guard spliced off',
    files: servers('class Desk {', '  github = protectMcpServer(make());', '  open() { this.github.toolInputGuardrails?.splice(0); }', '}'),
    expect: unguarded(6),
  },
  {
    name: "a hosted MCP tool in an object's property, its approval turned off",
    files: servers(`const kit = { gh: ${HOSTED} };`, "kit.gh.providerData.require_approval = 'never';"),
    expect: { ruleId: 'hosted-mcp-unguarded', file: AGENT, line: 5 },
  },
];

/** 3. A door passed to a function of the file that writes it. */
const passedDoors: Case[] = [
  {
    name: 'a function declaration replacing the `shell` of the door it is given',
    files: localDoors(`const sh = ${SH};`, 'function tamper(t: any) {', '  t.shell = dockerShell;', '}', 'tamper(sh);'),
    expect: replaced(6),
  },
  {
    name: 'a const arrow writing the second parameter, the door passed as a call (`rewire(1, protectApplyPatchTool(...))`)',
    files: localDoors('const rewire = (_n: number, t: any) => Object.assign(t, { editor });', `rewire(1, ${AP});`),
    expect: replaced(4),
  },
  {
    name: 'a door held in an object, passed to a function writing it',
    files: localDoors(`const kit = { sh: ${SH} };`, 'function tamper(t: any) { t.shell.run = dockerShell.run; }', 'tamper(kit.sh);'),
    expect: replaced(5),
  },
  {
    name: 'a function dropping the guard of the server it is given',
    files: servers('function open(s: any) { s.toolInputGuardrails = []; }', 'open(protectMcpServer(make()));'),
    expect: unguarded(4),
  },
  {
    name: "a function replacing a protected tool's `invoke` (reported for any object's `invoke`)",
    files: { 'src/tools.ts': TOOLS + lines('function tamper(t: any) { t.invoke = async () => "done"; }', 'tamper(refund);') },
    expect: { ruleId: 'invoke-replaced', file: 'src/tools.ts', line: 9 },
  },
];

describe('session 29: a handoff given another invoke function by assign, copy, reflection or clone', () => {
  for (const c of handoffInvokes) it(c.name, () => expect(found(c)).toEqual([c.expect.line]));

  it('names the agent handed to, where the handoff written is made', () => {
    expect(messages(handoffInvokes[1]!.files, 'unprotected-handoff').join('\n')).toContain("to 'oncall' is given another `onInvokeHandoff`");
    expect(messages(handoffInvokes[6]!.files, 'unprotected-handoff').join('\n')).toContain("to 'oncall' is given another `onInvokeHandoff`");
  });
});

describe("session 29: a door held in an object's property or a class field, written through it", () => {
  for (const c of heldDoors) it(c.name, () => expect(found(c)).toEqual([c.expect.line]));
});

describe('session 29: a door passed to a function of the file that writes it', () => {
  for (const c of passedDoors) it(c.name, () => expect(found(c)).toEqual([c.expect.line]));
});

describe('session 29: safe code beside them stays silent', () => {
  const handoffs: Record<string, Record<string, string>> = {
    'a copy with the invoke before the spread (the handoff’s own wins)': oncall(
      PROTECTED,
      "export const desk = new Agent({ name: 'desk', handoffs: [{ onInvokeHandoff: async () => oncall, ...h } as never] });",
    ),
    'another field assigned or cloned (`toolDescription`, `clone({ agent })` runs the handoff’s own invoke)': oncall(
      PROTECTED,
      "Object.assign(h, { toolDescription: 'Page the on-call engineer' });",
      "export const desk = new Agent({ name: 'desk', handoffs: [h.clone({ agent: oncall })] });",
    ),
    'an app’s own object with an `onInvokeHandoff` in a file that names neither the SDK nor the generated module': {
      [AGENT]: lines(
        'const bus = { onInvokeHandoff: (_id: string) => {} };',
        "export const copy = { ...bus, onInvokeHandoff: (id: string) => console.log('invoke', id) };",
      ),
    },
  };
  for (const [name, files] of Object.entries(handoffs)) it(`unprotected-handoff: ${name}`, () => expect(messages(files, 'unprotected-handoff')).toEqual([]));

  const local: Record<string, Record<string, string>> = {
    'a door in an object, another property written (`kit.sh.description`), another object’s `shell` written': localDoors(
      `const kit = { sh: ${SH}, opts: { shell } };`,
      "(kit.sh as any).description = 'Run';",
      'kit.opts.shell = dockerShell;',
    ),
    'a class field that is no door, and a door field of another class': localDoors(
      `class A { sh = ${SH}; }`,
      'class B { sh = { shell }; swap() { this.sh.shell = dockerShell; } }',
      'export const a = new A();',
      'new B().sh.shell = dockerShell;',
    ),
    'a static field’s `this` is the class: a door in an instance field of the same name is not it': localDoors(
      'class A {',
      `  sh = ${SH};`,
      '  static sh = { shell };',
      '  static swap() { this.sh.shell = dockerShell; }',
      '}',
    ),
    'an instance method’s `this` is the instance: a door in a static field of the same name is not it': localDoors(
      'class A {',
      `  static sh = ${SH};`,
      '  sh = { shell };',
      '  swap() { this.sh.shell = dockerShell; }',
      '}',
    ),
    'a function writing `shell` of what it is given, called only with plain objects': localDoors(
      `const sh = ${SH};`,
      'function configure(t: { shell: Shell }) { t.shell = dockerShell; }',
      'configure({ shell });',
      "export const desk = new Agent({ name: 'desk', tools: [sh] });",
    ),
    'a function of the same name in another scope given the door (not the one that writes)': localDoors(
      `const sh = ${SH};`,
      'function tamper(t: { shell: Shell }) { t.shell = dockerShell; }',
      'tamper({ shell });',
      'export function other() { const tamper = (_t: unknown) => {}; tamper(sh); }',
    ),
  };
  for (const [name, files] of Object.entries(local)) it(`invoke-replaced: ${name}`, () => expect(messages(files, 'invoke-replaced')).toEqual([]));

  const server: Record<string, Record<string, string>> = {
    'a guarded server in an object, a guardrail pushed through it': servers(
      'declare const audit: never;',
      'const kit = { github: protectMcpServer(make()) };',
      'kit.github.toolInputGuardrails?.push(audit);',
    ),
    'a function writing guardrails of a server it is given, called with an unguarded one before it is guarded': servers(
      'function open(s: any) { s.toolInputGuardrails = []; }',
      'const github = make();',
      'open(github);',
      'protectMcpServer(github);',
      "export const desk = new Agent({ name: 'desk', mcpServers: [github] });",
    ),
  };
  for (const [name, files] of Object.entries(server)) it(`mcp-server-unguarded: ${name}`, () => expect(messages(files, 'mcp-server-unguarded')).toEqual([]));
});

/** 4. A door written as an object in a plain JavaScript module that names neither the SDK nor the generated module (the prefilter used to skip it). */
const plainModules: Case[] = [
  {
    name: "a shell tool object (`type: 'shell'`)",
    files: {
      'src/tools.js': lines(
        "export const bash = { type: 'shell', name: 'shell', shell: { run: async (action) => runHere(action) } };",
        'function runHere(action) { return { output: [action] }; }',
      ),
    },
    expect: { ruleId: 'unprotected-door', file: 'src/tools.js', line: 1 },
  },
  {
    name: 'an apply_patch tool object, its type in double quotes',
    files: { 'src/tools.js': lines('export const patch = { type: "apply_patch", editor: { createFile: async () => {} } };') },
    expect: { ruleId: 'unprotected-door', file: 'src/tools.js', line: 1 },
  },
  {
    name: 'a computer tool object, its type in a const of a template literal',
    files: { 'src/tools.js': lines('const KIND = `computer`;', 'export const pc = { type: KIND, computer: { click: async () => {} } };') },
    expect: { ruleId: 'unprotected-door', file: 'src/tools.js', line: 2 },
  },
  {
    name: 'a hosted MCP tool object with no approval',
    files: { 'src/tools.js': lines("export const gh = { type: 'hosted_tool', name: 'hosted_mcp', providerData: { type: 'mcp', server_label: 'gh' } };") },
    expect: { ruleId: 'hosted-mcp-unguarded', file: 'src/tools.js', line: 1 },
  },
];

describe('session 29: a door written as an object in a module that names no token', () => {
  for (const c of plainModules) it(c.name, () => expect(found(c)).toEqual([c.expect.line]));

  it("stays silent on a task runner's steps there", () => {
    const files = { 'src/tasks.js': lines("export const steps = [{ type: 'shell', command: 'npm test' }, { type: 'shell', shell: '/bin/zsh' }];") };
    for (const ruleId of ['unprotected-door', 'hosted-mcp-unguarded']) expect(messages(files, ruleId, 'src/tasks.js')).toEqual([]);
  });
});

/** 5. A shell tool object whose `environment` is hosted (the runner runs nothing here) or only seems so. */
const shellLiteral = (...rest: string[]): Record<string, string> => ({
  [AGENT]: lines("import { Agent, type Shell } from '@openai/agents';", 'declare const shell: Shell; declare const base: { type: string };', ...rest),
});

describe("session 29: a shell tool object's environment", () => {
  it('is reported when a spread after its hosted `type` may make it local again', () => {
    const files = shellLiteral("export const bash = { type: 'shell', shell, environment: { type: 'container_auto', ...base } };");
    expect(messages(files, 'unprotected-door').map((m) => m.split(':')[0])).toEqual(['3']);
  });

  it('stays silent when hosted: written in place, before a spread, or held by a const', () => {
    const files = shellLiteral(
      "export const a = { type: 'shell', shell, environment: { ...base, type: 'container_auto' } };",
      "const hosted = { type: 'container_reference', containerId: 'cntr_1' };",
      "export const b = { type: 'shell', shell, environment: hosted };",
    );
    expect(messages(files, 'unprotected-door')).toEqual([]);
  });
});
