import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Gaps E and F of the session 27 red team (issue 40 item 4), closed: local doors and hosted MCP
 * tools written as the objects their factories return (the SDK's runner finds them by `type`
 * alone), and a handoff's invoke function given by a subclass of Handoff or by assigning
 * `onInvokeHandoff`. Beside them, the safe code that must stay silent.
 */
interface Case {
  name: string;
  files: Record<string, string>;
  expect: { ruleId: string; file: string; line: number };
}

const AGENT = 'src/agent.ts';
const at = (ruleId: string, line: number) => ({ ruleId, file: AGENT, line });
const found = (c: Case) => lintRepo(c.files, { project: testProject(), ruleId: c.expect.ruleId, file: c.expect.file }).map((f) => f.line);

/** Gap E: local doors written by hand. */
const literalLocalDoors: Case[] = [
  {
    name: "a shell tool written as an object literal (`{ type: 'shell', shell, ... } as ShellTool`)",
    files: {
      [AGENT]: lines(
        "import { Agent, type Shell, type ShellTool } from '@openai/agents';",
        'declare const shell: Shell;',
        "const bash = { type: 'shell', name: 'shell', environment: { type: 'local' }, shell, needsApproval: async () => false } as ShellTool;",
        "export const desk = new Agent({ name: 'desk', tools: [bash] });",
      ),
    },
    expect: at('unprotected-door', 3),
  },
  {
    name: "an apply_patch tool written as an object literal (`{ type: 'apply_patch', editor, ... }`)",
    files: {
      [AGENT]: lines(
        "import { Agent, type Editor } from '@openai/agents';",
        'declare const editor: Editor;',
        "const patch = { type: 'apply_patch' as const, name: 'apply_patch', editor, needsApproval: async () => false };",
        "export const desk = new Agent({ name: 'desk', tools: [patch] });",
      ),
    },
    expect: at('unprotected-door', 3),
  },
  {
    name: "a computer tool written in an agent's `tools`, its `type` held by a const, no `environment` (the runner's default is local)",
    files: {
      [AGENT]: lines(
        "import { Agent, type Computer } from '@openai/agents';",
        "const COMPUTER = 'computer';",
        'declare const computer: Computer;',
        "export const desk = new Agent({ name: 'desk', tools: [{ type: COMPUTER, name: 'computer_use_preview', computer, needsApproval: async () => false } as never] });",
      ),
    },
    expect: at('unprotected-door', 4),
  },
];

/** Gap E, hosted: hosted MCP tools written as the object `hostedMcpTool` returns. */
const hostedLiteral = (...providerData: string[]): Record<string, string> => ({
  [AGENT]: lines(
    "import { Agent } from '@openai/agents'; declare const extra: object;",
    'const github = {',
    "  type: 'hosted_tool' as const,",
    "  name: 'hosted_mcp',",
    ...providerData,
    '};',
    "export const desk = new Agent({ name: 'desk', tools: [github] });",
  ),
});
const literalHostedMcp: Case[] = [
  {
    // reported at `require_approval`, as the factory's call is at its `requireApproval`
    name: "a hosted MCP tool written as an object literal with `require_approval: 'never'`",
    files: hostedLiteral("  providerData: { type: 'mcp', server_label: 'github', server_url: 'https://example.com/mcp', require_approval: 'never' },"),
    expect: at('hosted-mcp-unguarded', 5),
  },
  {
    name: 'a hosted MCP tool written as an object literal with no `require_approval` (the SDK sends it as never)',
    files: hostedLiteral("  providerData: { type: 'mcp', server_label: 'github', server_url: 'https://example.com/mcp' },"),
    expect: at('hosted-mcp-unguarded', 2),
  },
  {
    name: 'a hosted MCP tool written as an object literal with an `on_approval` that answers inline',
    files: hostedLiteral(
      "  providerData: { type: 'mcp', server_label: 'github', server_url: 'https://example.com/mcp', require_approval: 'always',",
      '    on_approval: async () => ({ approve: true }) },',
    ),
    expect: at('hosted-mcp-unguarded', 6),
  },
  {
    name: "a hosted MCP tool written as an object literal with a spread after `require_approval: 'always'` (it may override it)",
    files: hostedLiteral("  providerData: { type: 'mcp', server_label: 'github', require_approval: 'always', ...extra },"),
    expect: at('hosted-mcp-unguarded', 5),
  },
  {
    name: "a hosted MCP tool written as an object literal whose `providerData` check cannot read (named 'hosted_mcp')",
    files: {
      [AGENT]: lines(
        "import { Agent } from '@openai/agents';",
        'declare const data: Record<string, unknown>;',
        "export const desk = new Agent({ name: 'desk', tools: [{ type: 'hosted_tool', name: 'hosted_mcp', providerData: data } as never] });",
      ),
    },
    expect: at('hosted-mcp-unguarded', 3),
  },
];

/** A module with an on-call agent (lines 1-3); `rest` from line 4. */
const oncall = (...rest: string[]): Record<string, string> => ({
  [AGENT]: lines(
    "import { Agent, Handoff, handoff } from '@openai/agents';",
    'declare function page(args: string): Promise<void>;',
    "const oncall = new Agent({ name: 'oncall' });",
    ...rest,
  ),
});
const handoffAt = (line: number) => at('unprotected-handoff', line);

