import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Issue 40 item 4 ("no false green"), session 31: a `let` holder given a door after its
 * initializer (every assignment to it in the file is followed; one check cannot follow makes it an
 * object check cannot tell), a handoff's `clone` given overrides check cannot read, and a handoff's
 * `onInvokeHandoff` written in a helper that names neither the SDK nor the generated module.
 */

const MCP = 'mcp-server-unguarded';
const SHELL = 'invoke-replaced';
const HANDOFF = 'unprotected-handoff';
const at = (files: Record<string, string>, ruleId: string, file: string): number[] =>
  lintRepo(files, { project: testProject(), ruleId, file }).map((f) => f.line);
const messages = (files: Record<string, string>, ruleId: string, file: string): string[] =>
  lintRepo(files, { project: testProject(), ruleId, file }).map((f) => `${f.line}: ${f.message}`);

/** A module of MCP servers (lines 1-3); `rest` from line 4. */
const servers = (...rest: string[]): Record<string, string> => ({
  'src/servers.ts': lines(
    "import { Agent, MCPServerStdio } from '@openai/agents';",
    "import { protectMcpServer } from './ctrlrun.generated.js';",
    'declare const pool: MCPServerStdio[];',
    ...rest,
  ),
});
/** A module of local doors (lines 1-3); `rest` from line 4. */
const shells = (...rest: string[]): Record<string, string> => ({
  'src/agent.ts': lines(
    "import { Agent, type Shell } from '@openai/agents';",
    "import { protectShellTool } from './ctrlrun.generated.js';",
    'declare const shell: Shell; declare const dockerShell: Shell;',
    ...rest,
  ),
});
/** A module with an on-call agent and a protected handoff to it (lines 1-4); `rest` from line 5. */
const oncall = (...rest: string[]): Record<string, string> => ({
  'src/agent.ts': lines(
    "import { Agent } from '@openai/agents';",
    "import { protectHandoff } from './ctrlrun.generated.js';",
    "export const oncall = new Agent({ name: 'oncall' });",
    "export const h = protectHandoff('desk.page_oncall', oncall, { onHandoff: async () => {} });",
    ...rest,
  ),
});

interface Case {
  name: string;
  files: Record<string, string>;
  ruleId: string;
  file: string;
  lines: number[];
}

/** a. A `let` given a door (or what check cannot follow) after its initializer. */
const letHolders: Case[] = [
  {
    name: 'a `let` made an unguarded server, then guarded by protectMcpServer, its guard list emptied',
    files: servers("let s = new MCPServerStdio({ name: 'fs', fullCommand: 'fs-mcp' });", 's = protectMcpServer(s);', 's.toolInputGuardrails = [];'),
    ruleId: MCP,
    file: 'src/servers.ts',
    lines: [6],
  },
  {
    name: 'a `let` given a protected shell tool in a function, its `shell` replaced',
    files: shells('let t: any = null;', `function setup() { t = protectShellTool('host.shell', { shell }); }`, 'setup();', 't.shell = dockerShell;'),
    ruleId: SHELL,
    file: 'src/agent.ts',
    lines: [7],
  },
  {
    name: "a `let` given a function's local const holding a guarded server (read where the assignment is)",
    files: servers(
      'let s: any = {};',
      "function setup() { const g = protectMcpServer(new MCPServerStdio({ name: 'g', fullCommand: 'g' })); s = g; }",
      'setup();',
      's.errorFunction = null as never;',
    ),
    ruleId: MCP,
    file: 'src/servers.ts',
    lines: [7],
  },
  {
    name: 'a `let` given an element of a list later (an object check cannot tell)',
    files: servers("let s = new MCPServerStdio({ name: 'fs', fullCommand: 'fs-mcp' });", 'if (pool.length) s = pool[0]!;', 's.toolOutputGuardrails = [];'),
    ruleId: MCP,
    file: 'src/servers.ts',
    lines: [6],
  },
];

/** b. `h.clone(o)` with overrides check cannot read. */
const clones: Case[] = [
  {
    name: "`h.clone(o)` where `o` is a function's parameter",
    files: oncall('export function copy(o: any) { return h.clone(o); }'),
    ruleId: HANDOFF,
    file: 'src/agent.ts',
    lines: [5],
  },
  {
    name: "`h.clone(o)` where `o` is a call's result held in a const",
    files: oncall('declare function overrides(): any;', 'const o = overrides();', "export const desk = new Agent({ name: 'desk', handoffs: [h.clone(o)] });"),
    ruleId: HANDOFF,
    file: 'src/agent.ts',
    lines: [7],
  },
];

/** c. A handoff's invoke function written in a helper naming neither the SDK nor the generated module. */
const helpers: Case[] = [
  {
    name: '`h.onInvokeHandoff = f` in a helper given the handoff',
    files: { ...oncall(), 'src/tamper.ts': lines('export function open(h: any, f: any) {', '  h.onInvokeHandoff = f;', '}') },
    ruleId: HANDOFF,
    file: 'src/tamper.ts',
    lines: [2],
  },
  {
    name: '`Object.assign(h, { onInvokeHandoff })` and `h.clone({ onInvokeHandoff })` in such a helper',
    files: {
      ...oncall(),
      'src/tamper.ts': lines(
        'export function open(h: any, onInvokeHandoff: any) {',
        '  Object.assign(h, { onInvokeHandoff });',
        '  return h.clone({ onInvokeHandoff });',
        '}',
      ),
    },
    ruleId: HANDOFF,
    file: 'src/tamper.ts',
    lines: [2, 3],
  },
  {
    name: 'an imported handoff given another invoke function in a module naming neither',
    files: { ...oncall(), 'src/tamper.ts': lines("import { h } from './agent.js';", 'export const open = (f: any) => {', '  h.onInvokeHandoff = f;', '};') },
    ruleId: HANDOFF,
    file: 'src/tamper.ts',
    lines: [3],
  },
];

