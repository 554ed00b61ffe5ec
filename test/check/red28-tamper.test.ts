import { describe, expect, it } from 'vitest';
import { TOOLS } from './red27-apps.js';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Red team, session 27, gaps B, C and D (issue 40, "no false green"), closed in session 28: a part
 * of a protected door written after the door was made. B: the body of a protected local door
 * (`shell`, `editor`, `computer`); C: `invoke` (or an agent's `getAllTools`) by reflection; D: the
 * guard of a server protectMcpServer guards, and the approval of a hosted MCP tool. Each is read by
 * one reader of property writes (src/scan/file/property-writes.ts), the properties named per door
 * (src/scan/file/door-writes.ts). The safe writes beside them stay silent.
 */
interface Case {
  name: string;
  files: Record<string, string>;
  expect: { ruleId: string; file: string; line: number };
}

const found = (c: Case): number[] => lintRepo(c.files, { project: testProject(), ruleId: c.expect.ruleId, file: c.expect.file }).map((f) => f.line);

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
const TOOLS_AT = "export const desk = new Agent({ name: 'desk', tools: [sh, ap, pc] });";

/** Gap B: the body of a protected local door (its `shell`, `editor`, `computer`) replaced. */
const localBodies: Case[] = [
  {
    name: 'a copy of a protected shell tool with another `shell` (`{ ...sh, shell: dockerShell }`)',
    files: localDoors("export const desk = new Agent({ name: 'desk', tools: [{ ...sh, shell: dockerShell }, ap, pc] });"),
    expect: replaced(7),
  },
  { name: "a protected shell tool's `shell` reassigned", files: localDoors('sh.shell = dockerShell;', TOOLS_AT), expect: replaced(7) },
  {
    name: 'a copy of a protected apply_patch tool with another `editor`',
    files: localDoors("export const desk = new Agent({ name: 'desk', tools: [sh, { ...ap, editor }, pc] });"),
    expect: replaced(7),
  },
  {
    name: '`Object.assign` of another `computer` onto a protected computer tool',
    files: localDoors('Object.assign(pc, { computer });', TOOLS_AT),
    expect: replaced(7),
  },
  // beyond the red team's cases
  { name: "the wrapped shell's `run` replaced (`sh.shell.run = f`)", files: localDoors('sh.shell.run = dockerShell.run;', TOOLS_AT), expect: replaced(7) },
  {
    name: "`Object.defineProperty(ap, 'editor', { value })`",
    files: localDoors("Object.defineProperty(ap, 'editor', { value: editor });", TOOLS_AT),
    expect: replaced(7),
  },
  {
    name: 'a copy spreading the tool after another object (`{ ...extra, ...sh, shell }`)',
    files: localDoors('declare const extra: object;', "export const desk = new Agent({ name: 'desk', tools: [{ ...extra, ...sh, shell: dockerShell }] });"),
    expect: replaced(8),
  },
  {
    name: 'a door of the generated namespace, held through a second variable',
    files: {
      'src/agent.ts': lines(
        "import { Agent, type Shell } from '@openai/agents';",
        "import * as g from './ctrlrun.generated.js';",
        'declare const shell: Shell; declare const dockerShell: Shell;',
        "const made = g.protectShellTool('host.shell', { shell });",
        'const sh = made;',
        'Reflect.set(sh, "shell", dockerShell);',
        "export const desk = new Agent({ name: 'desk', tools: [sh] });",
      ),
    },
    expect: replaced(6),
  },
];

/** The protected tool of TOOLS (lines 1-8) and `rest` from line 9, in one module. */
const toolModule = (...rest: string[]): Record<string, string> => ({ 'src/tools.ts': TOOLS + lines(...rest) });
const invokeAt = (line: number) => ({ ruleId: 'invoke-replaced', file: 'src/tools.ts', line });

/** Gap C: a protected tool's `invoke` (or an agent's tool source) replaced by reflection. */
const reflective: Case[] = [
  {
    name: "`Object.defineProperty(refund, 'invoke', { value })`",
    files: toolModule("Object.defineProperty(refund, 'invoke', { value: async () => 'done' });"),
    expect: invokeAt(9),
  },
  {
    name: '`Object.defineProperties(refund, { invoke: { value } })`',
    files: toolModule("Object.defineProperties(refund, { invoke: { value: async () => 'done' } });"),
    expect: invokeAt(9),
  },
  { name: "`Reflect.set(refund, 'invoke', fn)`", files: toolModule("Reflect.set(refund, 'invoke', async () => 'done');"), expect: invokeAt(9) },
  {
    name: "`Reflect.defineProperty(refund, 'invoke', { value })`",
    files: toolModule("Reflect.defineProperty(refund, 'invoke', { value: async () => 'done' });"),
    expect: invokeAt(9),
  },
  {
    name: "`Object.defineProperty(agent, 'getAllTools', { value })`: tools in none of the agent's lists",
    files: {
      'src/agent.ts': lines(
        "import { Agent, type Tool } from '@openai/agents';",
        'declare const extra: Tool;',
        "export const desk = new Agent({ name: 'desk' });",
        "Object.defineProperty(desk, 'getAllTools', { value: async () => [extra] });",
      ),
    },
    expect: { ruleId: 'invoke-replaced', file: 'src/agent.ts', line: 4 },
  },
];

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
/** A server guarded in place (lines 1-4: made, then `protectMcpServer(github)` at line 4 when `guard` is there). */
const guardedInPlace = (before: string[], after: string[]): Record<string, string> => ({
  'src/agent.ts': lines(
    "import { Agent, MCPServerStdio, defineToolInputGuardrail } from '@openai/agents';",
    "import { protectMcpServer } from './ctrlrun.generated.js';",
    "const audit = defineToolInputGuardrail({ name: 'audit', run: async () => ({ behavior: { type: 'allow' } }) } as never);",
    "const github = new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' });",
    ...before,
    'protectMcpServer(github);',
    ...after,
    "export const desk = new Agent({ name: 'desk', mcpServers: [github] });",
  ),
});

/** Gap D: the guard protectMcpServer put on a server dropped afterwards. */
const droppedGuards: Case[] = [
  {
    name: '`toolInputGuardrails` assigned after protectMcpServer (the policy guard is gone)',
    files: guardedServer('github.toolInputGuardrails = [audit];'),
    expect: unguarded(5),
  },
  {
    name: '`Object.assign(server, { toolInputGuardrails })` after protectMcpServer',
    files: guardedServer('Object.assign(github, { toolInputGuardrails: [audit] });'),
    expect: unguarded(5),
  },
  {
    name: '`toolInputGuardrails` emptied with `splice` after protectMcpServer',
    files: guardedServer('github.toolInputGuardrails?.splice(0);'),
    expect: unguarded(5),
  },
  {
    name: 'an `errorFunction` assigned after protectMcpServer (the guarded one that settles calls is gone)',
    files: guardedServer("github.errorFunction = () => 'The tool failed, please try again.';"),
    expect: unguarded(5),
  },
  // beyond the red team's cases
  { name: '`toolInputGuardrails` emptied by its `length`', files: guardedServer('github.toolInputGuardrails!.length = 0;'), expect: unguarded(5) },
  { name: "the policy's guard overwritten by index", files: guardedServer('github.toolInputGuardrails![0] = audit;'), expect: unguarded(5) },
  { name: 'the first guard taken off with `shift`', files: guardedServer('github.toolInputGuardrails?.shift();'), expect: unguarded(5) },
  {
    name: '`toolOutputGuardrails` replaced (the receipts of calls let through are never settled)',
    files: guardedServer('github.toolOutputGuardrails = [];'),
    expect: unguarded(5),
  },
  {
    name: '`Object.assign` of both guardrails and an error function: one finding for the call',
    files: guardedServer('Object.assign(github, { toolInputGuardrails: [audit], errorFunction: null });'),
    expect: unguarded(5),
  },
  { name: "`Reflect.set(server, 'errorFunction', f)`", files: guardedServer("Reflect.set(github, 'errorFunction', () => 'retry');"), expect: unguarded(5) },
  {
    name: 'a server guarded in place, its guardrails assigned after the guard',
    files: guardedInPlace([], ['github.toolInputGuardrails = [audit];']),
    expect: unguarded(6),
  },
];

const hosted = (make: string, ...rest: string[]): Record<string, string> => ({
  'src/agent.ts': lines(
    "import { Agent, hostedMcpTool } from '@openai/agents';",
    "import { protectHostedMcp } from './ctrlrun.generated.js';",
    `const github = ${make};`,
    ...rest,
    "export const desk = new Agent({ name: 'desk', tools: [github] });",
  ),
});
const ALWAYS = "hostedMcpTool({ serverLabel: 'github', serverUrl: 'https://example.com/mcp', requireApproval: 'always' })";
const PROTECTED = "protectHostedMcp({ serverLabel: 'github', serverUrl: 'https://example.com/mcp' })";
const hostedAt = (line: number) => ({ ruleId: 'hosted-mcp-unguarded', file: 'src/agent.ts', line });

/** Gap D, hosted: the approval a hosted MCP tool was made with, turned off in the tool it returned. */
const droppedApprovals: Case[] = [
  {
    name: "a hosted MCP tool made with `requireApproval: 'always'`, its `providerData.require_approval` set to 'never' afterwards",
    files: hosted(ALWAYS, "github.providerData.require_approval = 'never';"),
    expect: hostedAt(4),
  },
  {
    name: "`Object.assign(t.providerData, { require_approval: 'never' })`",
    files: hosted(ALWAYS, "Object.assign(github.providerData!, { require_approval: 'never' });"),
    expect: hostedAt(4),
  },
  {
    name: 'an inline `on_approval` put in `providerData`',
    files: hosted(ALWAYS, 'github.providerData.on_approval = async () => ({ approve: true });'),
    expect: hostedAt(4),
  },
  {
    name: '`providerData` replaced',
    files: hosted(ALWAYS, "github.providerData = { type: 'mcp', server_label: 'github', require_approval: 'never' } as never;"),
    expect: hostedAt(4),
  },
  {
    name: "protectHostedMcp's tool, its `require_approval` set to 'never'",
    files: hosted(PROTECTED, "github.providerData.require_approval = 'never';"),
    expect: hostedAt(4),
  },
];

describe('gap B: the body of a protected local door replaced is invoke-replaced', () => {
  for (const c of localBodies) it(c.name, () => expect(found(c)).toContain(c.expect.line));
});

describe('gap C: invoke or an agent’s tool source replaced by reflection is invoke-replaced', () => {
  for (const c of reflective) it(c.name, () => expect(found(c)).toContain(c.expect.line));
});

it('a reflective write is named in the message', () => {
  const files = toolModule("Object.defineProperty(refund, 'invoke', { value: async () => 'done' });");
  const messages = lintRepo(files, { project: testProject(), ruleId: 'invoke-replaced', file: 'src/tools.ts' }).map((f) => f.message);
  expect(messages.join('\n')).toContain('Object.defineProperty() gives `refund` another `invoke`');
});

describe('gap D: the guard of a protected MCP server dropped is mcp-server-unguarded, at the write', () => {
  for (const c of droppedGuards) it(c.name, () => expect(found(c)).toEqual([c.expect.line]));
});

describe('gap D, hosted: the approval of a hosted MCP tool turned off is hosted-mcp-unguarded, at the write', () => {
  for (const c of droppedApprovals) it(c.name, () => expect(found(c)).toContain(c.expect.line));
});

const silent = (files: Record<string, string>, ruleId: string, file = 'src/agent.ts'): string[] =>
  lintRepo(files, { project: testProject(), ruleId, file }).map((f) => `${f.line}: ${f.message}`);

describe('safe writes stay silent', () => {
  const server: Record<string, Record<string, string>> = {
    'an unrelated property of a guarded server (`cacheToolsList`)': guardedServer('(github as any).cacheToolsList = true;'),
    'a guardrail pushed after the policy’s (`push`: the policy’s guard stays first and the SDK runs each)': guardedServer(
      'github.toolInputGuardrails?.push(audit);',
    ),
    'a guardrail put before the policy’s (`unshift`: the SDK still runs the policy’s, an earlier reject only stops the call)': guardedServer(
      'github.toolInputGuardrails?.unshift(audit);',
    ),
    'guardrails reordered (`sort`)': guardedServer('github.toolInputGuardrails?.sort();'),
    'an output guardrail pushed': guardedServer('github.toolOutputGuardrails?.push(audit as never);'),
    'the guardrails read, not written (`map`)': guardedServer('export const names = github.toolInputGuardrails?.map((g) => g.name);'),
    'guardrails and an errorFunction given before the server is guarded in place (protectMcpServer keeps them, its guard first)': guardedInPlace(
      ['github.toolInputGuardrails = [audit];', 'github.errorFunction = null;'],
      [],
    ),
    'a copy with the guardrails before the server’s spread (the server’s own win)': guardedServer(
      'export const copy = { toolInputGuardrails: [], ...github };',
    ),
  };
  for (const [name, files] of Object.entries(server)) it(`mcp-server-unguarded: ${name}`, () => expect(silent(files, 'mcp-server-unguarded')).toEqual([]));

  const local: Record<string, Record<string, string>> = {
    'a description changed on a protected shell tool': localDoors("(sh as any).description = 'Run a command';", TOOLS_AT),
    'a copy with another `description`': localDoors("export const desk = new Agent({ name: 'desk', tools: [{ ...sh, description: 'x' } as never, ap, pc] });"),
    'a copy with the `shell` before the tool’s spread (the tool’s wrapped shell wins)': localDoors(
      "export const desk = new Agent({ name: 'desk', tools: [{ shell: dockerShell, ...sh }, ap, pc] });",
    ),
    'another `needsApproval` (the wrapped body refuses what was not authorized: fails closed)': localDoors(
      "export const desk = new Agent({ name: 'desk', tools: [{ ...sh, needsApproval: async () => false }, ap, pc] });",
    ),
    'a `shell` written on an object that is no door': localDoors(
      'const opts = { shell };',
      'opts.shell = dockerShell;',
      'Object.assign(opts, { editor });',
      TOOLS_AT,
    ),
    'a door’s property a door of another kind depends on (`sh.editor`)': localDoors('(sh as any).editor = editor;', TOOLS_AT),
    "`invoke`'s own properties (`refund.invoke.displayName`), an agent copied with a `getAllTools`": localDoors(
      '(sh as any).invoke.displayName = "run";',
      "export const desk = new Agent({ name: 'desk', tools: [sh, ap, pc] });",
      'export const view = { ...desk, getAllTools: async () => [] };',
    ),
  };
  for (const [name, files] of Object.entries(local)) it(`invoke-replaced: ${name}`, () => expect(silent(files, 'invoke-replaced')).toEqual([]));

  const hostedSafe: Record<string, Record<string, string>> = {
    "`require_approval` set to 'always' again": hosted(ALWAYS, "github.providerData.require_approval = 'always';"),
    "`Object.defineProperty(t.providerData, 'require_approval', { value: 'always' })`": hosted(
      ALWAYS,
      "Object.defineProperty(github.providerData, 'require_approval', { value: 'always' });",
    ),
    'another field of `providerData` (`allowed_tools`)': hosted(ALWAYS, "github.providerData.allowed_tools = ['search'];"),
  };
  for (const [name, files] of Object.entries(hostedSafe)) it(`hosted-mcp-unguarded: ${name}`, () => expect(silent(files, 'hosted-mcp-unguarded')).toEqual([]));
});
