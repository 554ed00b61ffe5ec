import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/check/types.js';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Gap I of the session 27 red team (issue 40 item 4): an edge function (Supabase, Deno Deploy) that
 * loads the SDK by Deno's `npm:` specifier or from a CDN URL is the same app as one that imports it
 * by name, and check must read it so: the same findings, rule by rule, line by line.
 */

const FILE = 'supabase/functions/agent/index.ts';

/** The SDK's specifier (and a subpath of it) in each form an edge function may write. */
const FORMS: Record<string, (sub: string) => string> = {
  bare: (sub) => `@openai/agents${sub}`,
  'npm: with a version': (sub) => `npm:@openai/agents@0.20.0${sub}`,
  'npm: without a version': (sub) => `npm:@openai/agents${sub}`,
  'npm: with a range': (sub) => `npm:@openai/agents@^0.20${sub}`,
  'an esm.sh URL': (sub) => `https://esm.sh/@openai/agents@0.20.0${sub}`,
  "a jsdelivr URL of the package's ES module build": (sub) => `https://cdn.jsdelivr.net/npm/@openai/agents@0.20.0${sub}/+esm`,
};

/** zod by the matching form (Deno loads it by `npm:` too). */
const zodOf = (form: string): string => (form === 'bare' ? 'zod' : 'npm:zod@3');

/**
 * An edge function with a door of each kind the rules read, the SDK imported by `sdk`: tools
 * (mapped, unmapped, one the policy can pause answered through the SDK), a hosted MCP tool, a shell
 * tool, an MCP server, a handoff, a realtime agent's tool, a sandbox agent's capabilities, and the
 * SDK's tracing left on. Without
 * `answers`, the loop answering the run's interruptions is left out: `result.state.approve(item)` is
 * read as the SDK's answer whatever `run` is (fail closed), so the controls leave it out.
 */
const edgeApp = (sdk: (sub: string) => string, zod: string, answers = true): Record<string, string> => ({
  [FILE]: lines(
    `import { Agent, run, tool, hostedMcpTool, shellTool, handoff, MCPServerStdio, type Shell } from '${sdk('')}';`,
    `import { RealtimeAgent, tool as realtimeTool } from '${sdk('/realtime')}';`,
    `import { SandboxAgent, shell as sandboxShell, filesystem } from '${sdk('/sandbox')}';`,
    `import { z } from '${zod}';`,
    'declare const shell: Shell;',
    "const refund = tool({ name: 'refund', description: 'Refund a payment', parameters: z.object({ payment_id: z.string(), amount: z.number() }), execute: async ({ payment_id }) => payment_id });",
    "const mail = tool({ name: 'send_email', description: 'Mail', parameters: z.object({ to: z.string() }), execute: async ({ to }) => to });",
    "const docs = hostedMcpTool({ serverLabel: 'docs', serverUrl: 'https://docs.example.com/mcp' });",
    'const sh = shellTool({ shell });',
    "const files = new MCPServerStdio({ name: 'files', fullCommand: 'npx files-mcp' });",
    "const billing = new Agent({ name: 'billing', instructions: 'Bill.', tools: [refund] });",
    "const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: [refund, mail, docs, sh], mcpServers: [files], handoffs: [handoff(billing)] });",
    "const close = realtimeTool({ name: 'close_account', description: 'Close', parameters: z.object({ id: z.string() }), execute: async ({ id }) => id });",
    "export const voice = new RealtimeAgent({ name: 'voice', instructions: 'Talk.', tools: [close] });",
    "export const box = new SandboxAgent({ name: 'box', instructions: 'Work.', capabilities: [sandboxShell(), filesystem()] });",
    'Deno.serve(async (req) => {',
    '  const result = await run(desk, await req.text());',
    answers ? '  for (const item of result.interruptions) result.state.approve(item);' : '',
    '  return new Response(String(result.finalOutput));',
    '});',
  ),
});

/** Every finding in the edge function, by what a reader compares: rule, place and words. */
const everything = (files: Record<string, string>): string[] =>
  lintRepo(files, { project: testProject(), file: FILE }).map((f: Finding) => `${f.ruleId} ${f.line}:${f.column} ${f.message}`);

describe('the SDK loaded by Deno’s npm: specifier or a CDN URL is read as the SDK', () => {
  const bare = everything(edgeApp(FORMS['bare']!, 'zod'));

  it('the app by the bare specifier has findings of several rules (the comparison below is not of two silences)', () => {
    const rules = new Set(bare.map((f) => f.split(' ')[0]));
    for (const rule of ['unprotected-tool', 'unmapped-tool', 'hosted-mcp-unguarded', 'unprotected-sandbox-agent', 'tracing-sensitive-data'])
      expect(rules).toContain(rule);
  });

  for (const [form, sdk] of Object.entries(FORMS).filter(([f]) => f !== 'bare'))
    it(`${form}: the same findings as the bare specifier`, () => {
      expect(everything(edgeApp(sdk, zodOf(form)))).toEqual(bare);
    });

  // the red team's cases (once data of the session 27 red team): `tool` at line 4
  for (const sdk of ['npm:@openai/agents@0.20.0', 'npm:@openai/agents', 'https://esm.sh/@openai/agents@0.20.0'])
    it(`the red team's edge function importing \`${sdk}\`: its tool is reported`, () => {
      const files = {
        [FILE]: lines(
          `import { Agent, run, tool } from '${sdk}';`,
          "import { z } from 'npm:zod@3';",
          '',
          'const refund = tool({',
          "  name: 'refund',",
          "  description: 'Refund a payment',",
          '  parameters: z.object({ payment_id: z.string(), amount: z.number() }),',
          '  execute: async ({ payment_id }) => `refunded ${payment_id}`,',
          '});',
          "const agent = new Agent({ name: 'desk', instructions: 'Help.', tools: [refund] });",
          'Deno.serve(async (req) => new Response(String((await run(agent, await req.text())).finalOutput)));',
        ),
      };
      const found = lintRepo(files, { project: testProject(), ruleId: 'unprotected-tool', file: FILE });
      expect(found.map((f) => f.line)).toContain(4);
    });
});

describe('controls: a specifier that only looks like the SDK is not the SDK', () => {
  /** The same edge function with every import from `other` (and no answer): no rule has anything to say. */
  const silent: Record<string, (sub: string) => string> = {
    'a package whose name starts with the SDK’s (`npm:@openai/agentsfoo`)': (sub) => `npm:@openai/agentsfoo@1.0.0${sub}`,
    'the same on a CDN (`https://esm.sh/@openai/agentsfoo`)': (sub) => `https://esm.sh/@openai/agentsfoo${sub}`,
    'another package of the scope (`npm:@openai/openai`)': (sub) => `npm:@openai/openai${sub}`,
    'a JSR package of another scope (`jsr:@someone/agents`)': (sub) => `jsr:@someone/agents@1${sub}`,
    'a URL whose path is not the package’s (`https://example.com/openai/agents`)': (sub) => `https://example.com/openai/agents${sub}`,
  };
  for (const [name, other] of Object.entries(silent))
    it(`${name}: silent`, () => {
      expect(everything(edgeApp(other, 'npm:zod@3', false))).toEqual([]);
    });

  it('`npm:@openai/agents-extensions` gives what the bare `@openai/agents-extensions` gives', () => {
    const extensions = (prefix: string) => (sub: string) => `${prefix}@openai/agents-extensions${sub}`;
    expect(everything(edgeApp(extensions('npm:'), 'npm:zod@3'))).toEqual(everything(edgeApp(extensions(''), 'zod')));
  });
});