/** A module exporting a protected shell tool (the generated module's). */
const TOOLS = lines(
  "import { type Shell } from '@openai/agents';",
  "import { protectShellTool } from './ctrlrun.generated.js';",
  'declare const shell: Shell;',
  "export const hostTool = protectShellTool('host.shell', { shell });",
  'export const label = "host";',
);

/** d. A local door's body written on an object check cannot follow, in a module naming neither but importing a door's module. */
const generic: Case[] = [
  {
    name: "`t.shell = x` on a loop's variable in a module importing a module that exports a shell tool",
    files: {
      'src/tools.ts': TOOLS,
      'src/swap.ts': lines(
        "import { label } from './tools.js';",
        'export function swapAll(list: any[], x: any) {',
        '  for (const t of list) t.shell = x;',
        '  return label;',
        '}',
      ),
    },
    ruleId: SHELL,
    file: 'src/swap.ts',
    lines: [3],
  },
];

describe('session 31: door writes on let holders, clones and helpers', () => {
  for (const c of [...letHolders, ...clones, ...helpers, ...generic]) it(`reports ${c.name}`, () => expect(at(c.files, c.ruleId, c.file)).toEqual(c.lines));

  it('names the door a `let` was given, not an object check cannot tell', () => {
    const [m] = messages(letHolders[0]!.files, MCP, 'src/servers.ts');
    expect(m).toContain('6: `s.toolInputGuardrails` is reassigned');
    expect(m).not.toContain('check cannot tell');
    const [local] = messages(letHolders[2]!.files, MCP, 'src/servers.ts');
    expect(local).toContain('7: `s.errorFunction` is reassigned');
    expect(local).not.toContain('check cannot tell');
  });
});

describe('session 31: writes on objects check knows, and no handoff, stay silent', () => {
  const silent: Array<[string, Record<string, string>, string, string]> = [
    [
      'a `let` given only servers made in the file (new objects), its guard list emptied',
      servers(
        "let s = new MCPServerStdio({ name: 'a', fullCommand: 'a' });",
        "s = new MCPServerStdio({ name: 'b', fullCommand: 'b' });",
        's.toolInputGuardrails = [];',
      ),
      MCP,
      'src/servers.ts',
    ],
    [
      'a `let` given only plain objects, their `shell` written',
      shells('let t = { shell };', 't = { shell: dockerShell };', 't.shell = shell;'),
      SHELL,
      'src/agent.ts',
    ],
    [
      '`clone()` with overrides check reads (an agent alone, a const object), none, or `undefined`',
      oncall(
        'const o = { agent: oncall };',
        "export const desk = new Agent({ name: 'desk', handoffs: [h.clone(o), h.clone({ agent: oncall }), h.clone(), h.clone(undefined)] });",
      ),
      HANDOFF,
      'src/agent.ts',
    ],
    [
      'a helper naming no SDK (parsed: it names `invoke`) cloning what it is given with a parameter (`git.clone(opts)`), and another property',
      {
        ...oncall(),
        'src/git.ts': lines(
          'export async function fetchRepo(git: any, opts: any) {',
          '  git.onInvoke = opts;',
          "  await git.invoke('fetch');",
          '  return git.clone(opts);',
          '}',
        ),
      },
      HANDOFF,
      'src/git.ts',
    ],
    [
      "a class's constructor setting its own `onInvokeHandoff` (an object being built, as the SDK's Handoff does)",
      {
        ...oncall(),
        'src/my-handoff.ts': lines(
          'export class MyHandoff {',
          '  onInvokeHandoff: any;',
          '  constructor(f: any) {',
          '    this.onInvokeHandoff = f;',
          '  }',
          '}',
        ),
      },
      HANDOFF,
      'src/my-handoff.ts',
    ],
    [
      "`t.shell = x` on a loop's variable in a module importing only modules that export no shell tool (a guarded server)",
      {
        'src/tools.ts': TOOLS,
        'src/labels.ts': lines(
          "import { MCPServerStdio } from '@openai/agents';",
          "import { protectMcpServer } from './ctrlrun.generated.js';",
          "export const github = protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' }));",
          'export const label = "host";',
        ),
        // the comment names the tools' module, so the writer search reads the file
        'src/swap.ts': lines(
          "import { label } from './labels.js';",
          'export function swapAll(list: any[], x: any) {',
          '  for (const t of list) t.shell = x;',
          "  return label; // not the tools' labels",
          '}',
        ),
      },
      SHELL,
      'src/swap.ts',
    ],
    [
      '`o.shell = x` on an object the module makes, importing a module that exports a shell tool',
      {
        'src/tools.ts': TOOLS,
        'src/swap.ts': lines(
          "import { label } from './tools.js';",
          'export function swap(x: any) {',
          '  const o = { shell: x, label };',
          '  o.shell = x;',
          '  return o;',
          '}',
        ),
      },
      SHELL,
      'src/swap.ts',
    ],
  ];
  for (const [name, files, ruleId, file] of silent) it(`stays silent on ${name}`, () => expect(at(files, ruleId, file)).toEqual([]));
  it('reports no other door for a shell written in a module importing a guarded server', () => {
    const [, files, , file] = silent.find(([name]) => name.includes('(a guarded server)'))!;
    for (const ruleId of [MCP, SHELL, 'hosted-mcp-unguarded']) expect(at(files, ruleId, file), ruleId).toEqual([]);
  });
});
