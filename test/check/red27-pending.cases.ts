/**
 * Red team, session 27 (issue 40, "no false green"): apps where `check` is silent though a door is
 * open, or though the app answers a protected tool's interruption through the SDK. Each case is a
 * small repo (path → text) and the finding `check` should give; every one of them is silent today
 * (checked by probes against the test project of rule-tester.ts: `refund` → stripe.refund,
 * `lookup_charge` → stripe.charge.read, `close_account` → accounts.close). They are data, not tests,
 * so CI stays green until the readers learn them (docs/DECISIONS.md, "Session 27: red team").
 *
 * To turn one into a test once it is fixed (in a `*.test.ts` of this folder):
 *
 *   import { lintRepo, testProject } from './rule-tester.js';
 *   import { RED27_PENDING } from './red27-pending.cases.js';
 *   for (const c of RED27_PENDING)
 *     it(c.name, () => {
 *       const found = lintRepo(c.files, { project: testProject(), ruleId: c.expect.ruleId, file: c.expect.file });
 *       expect(found.map((f) => f.line)).toContain(c.expect.line);
 *     });
 *
 * Today every such test fails with `[]`: nothing is reported.
 */

import { TOOLS } from './red27-apps.js';
import { lines } from './rule-tester.js';

export interface PendingCase {
  name: string;
  /** The gap's letter in docs/DECISIONS.md ("Session 27: red team (issue 40)"). */
  gap: 'B' | 'C' | 'D' | 'E' | 'F' | 'G';
  /** How likely a real app is to write it. */
  likelihood: 'high' | 'medium' | 'low';
  /** The repo: path → source text. */
  files: Record<string, string>;
  /** The finding check should give (today: none). */
  expect: { ruleId: string; file: string; line: number };
}

/** A module with the three protected local doors (lines 1-6); `rest` from line 7. */
const localDoors = (...rest: string[]): Record<string, string> => ({
  'src/agent.ts': lines(
    "import { Agent, type Computer, type Editor, type Shell } from '@openai/agents';",
    "import { protectApplyPatchTool, protectComputerTool, protectShellTool } from './ctrlrun.generated.js';",
    'declare const shell: Shell; declare const dockerShell: Shell; declare const editor: Editor; declare const computer: Computer;',
    "const sh = protectShellTool('host.shell', { shell });",
    "const ap = protectApplyPatchTool('repo.patch', { editor });",
    "const pc = protectComputerTool('browser.use', { computer });",
    ...rest,
  ),
});

const replaced = (line: number) => ({ ruleId: 'invoke-replaced', file: 'src/agent.ts', line });

/** Gap B: the body of a protected local door (its `shell`, `editor`, `computer`) replaced. */
const localBodies: PendingCase[] = [
  {
    name: 'a copy of a protected shell tool with another `shell` (`{ ...sh, shell: dockerShell }`)',
    gap: 'B',
    likelihood: 'medium',
    files: localDoors("export const desk = new Agent({ name: 'desk', tools: [{ ...sh, shell: dockerShell }, ap, pc] });"),
    expect: replaced(7),
  },
  {
    name: "a protected shell tool's `shell` reassigned",
    gap: 'B',
    likelihood: 'low',
    files: localDoors('sh.shell = dockerShell;', "export const desk = new Agent({ name: 'desk', tools: [sh, ap, pc] });"),
    expect: replaced(7),
  },
  {
    name: 'a copy of a protected apply_patch tool with another `editor`',
    gap: 'B',
    likelihood: 'low',
    files: localDoors("export const desk = new Agent({ name: 'desk', tools: [sh, { ...ap, editor }, pc] });"),
    expect: replaced(7),
  },
  {
    name: '`Object.assign` of another `computer` onto a protected computer tool',
    gap: 'B',
    likelihood: 'low',
    files: localDoors('Object.assign(pc, { computer });', "export const desk = new Agent({ name: 'desk', tools: [sh, ap, pc] });"),
    expect: replaced(7),
  },
];

