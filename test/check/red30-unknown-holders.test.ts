import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Issue 40 item 4 ("no false green"), session 30: a door's part written on an object check cannot
 * follow back to what made it (a parameter of another module's function, a method's, a callback's,
 * a destructured one; an element of an array or a Map; a function's result; a field of a base
 * class or a `get` accessor). For the parts only the SDK names (a server's guard lists and
 * `errorFunction`, a hosted tool's approval in `providerData`), and for a local door's body in a
 * file that uses the SDK, the write is reported (fail closed, as `invoke` on any object is). A
 * default-exported door and a long chain of re-exports too. Beside them, the writes on objects
 * check knows are no door, which stay silent.
 */

const SERVERS = lines(
  "import { Agent, MCPServerStdio } from '@openai/agents';",
  "import { protectMcpServer } from './ctrlrun.generated.js';",
  "export const github = protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' }));",
  "export const desk = new Agent({ name: 'desk', mcpServers: [github] });",
);
const at = (files: Record<string, string>, ruleId: string, file: string): number[] =>
  lintRepo(files, { project: testProject(), ruleId, file }).map((f) => f.line);
const messages = (files: Record<string, string>, ruleId: string, file: string): string[] =>
  lintRepo(files, { project: testProject(), ruleId, file }).map((f) => `${f.line}: ${f.message}`);

interface Case {
  name: string;
  files: Record<string, string>;
  ruleId: string;
  file: string;
  lines: number[];
}

const MCP = 'mcp-server-unguarded';
const WITH_SERVERS = (file: string, ...body: string[]): Record<string, string> => ({ 'src/servers.ts': SERVERS, [file]: lines(...body) });

/** 1. A door passed to code check does not follow. */
const passed: Case[] = [
  {
    name: 'a function of another module writing the server it is given (the writer names no SDK, nothing imported)',
    files: WITH_SERVERS('src/tamper.ts', 'export function open(s: any) {', '  s.toolInputGuardrails = [];', '}'),
    ruleId: MCP,
    file: 'src/tamper.ts',
    lines: [2],
  },
  {
    name: 'an exported function, called in its file only with a plain object (another module may give it a server)',
    files: WITH_SERVERS('src/ops.ts', 'export function open(s: any) { s.toolInputGuardrails = []; }', 'open({ toolInputGuardrails: [] });'),
    ruleId: MCP,
    file: 'src/ops.ts',
    lines: [1],
  },
  {
    name: "a server class's own method emptying its guard list (`this` of an instance protectMcpServer may guard)",
    files: WITH_SERVERS(
      'src/ops.ts',
      "import { MCPServerStdio } from '@openai/agents';",
      'export class GitHub extends MCPServerStdio {',
      '  reset() { this.toolInputGuardrails = []; }',
      '}',
    ),
    ruleId: MCP,
    file: 'src/ops.ts',
    lines: [3],
  },
  {
    name: 'a method given the server (`this.open(github)`)',
    files: WITH_SERVERS(
      'src/ops.ts',
      "import { github } from './servers.js';",
      'class Ops {',
      '  run() { this.open(github); }',
      '  open(s: typeof github) { s.toolOutputGuardrails = []; }',
      '}',
      'new Ops().run();',
    ),
    ruleId: MCP,
    file: 'src/ops.ts',
    lines: [4],
  },
  {
    name: 'a callback (`[github].forEach(s => ...)`)',
    files: WITH_SERVERS('src/ops.ts', "import { github } from './servers.js';", '[github].forEach((s) => { s.errorFunction = () => "ok"; });'),
    ruleId: MCP,
    file: 'src/ops.ts',
    lines: [2],
  },
  {
    name: 'a function called through `.call` (and directly with a plain object)',
    files: WITH_SERVERS(
      'src/ops.ts',
      "import { github } from './servers.js';",
      'function open(this: unknown, s: any) { s.toolInputGuardrails.splice(0); }',
      'open.call(null, github);',
      'open(null, { toolInputGuardrails: [] });',
    ),
    ruleId: MCP,
    file: 'src/ops.ts',
    lines: [2],
  },
  {
    name: 'a destructured parameter',
    files: WITH_SERVERS(
      'src/ops.ts',
      "import { github } from './servers.js';",
      'function open({ server }: { server: typeof github }) { server.toolInputGuardrails = []; }',
      'open({ server: github });',
    ),
    ruleId: MCP,
    file: 'src/ops.ts',
    lines: [2],
  },
];

/** 2. A door kept somewhere check does not follow. */
const kept: Case[] = [
  {
    name: 'an element of an array (`servers[0]`)',
    files: WITH_SERVERS('src/ops.ts', "import { github } from './servers.js';", 'const servers = [github];', 'servers[0].toolInputGuardrails = [];'),
    ruleId: MCP,
    file: 'src/ops.ts',
    lines: [3],
  },
  {
    name: 'a loop variable (`for (const s of servers)`)',
    files: WITH_SERVERS('src/ops.ts', "import { github } from './servers.js';", 'for (const s of [github]) s.toolInputGuardrails = [];'),
    ruleId: MCP,
    file: 'src/ops.ts',
    lines: [2],
  },
  {
    name: "a Map's value (`m.get('gh')`)",
    files: WITH_SERVERS(
      'src/ops.ts',
      "import { github } from './servers.js';",
      "const m = new Map([['gh', github]]);",
      "m.get('gh')!.errorFunction = undefined as never;",
    ),
    ruleId: MCP,
    file: 'src/ops.ts',
    lines: [3],
  },
  {
    name: "a function's result from another module",
    files: WITH_SERVERS('src/ops.ts', "import { serverFor } from './registry.js';", "const s = serverFor('github');", 's.toolOutputGuardrails = [];'),
    ruleId: MCP,
    file: 'src/ops.ts',
    lines: [3],
  },
  {
    name: 'a `get` accessor of the class',
    files: WITH_SERVERS(
      'src/ops.ts',
      "import { github } from './servers.js';",
      'class Ops {',
      '  get server() { return github; }',
      '  drop() { this.server.toolInputGuardrails = []; }',
      '}',
    ),
    ruleId: MCP,
    file: 'src/ops.ts',
    lines: [4],
  },
  {
    name: 'a field of a base class',
    files: WITH_SERVERS(
      'src/ops.ts',
      "import { github } from './servers.js';",
      'class Base { server = github; }',
      'class Ops extends Base {',
      '  drop() { this.server.toolInputGuardrails = []; }',
      '}',
    ),
    ruleId: MCP,
    file: 'src/ops.ts',
    lines: [4],
  },
  {
    name: 'a field of a class of another module',
    files: WITH_SERVERS('src/ops.ts', "import { Registry } from './registry.js';", 'new Registry().github.toolInputGuardrails = [];'),
    ruleId: MCP,
    file: 'src/ops.ts',
    lines: [2],
  },
  {
    name: "a hosted tool's approval turned off on a parameter",
    files: { 'src/ops.ts': lines('export function relax(t: any) {', "  t.providerData.require_approval = 'never';", '}') },
    ruleId: 'hosted-mcp-unguarded',
    file: 'src/ops.ts',
    lines: [2],
  },
  {
    name: "a protected shell tool's body swapped on a parameter, in a file using the SDK",
    files: {
      'src/ops.ts': lines(
        "import type { Shell } from '@openai/agents';",
        'declare const other: Shell;',
        'export function swap(t: { shell: Shell }) { t.shell = other; }',
      ),
    },
    ruleId: 'invoke-replaced',
    file: 'src/ops.ts',
    lines: [3],
  },
];

/** 2a. Past what one question follows: seven names in a row (the holders' search stops after six steps). */
const tooDeep: Case[] = [
  {
    name: 'a server passed through more names than check follows',
    files: WITH_SERVERS(
      'src/ops.ts',
      "import { github } from './servers.js';",
      'const a1 = github; const a2 = a1; const a3 = a2; const a4 = a3; const a5 = a4; const a6 = a5; const a7 = a6;',
      'a7.toolInputGuardrails = [];',
    ),
    ruleId: MCP,
    file: 'src/ops.ts',
    lines: [3],
  },
];

/** A local door's module, as session 29's tests write it (lines 1-3); `rest` from line 4. */
const localDoors = (...rest: string[]): Record<string, string> => ({
  'src/agent.ts': lines(
    "import { Agent, type Shell } from '@openai/agents';",
    "import { protectShellTool } from './ctrlrun.generated.js';",
    'declare const shell: Shell; declare const dockerShell: Shell;',
    ...rest,
  ),
});
const SH = "protectShellTool('host.shell', { shell })";

/**
 * 2b. Session 29 kept these silent as forms it did not follow; an object check cannot tell is now
 * reported (a spread may give the property, a plain function's `this` is whatever calls it).
 */
const noLongerSilent: Case[] = [
  {
    name: 'a property a later spread may override (`{ sh, ...other }`), session 29 silent',
    files: localDoors('declare const other: { sh: { shell: Shell } };', `const sh = ${SH};`, 'const kit = { sh, ...other };', 'kit.sh.shell = dockerShell;'),
    ruleId: 'invoke-replaced',
    file: 'src/agent.ts',
    lines: [7],
  },
  {
    name: "a plain `function`'s own `this` inside a method, session 29 silent",
    files: localDoors(
      'class A {',
      `  sh = ${SH};`,
      '  swap() { return function (this: { sh: { shell: Shell } }) { this.sh.shell = dockerShell; }; }',
      '}',
      'export const desk = new Agent({ name: "desk" });',
    ),
    ruleId: 'invoke-replaced',
    file: 'src/agent.ts',
    lines: [6],
  },
];

/** 3. A door exported as the default, a chain of re-exports longer than the search follows. */
const exported: Case[] = [
  {
    name: '`export default protectMcpServer(...)` written by a default import (writer names no SDK)',
    files: {
      'src/github.ts': lines(
        "import { MCPServerStdio } from '@openai/agents';",
        "import { protectMcpServer } from './ctrlrun.generated.js';",
        "export default protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' }));",
      ),
      'src/ops.ts': lines("import gh from './github.js';", 'gh.toolInputGuardrails = [];'),
    },
    ruleId: MCP,
    file: 'src/ops.ts',
    lines: [2],
  },
  {
    name: '`export default server` of a const',
    files: {
      'src/github.ts': lines(
        "import { MCPServerStdio } from '@openai/agents';",
        "import { protectMcpServer } from './ctrlrun.generated.js';",
        "const server = protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' }));",
        'export default server;',
      ),
      'src/ops.ts': lines("import server from './github.js';", 'server.errorFunction = () => "x";'),
    },
    ruleId: MCP,
    file: 'src/ops.ts',
    lines: [2],
  },
  {
    name: "a shell tool's `export default`, written by a module naming no SDK (only the word `shell`)",
    files: {
      'src/sh.ts': lines(
        "import type { Shell } from '@openai/agents';",
        "import { protectShellTool } from './ctrlrun.generated.js';",
        'declare const shell: Shell;',
        "export default protectShellTool('host.shell', { shell });",
      ),
      'src/ops.ts': lines("import sh from './sh.js';", 'declare const other: unknown;', 'sh.shell = other as never;'),
    },
    ruleId: 'invoke-replaced',
    file: 'src/ops.ts',
    lines: [3],
  },
  {
    name: "a shell tool renamed by six re-exports, written by a module naming no SDK (past the search's four rounds of names)",
    files: shellChain(6),
    ruleId: 'invoke-replaced',
    file: 'src/ops.ts',
    lines: [3],
  },
  {
    name: 'a server renamed by ten re-exports',
    files: renamedChain(10),
    ruleId: MCP,
    file: 'src/ops.ts',
    lines: [2],
  },
];

/** `src/servers.ts`, re-exported under a new name by `src/r1.ts` .. `src/r<n>.ts`, written in `src/ops.ts` under the last name. */
function renamedChain(n: number): Record<string, string> {
  const files: Record<string, string> = { 'src/servers.ts': SERVERS };
  for (let i = 1; i <= n; i++)
    files[`src/r${i}.ts`] = `export { ${i === 1 ? 'github' : `g${i - 1}`} as g${i} } from './${i === 1 ? 'servers' : `r${i - 1}`}.js';\n`;
  files['src/ops.ts'] = lines(`import { g${n} } from './r${n}.js';`, `g${n}.toolInputGuardrails = [];`);
  return files;
}

/** A protected shell tool in `src/sh.ts`, renamed by `src/r1.ts` .. `src/r<n>.ts`, its body written in `src/ops.ts`. */
function shellChain(n: number): Record<string, string> {
  const files: Record<string, string> = {
    'src/sh.ts': lines(
      "import type { Shell } from '@openai/agents';",
      "import { protectShellTool } from './ctrlrun.generated.js';",
      'declare const shell: Shell;',
      "export const hostTool = protectShellTool('host.shell', { shell });",
    ),
  };
  // names no other name is a part of (the writer search tests the text for each)
  for (let i = 1; i <= n; i++)
    files[`src/r${i}.ts`] = `export { ${i === 1 ? 'hostTool' : `alias${i - 1}`} as alias${i} } from './${i === 1 ? 'sh' : `r${i - 1}`}.js';\n`;
  files['src/ops.ts'] = lines(`import { alias${n} } from './r${n}.js';`, 'declare const other: unknown;', `alias${n}.shell = other as never;`);
  return files;
}

describe('session 30: a door written on an object check cannot follow', () => {
  for (const c of [...passed, ...kept, ...tooDeep, ...noLongerSilent, ...exported])
    it(`reports ${c.name}`, () => expect(at(c.files, c.ruleId, c.file)).toEqual(c.lines));

  it('says check cannot tell which object it is, and what to do', () => {
    const callback = passed.find((c) => c.name.startsWith('a callback'))!;
    const [m] = messages(callback.files, MCP, 'src/ops.ts');
    expect(m).toContain('2: `s.errorFunction` is reassigned, and check cannot tell which object `s` is');
    expect(m).toContain('if it is an MCP server protectMcpServer guards, the guarded error function it replaces settles a failed call');
    const [hint] = lintRepo(callback.files, { project: testProject(), ruleId: MCP, file: 'src/ops.ts' }).map((f) => f.hint);
    expect(hint).toContain('// ctrlrun-ignore mcp-server-unguarded -- <why>');
  });
});

describe('session 30: writes on objects check knows stay silent', () => {
  const silent: Array<[string, Record<string, string>, string, string]> = [
    [
      'an unguarded server made in the file (a new object), written before it is guarded',
      WITH_SERVERS(
        'src/ops.ts',
        "import { MCPServerStdio } from '@openai/agents';",
        "const s = new MCPServerStdio({ name: 'fs', fullCommand: 'fs-mcp' });",
        's.toolInputGuardrails = [];',
        "const make = () => new MCPServerStdio({ name: 'x', fullCommand: 'x' });",
        'make().errorFunction = null as never;',
      ),
      MCP,
      'src/ops.ts',
    ],
    [
      'either side of `?:` or `??`, each a server made in the file',
      WITH_SERVERS(
        'src/ops.ts',
        "import { MCPServerStdio } from '@openai/agents';",
        'declare const flag: boolean;',
        "const a = new MCPServerStdio({ name: 'a', fullCommand: 'a' });",
        "const b = new MCPServerStdio({ name: 'b', fullCommand: 'b' });",
        '(flag ? a : b).toolInputGuardrails = [];',
        '(a ?? b).errorFunction = null as never;',
      ),
      MCP,
      'src/ops.ts',
    ],
    [
      'a static field (`this` in a static method is the class)',
      WITH_SERVERS(
        'src/ops.ts',
        "import { MCPServerStdio } from '@openai/agents';",
        "class Pool { static fs = new MCPServerStdio({ name: 'fs', fullCommand: 'fs' }); static reset() { this.fs.toolInputGuardrails = []; } }",
        'Pool.reset();',
      ),
      MCP,
      'src/ops.ts',
    ],
    [
      "an object literal's own guard list, and a guardrail pushed on a parameter (no drop)",
      WITH_SERVERS(
        'src/ops.ts',
        'declare const audit: never;',
        'const config = { toolInputGuardrails: [audit] };',
        'config.toolInputGuardrails = [];',
        'export function add(s: any) { s.toolInputGuardrails.push(audit); }',
      ),
      MCP,
      'src/ops.ts',
    ],
    [
      "a constructor setting its own errorFunction (the SDK's own server classes)",
      {
        'src/server.ts': lines(
          'export class MyServer {',
          '  errorFunction: unknown;',
          '  constructor(options: { errorFunction?: unknown }) { this.errorFunction = options.errorFunction; }',
          '}',
        ),
      },
      MCP,
      'src/server.ts',
    ],
    [
      "a hosted tool's providerData read, and another item's providerData written",
      {
        'src/ops.ts': lines(
          'export function mark(item: any, t: any) {',
          '  item.providerData = { id: 1 };',
          "  return t.providerData.require_approval === 'never';",
          '}',
        ),
      },
      'hosted-mcp-unguarded',
      'src/ops.ts',
    ],
    [
      'generic `shell`/`editor`/`computer` on unknown objects in a file that does not use the SDK',
      {
        'src/ui.ts': lines(
          '// the ctrlrun settings panel (a word check reads the file for)',
          'export function wire(app: any, editor: unknown) {',
          '  app.editor = editor;',
          "  (window as any).shell = 'bash';",
          '  app.computer = { name: 1 };',
          '}',
        ),
      },
      'invoke-replaced',
      'src/ui.ts',
    ],
    [
      'a `shell` written on an object made in the file, in a file using the SDK',
      {
        'src/ops.ts': lines(
          "import type { Shell } from '@openai/agents';",
          'declare const other: Shell;',
          'const opts = { shell: other };',
          'opts.shell = other;',
          'class Box { tool = { shell: other }; swap() { this.tool.shell = other; } }',
          'export const box = new Box();',
        ),
      },
      'invoke-replaced',
      'src/ops.ts',
    ],
  ];
  for (const [name, files, ruleId, file] of silent) it(`stays silent on ${name}`, () => expect(messages(files, ruleId, file)).toEqual([]));

  it('stays silent on a re-export cycle that reaches no door', () => {
    const files = {
      'src/servers.ts': SERVERS,
      'src/a.ts': "export * from './b.js';\n",
      'src/b.ts': "export * from './a.js';\n",
      'src/ops.ts': lines("import { other } from './a.js';", 'other.toolInputGuardrails = [];'),
    };
    expect(messages(files, MCP, 'src/ops.ts')).toEqual([]);
  });
});

describe('a parameter passed from more calls than one question follows', () => {
  it('is an object check cannot follow when the calls past the budget are not read', () => {
    // 300 calls with plain objects, then the door: the budget (256 values) ends before the door's call
    const calls = Array.from({ length: 300 }, (_, i) => `open({ n: ${i} });`);
    const files = WITH_SERVERS(
      'src/tamper.ts',
      "import { github } from './servers.js';",
      'function open(s: any) {',
      '  s.toolInputGuardrails = [];',
      '}',
      ...calls,
      'open(github);',
    );
    expect(at(files, MCP, 'src/tamper.ts')).toEqual([3]);
  });
});