/** Gap F: a handoff's `onInvokeHandoff` (app code on the model's arguments) reached another way. */
const handoffInvokes: Case[] = [
  {
    name: 'a subclass of `Handoff` whose constructor passes the invoke function to `super`',
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
    name: 'a subclass of `Handoff` with no constructor (its `new` passes the invoke function)',
    files: oncall('class Page extends Handoff {}', "export const desk = new Agent({ name: 'desk', handoffs: [new Page(oncall, async () => oncall)] });"),
    expect: handoffAt(4),
  },
  {
    name: 'a plain `handoff(agent)` given an `onInvokeHandoff` afterwards',
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
    name: "`onInvokeHandoff` written by a literal key (`h['onInvokeHandoff'] = f`)",
    files: oncall(
      'const h = handoff(oncall);',
      "h['onInvokeHandoff'] = async () => oncall;",
      "export const desk = new Agent({ name: 'desk', handoffs: [h] });",
    ),
    expect: handoffAt(5),
  },
  {
    name: "a protected handoff's `onInvokeHandoff` replaced (the policy's decision is in it)",
    files: {
      [AGENT]: lines(
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

describe('red team, session 28: doors written as object literals (gap E)', () => {
  for (const c of [...literalLocalDoors, ...literalHostedMcp]) it(`${c.expect.ruleId}: ${c.name}`, () => expect(found(c)).toContain(c.expect.line));
});

describe("red team, session 28: a handoff's invoke function reached another way (gap F)", () => {
  for (const c of handoffInvokes) it(`${c.expect.ruleId}: ${c.name}`, () => expect(found(c)).toContain(c.expect.line));

  it('says how the invoke function is given, and names the agent handed to (from `super`, or where the handoff assigned to is made)', () => {
    const message = (c: Case) =>
      lintRepo(c.files, { project: testProject(), ruleId: 'unprotected-handoff', file: AGENT }).find((x) => x.line === c.expect.line)?.message;
    expect(message(handoffInvokes[0]!)).toContain("to 'oncall' is a class extending Handoff");
    expect(message(handoffInvokes[2]!)).toContain("to 'oncall' is given another `onInvokeHandoff`");
    expect(message(handoffInvokes[4]!)).toContain("to 'oncall' is given another `onInvokeHandoff`");
  });
});

/** Safe code: none of these rules may speak. */
const RULES = ['unprotected-door', 'hosted-mcp-unguarded', 'unprotected-handoff', 'object-literal-tool', 'invoke-replaced'];
const safe: Record<string, Record<string, string>> = {
  "a task runner's `{ type: 'shell', command }` (no `shell` to run) beside the SDK": {
    [AGENT]: lines(
      "import { Agent } from '@openai/agents';",
      "export const tasks = [{ type: 'shell', label: 'test', command: 'npm test' }, { type: 'shell', shell: '/bin/zsh', command: 'make' }];",
      "export const desk = new Agent({ name: 'desk' });",
    ),
  },
  'a local door object without its own body (`{ type: "apply_patch", shell }`: the runner has no editor to call)': {
    [AGENT]: lines(
      "import { Agent, type Shell } from '@openai/agents';",
      'declare const shell: Shell;',
      "export const desk = new Agent({ name: 'desk', tools: [{ type: 'apply_patch', name: 'apply_patch', shell } as never] });",
    ),
  },
  'a shell tool literal whose `environment` is not local (the shell runs at OpenAI)': {
    [AGENT]: lines(
      "import { Agent, type Shell } from '@openai/agents';",
      'declare const shell: Shell;',
      "export const desk = new Agent({ name: 'desk', tools: [{ type: 'shell', name: 'shell', environment: { type: 'container_auto' }, shell } as never] });",
    ),
  },
  "a hosted MCP tool literal with `require_approval: 'always'`": hostedLiteral(
    "  providerData: { type: 'mcp', server_label: 'github', server_url: 'https://example.com/mcp', require_approval: 'always' },",
  ),
  'another hosted tool written as an object literal (web search: not MCP)': {
    [AGENT]: lines(
      "import { Agent } from '@openai/agents';",
      "export const desk = new Agent({ name: 'desk', tools: [{ type: 'hosted_tool', name: 'web_search', providerData: { type: 'web_search' } } as never] });",
    ),
  },
  'Responses API tool definitions (`{ type: "function", name, parameters }`, no `invoke`)': {
    [AGENT]: lines(
      "import { Agent } from '@openai/agents';",
      "export const defs = [{ type: 'function', name: 'refund', parameters: { type: 'object', properties: {} } }];",
      "export const desk = new Agent({ name: 'desk' });",
    ),
  },
  "a class extending another package's `Handoff`, and a handoff's other fields set": {
    [AGENT]: lines(
      "import { Agent, handoff } from '@openai/agents';",
      "import { Handoff } from './workflow.js';",
      "const oncall = new Agent({ name: 'oncall' });",
      'export class Page extends Handoff { constructor() { super(oncall); } }',
      'const h = handoff(oncall);',
      "h.toolDescription = 'Page the on-call engineer';",
      "export const desk = new Agent({ name: 'desk', handoffs: [h] });",
    ),
    'src/workflow.ts': 'export class Handoff { constructor(readonly to: unknown) {} }\n',
  },
  // the file names neither the SDK nor the generated module (its comment lets the prefilter read it)
  "an `onInvokeHandoff` of the app's own event bus": {
    [AGENT]: lines('export const bus = { onInvokeHandoff: (_id: string) => {} };', "bus.onInvokeHandoff = (id) => console.log('invoke', id);"),
  },
};

describe('red team, session 28: safe code beside gaps E and F stays silent', () => {
  for (const [name, files] of Object.entries(safe))
    it(`no finding: ${name}`, () => {
      for (const ruleId of RULES) expect(lintRepo(files, { project: testProject(), ruleId, file: AGENT }), ruleId).toEqual([]);
    });
});