/** The protected tool of TOOLS (lines 1-8) and `rest` from line 9, in one module. */
const toolModule = (...rest: string[]): Record<string, string> => ({ 'src/tools.ts': TOOLS + lines(...rest) });
const invokeAt = (line: number) => ({ ruleId: 'invoke-replaced', file: 'src/tools.ts', line });

/** Gap C: a protected tool's `invoke` replaced by the reflective forms invoke-replaced does not read. */
const reflectiveInvoke: PendingCase[] = [
  {
    name: "`Object.defineProperty(refund, 'invoke', { value })`",
    gap: 'C',
    likelihood: 'low',
    files: toolModule("Object.defineProperty(refund, 'invoke', { value: async () => 'done' });"),
    expect: invokeAt(9),
  },
  {
    name: '`Object.defineProperties(refund, { invoke: { value } })`',
    gap: 'C',
    likelihood: 'low',
    files: toolModule("Object.defineProperties(refund, { invoke: { value: async () => 'done' } });"),
    expect: invokeAt(9),
  },
  {
    name: "`Reflect.set(refund, 'invoke', fn)`",
    gap: 'C',
    likelihood: 'low',
    files: toolModule("Reflect.set(refund, 'invoke', async () => 'done');"),
    expect: invokeAt(9),
  },
  {
    name: "`Reflect.defineProperty(refund, 'invoke', { value })`",
    gap: 'C',
    likelihood: 'low',
    files: toolModule("Reflect.defineProperty(refund, 'invoke', { value: async () => 'done' });"),
    expect: invokeAt(9),
  },
];

/** An agent's `getAllTools` given another by reflection (invoke-replaced reads `agent.getAllTools = f`). */
const reflectiveAgent: PendingCase = {
  name: "`Object.defineProperty(agent, 'getAllTools', { value })`: tools in none of the agent's lists",
  gap: 'C',
  likelihood: 'low',
  files: {
    'src/agent.ts': lines(
      "import { Agent, type Tool } from '@openai/agents';",
      'declare const extra: Tool;',
      "export const desk = new Agent({ name: 'desk' });",
      "Object.defineProperty(desk, 'getAllTools', { value: async () => [extra] });",
    ),
  },
  expect: { ruleId: 'invoke-replaced', file: 'src/agent.ts', line: 4 },
};

/** A module with a guarded MCP server (lines 1-4); `rest` from line 5. */
const guardedServer = (...rest: string[]): Record<string, string> => ({
  'src/agent.ts': lines(
    "import { Agent, MCPServerStdio, defineToolInputGuardrail } from '@openai/agents';",
    "import { protectMcpServer } from './ctrlrun.generated.js';",
    "const audit = defineToolInputGuardrail({ name: 'audit', run: async () => ({ behavior: { type: 'allow' } }) } as never);",
    "const github = protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' }));",
    ...rest,
    "export const desk = new Agent({ name: 'desk', mcpServers: [github] });",
  ),
});
const unguarded = (line: number) => ({ ruleId: 'mcp-server-unguarded', file: 'src/agent.ts', line });

/** Gap D: the guard protectMcpServer put on a server dropped afterwards. */
const droppedGuards: PendingCase[] = [
  {
    name: '`toolInputGuardrails` assigned after protectMcpServer (the policy guard is gone)',
    gap: 'D',
    likelihood: 'medium',
    files: guardedServer('github.toolInputGuardrails = [audit];'),
    expect: unguarded(5),
  },
  {
    name: '`Object.assign(server, { toolInputGuardrails })` after protectMcpServer',
    gap: 'D',
    likelihood: 'low',
    files: guardedServer('Object.assign(github, { toolInputGuardrails: [audit] });'),
    expect: unguarded(5),
  },
  {
    name: '`toolInputGuardrails` emptied with `splice` after protectMcpServer',
    gap: 'D',
    likelihood: 'low',
    files: guardedServer('github.toolInputGuardrails?.splice(0);'),
    expect: unguarded(5),
  },
  {
    name: 'an `errorFunction` assigned after protectMcpServer (the guarded one that settles calls is gone)',
    gap: 'D',
    likelihood: 'medium',
    files: guardedServer("github.errorFunction = () => 'The tool failed, please try again.';"),
    expect: unguarded(5),
  },
];

/** Gap D, hosted: the approval a hosted MCP tool was made with, turned off in the tool it returned. */
const droppedHostedApproval: PendingCase = {
  name: "a hosted MCP tool made with `requireApproval: 'always'`, its `providerData.require_approval` set to 'never' afterwards",
  gap: 'D',
  likelihood: 'low',
  files: {
    'src/agent.ts': lines(
      "import { Agent, hostedMcpTool } from '@openai/agents';",
      "const github = hostedMcpTool({ serverLabel: 'github', serverUrl: 'https://example.com/mcp', requireApproval: 'always' });",
      "github.providerData.require_approval = 'never';",
      "export const desk = new Agent({ name: 'desk', tools: [github] });",
    ),
  },
  expect: { ruleId: 'hosted-mcp-unguarded', file: 'src/agent.ts', line: 3 },
};

/** Gap E, hosted: a hosted MCP tool written as the object `hostedMcpTool` returns. */
const literalHostedMcp: PendingCase = {
  name: "a hosted MCP tool written as an object literal (`{ type: 'hosted_tool', providerData: { type: 'mcp', require_approval: 'never' } }`)",
  gap: 'E',
  likelihood: 'low',
  files: {
    'src/agent.ts': lines(
      "import { Agent } from '@openai/agents';",
      'const github = {',
      "  type: 'hosted_tool' as const,",
      "  name: 'hosted_mcp',",
      "  providerData: { type: 'mcp', server_label: 'github', server_url: 'https://example.com/mcp', require_approval: 'never' },",
      '};',
      "export const desk = new Agent({ name: 'desk', tools: [github] });",
    ),
  },
  expect: { ruleId: 'hosted-mcp-unguarded', file: 'src/agent.ts', line: 2 },
};

/** Gap E: local doors written by hand, as object-literal-tool reads function tools. */
const literalLocalDoors: PendingCase[] = [
  {
    name: "a shell tool written as an object literal (`{ type: 'shell', shell, ... }`)",
    gap: 'E',
    likelihood: 'low',
    files: {
      'src/agent.ts': lines(
        "import { Agent, type Shell, type ShellTool } from '@openai/agents';",
        'declare const shell: Shell;',
        "const bash = { type: 'shell', name: 'shell', environment: { type: 'local' }, shell, needsApproval: async () => false } as ShellTool;",
        "export const desk = new Agent({ name: 'desk', tools: [bash] });",
      ),
    },
    expect: { ruleId: 'unprotected-door', file: 'src/agent.ts', line: 3 },
  },
  {
    name: "an apply_patch tool written as an object literal (`{ type: 'apply_patch', editor, ... }`)",
    gap: 'E',
    likelihood: 'low',
    files: {
      'src/agent.ts': lines(
        "import { Agent, type Editor } from '@openai/agents';",
        'declare const editor: Editor;',
        "const patch = { type: 'apply_patch' as const, name: 'apply_patch', editor, needsApproval: async () => false };",
        "export const desk = new Agent({ name: 'desk', tools: [patch] });",
      ),
    },
    expect: { ruleId: 'unprotected-door', file: 'src/agent.ts', line: 3 },
  },
];

/** A module with an on-call agent (lines 1-3); `rest` from line 4. */
const oncall = (...rest: string[]): Record<string, string> => ({
  'src/agent.ts': lines(
    "import { Agent, Handoff, handoff } from '@openai/agents';",
    'declare function page(args: string): Promise<void>;',
    "const oncall = new Agent({ name: 'oncall' });",
    ...rest,
  ),
});
const handoffAt = (line: number) => ({ ruleId: 'unprotected-handoff', file: 'src/agent.ts', line });

/** Gap F: a handoff's `onInvokeHandoff` (app code on the model's arguments) reached another way. */
const handoffInvokes: PendingCase[] = [
  {
    name: 'a subclass of `Handoff` whose constructor passes the invoke function to `super`',
    gap: 'F',
    likelihood: 'low',
    files: oncall(
      'class Page extends Handoff<any, any> {',
      '  constructor() {',
      '    super(oncall, async (_ctx, args) => {',
      '      await page(args);',
      '      return oncall;',
      '    });',
      '  }',
      '}',
      "export const desk = new Agent({ name: 'desk', handoffs: [new Page()] });",
    ),
    expect: handoffAt(4),
  },
  {
    name: 'a plain `handoff(agent)` given an `onInvokeHandoff` afterwards',
    gap: 'F',
    likelihood: 'low',
    files: oncall(
      'const h = handoff(oncall);',
      'h.onInvokeHandoff = async (_ctx, args) => {',
      '  await page(args);',
      '  return oncall;',
      '};',
      "export const desk = new Agent({ name: 'desk', handoffs: [h] });",
    ),
    expect: handoffAt(5),
  },
  {
    name: "a protected handoff's `onInvokeHandoff` replaced (the policy's decision is in it)",
    gap: 'F',
    likelihood: 'low',
    files: {
      'src/agent.ts': lines(
        "import { Agent } from '@openai/agents';",
        "import { protectHandoff } from './ctrlrun.generated.js';",
        'declare function page(args: string): Promise<void>;',
        "const oncall = new Agent({ name: 'oncall' });",
        "const h = protectHandoff('desk.page_oncall', oncall, { onHandoff: async () => {} });",
        'h.onInvokeHandoff = async (_ctx, args) => {',
        '  await page(args);',
        '  return oncall;',
        '};',
        "export const desk = new Agent({ name: 'desk', handoffs: [h] });",
      ),
    },
    expect: handoffAt(6),
  },
];

/** Gap G: a door in a module git ignores (generated at build time), imported by a module check reads. */
const ignoredModules: PendingCase[] = [
  {
    name: 'a mapped `tool()` in a git-ignored generated module, pushed onto an agent by a checked one',
    gap: 'G',
    likelihood: 'medium',
    files: {
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
    },
    expect: { ruleId: 'unprotected-tool', file: 'src/gen/wire.ts', line: 3 },
  },
];

/** Every pending case, by gap (most likely gap first), most likely first within each gap. */
export const RED27_PENDING: readonly PendingCase[] = [
  ...droppedGuards,
  droppedHostedApproval,
  ...localBodies,
  ...reflectiveInvoke,
  reflectiveAgent,
  ...literalLocalDoors,
  literalHostedMcp,
  ...handoffInvokes,
  ...ignoredModules,
];

/**
 * Cases that need the CLI (a git work tree, `init`, `generate`, `codemod --write`, or check run in
 * one package of a workspace): write `files` to a temp folder (with `node_modules` linking the SDK,
 * zod and ctrlrun-gen, and each workspace package as test/helpers' workspace writers do), `git init`
 * and commit, run `steps` in order in `cwd` (each a ctrlrun-gen command, committing after it), then
 * the last command; today it gives `now`, it should give `expect`.
 */
export interface PendingCliCase {
  name: string;
  gap: 'H';
  likelihood: 'high' | 'medium' | 'low';
  files: Record<string, string>;
  /** The folder the commands run in, relative to the repo's top. */
  cwd: string;
  /** ctrlrun-gen commands run first, in order. */
  steps: string[][];
  /** The command whose answer is wrong. */
  command: string[];
  now: string;
  expect: string;
}

const PKG = JSON.stringify({ name: 'app', private: true, type: 'module', dependencies: { '@openai/agents': '0.20.0', zod: '*' } });
const TSCONFIG = JSON.stringify({
  compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true },
  include: ['src'],
});

export const RED27_PENDING_CLI: readonly PendingCliCase[] = [
  // gap A's case (the codemod and a computed key) is a test now: test/codemod/computed-key-answers.test.ts
  {
    name: 'check in the package that holds the manifest, whose agent uses a raw tool() of a workspace dependency',
    gap: 'H',
    likelihood: 'medium',
    files: {
      'package.json': JSON.stringify({ name: 'ws', private: true, type: 'module', workspaces: ['packages/*'] }),
      'packages/extra/package.json': JSON.stringify({
        name: 'extra',
        version: '1.0.0',
        type: 'module',
        main: 'src/index.ts',
        dependencies: { '@openai/agents': '0.20.0', zod: '*' },
      }),
      'packages/extra/src/index.ts': lines(
        "import { tool } from '@openai/agents';",
        "import { z } from 'zod';",
        "export const wire = tool({ name: 'wire_money', description: 'Wire money', parameters: z.object({ to: z.string(), amount: z.number() }), errorFunction: null, execute: async () => 'sent' });",
      ),
      'packages/agents/package.json': JSON.stringify({
        name: 'agents',
        version: '1.0.0',
        type: 'module',
        dependencies: { '@openai/agents': '0.20.0', zod: '*', extra: 'workspace:*' },
      }),
      'packages/agents/tsconfig.json': TSCONFIG,
      'packages/agents/src/agent.ts': lines(
        "import { Agent, run, tool, setTracingDisabled } from '@openai/agents';",
        "import { z } from 'zod';",
        "import { wire } from 'extra';",
        'setTracingDisabled(true);',
        "export const refund = tool({ name: 'refund', description: 'Refund', parameters: z.object({ payment_id: z.string(), amount: z.number() }), execute: async ({ payment_id }) => payment_id });",
        "export const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: [refund, wire] });",
        "export const go = (input: string) => run(desk, input, { context: { user: 'u1' } });",
      ),
    },
    cwd: 'packages/agents',
    steps: [['init'], ['generate'], ['codemod', '--write']],
    command: ['check'],
    now: "exit 0, 'no findings (2 file(s) considered)'; init said 'Found 1 new tool name' and the codemod '0 unmapped' (check at the top reports wire_money and exits 2: extra has no manifest)",
    expect:
      "exit 1: the raw tool 'wire_money' of `extra` reaches `desk`'s tools (unprotected-tool or unmapped-tool, at ../extra/src/index.ts:3 or at the import, src/agent.ts:3)",
  },
  {
    name: 'check in the folder that holds the manifest, whose agent imports a raw tool() from a sibling folder by a relative path (no workspace)',
    gap: 'H',
    likelihood: 'medium',
    files: {
      'shared/src/index.ts': lines(
        "import { tool } from '@openai/agents';",
        "import { z } from 'zod';",
        "export const wire = tool({ name: 'wire_money', description: 'Wire money', parameters: z.object({ to: z.string(), amount: z.number() }), errorFunction: null, execute: async () => 'sent' });",
      ),
      'agents/package.json': PKG,
      'agents/tsconfig.json': TSCONFIG,
      'agents/src/agent.ts': lines(
        "import { Agent, run, tool, setTracingDisabled } from '@openai/agents';",
        "import { z } from 'zod';",
        "import { wire } from '../../shared/src/index.js';",
        'setTracingDisabled(true);',
        "export const refund = tool({ name: 'refund', description: 'Refund', parameters: z.object({ payment_id: z.string(), amount: z.number() }), execute: async ({ payment_id }) => payment_id });",
        "export const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: [refund, wire] });",
        "export const go = (input: string) => run(desk, input, { context: { user: 'u1' } });",
      ),
    },
    cwd: 'agents',
    steps: [['init'], ['generate'], ['codemod', '--write']],
    command: ['check'],
    now: "exit 0, 'no findings (2 file(s) considered)'",
    expect: "exit 1: the raw tool 'wire_money' of ../shared reaches `desk`'s tools (as the workspace case)",
  },
];
