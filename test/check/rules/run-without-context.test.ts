import { lines, ruleTester, testProject } from '../rule-tester.js';

// Issue 21, item 4: runs that pass no context the identity reads: every protected call refused.
const SDK = "import { Agent, Runner, run } from '@openai/agents';";
const RT = "import { createControl, memoryStore } from 'ctrlrun-gen/runtime';";
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
/** The control init writes. */
const CONTROL = lines(
  RT,
  'export const control = createControl({',
  '  store: memoryStore(),',
  '  identity: (runContext) => {',
  '    const context = runContext.context as { user?: string } | undefined;',
  '    return context?.user ?? null;',
  '  },',
  '});',
);
const SDK_TOOL = "import { Agent, run, tool } from '@openai/agents';";
const AGENT = "const agent = new Agent({ name: 'desk', tools: [protectedTool('stripe.refund', { name: 'refund' })] });";
/** A module of agents with no tools (issue 40: a TypeScript course repo, 16 of its 18 named runs). */
const TUTORS = lines(
  "import { Agent } from '@openai/agents';",
  "export const tutor = new Agent({ name: 'tutor', instructions: 'Explain.' });",
  "const historian = new Agent({ name: 'historian', instructions: 'Dates.' });",
  'export default historian;',
  "export const triage = Agent.create({ name: 'triage', handoffs: [tutor, historian] });",
);
/** A module of agents, one of which holds a protected tool. */
const DESKS = lines(
  "import { Agent } from '@openai/agents';",
  GEN,
  "export const desk = new Agent({ name: 'desk', tools: [protectedTool('stripe.refund', { name: 'refund' })] });",
  "export const front = new Agent({ name: 'front', handoffs: [desk] });",
);

/** The test project with the tool() calls whose names are computed in `flowTools` of src/agent.ts mapped by their place (issue 40, item 5). */
function withFlows() {
  const p = testProject();
  const loc = { file: '/repo/ctrlrun.tools.yaml', line: 20, column: 5 };
  return {
    ...p,
    manifest: {
      ...p.manifest,
      tools: [...p.manifest.tools, { kind: 'computed' as const, at: { file: 'src/agent.ts', in: 'flowTools' }, names: '*', action: 'stripe.refund', loc }],
    },
  };
}
const FLOWS = lines(
  SDK_TOOL,
  "const flowTools = ['a', 'b'].map((f) => tool({ name: `flow_${f}`, description: f, parameters: {} as never, execute: async () => f }));",
  "const flows = new Agent({ name: 'flows', tools: flowTools });",
  "await run(flows, 'go');",
);

/** The test project with the tool `add` of the MCP server `calc` mapped (`- mcp: { server: calc, tool: add }`). */
function withCalc() {
  const p = testProject();
  const loc = { file: '/repo/ctrlrun.tools.yaml', line: 20, column: 5 };
  return {
    ...p,
    manifest: { ...p.manifest, tools: [...p.manifest.tools, { kind: 'mcp' as const, server: 'calc', tool: 'add', action: 'stripe.refund', loc }] },
  };
}
const SDK_MCP = "import { Agent, MCPServerStdio, MCPServers, connectMcpServers, getAllMcpTools, mcpToFunctionTool, run } from '@openai/agents';";
/** An agent holding the tools of MCP servers through the SDK's conversions (the SDK's mcp examples). */
const MCP_CONVERSIONS = lines(
  SDK_MCP,
  GEN,
  AGENT,
  "const fs = new MCPServerStdio({ name: 'Filesystem Server', fullCommand: 'x' });",
  'const servers = [fs];',
  'const listed = await getAllMcpTools(servers);',
  "const filtered = await getAllMcpTools({ mcpServers: [new MCPServerStdio({ name: 'Filesystem Server', fullCommand: 'y' })], agent });",
  "const one = mcpToFunctionTool({ name: 'read' } as never, fs, false);",
  "const pool = await connectMcpServers([new MCPServerStdio({ name: 'DeepWiki', fullCommand: 'z' })], { connectInParallel: true });",
  "await run(new Agent({ name: 'a', tools: listed }), 'hi');",
  "await run(new Agent({ name: 'b', tools: [...filtered, one] }), 'hi');",
  "await run(new Agent({ name: 'c', mcpServers: pool.active }), 'hi');",
  "await run(new Agent({ name: 'd', mcpServers: (await MCPServers.open([fs])).active }), 'hi');",
);

ruleTester('run-without-context', {
  valid: [
    // issue 40 item 3 audit (the SDK's mcp examples): the tools of MCP servers no entry maps, through getAllMcpTools, mcpToFunctionTool, connectMcpServers
    { name: 'an agent holding the tools of unmapped MCP servers through the SDK conversions', code: CONTROL + MCP_CONVERSIONS },
    { name: 'the context carries the user', code: CONTROL + lines(SDK, GEN, AGENT, "await run(agent, 'hi', { context: { user: session.user } });") },
    {
      name: 'a shorthand context held in a variable',
      code: CONTROL + lines(SDK, GEN, AGENT, 'const context = { user: me, locale };', "await run(agent, 'hi', { context, stream: true });"),
    },
    {
      name: 'an identity that needs no context (a service principal)',
      code: lines(
        RT,
        'createControl({ store: memoryStore(), identity: () => process.env.CTRLRUN_PRINCIPAL ?? null });',
        SDK,
        GEN,
        AGENT,
        "await run(agent, 'hi');",
      ),
    },
    {
      name: 'a resumed run keeps its context',
      code: CONTROL + lines(SDK, GEN, AGENT, "const result = await run(agent, 'hi', { context: { user } });", 'await run(agent, result.state);'),
    },
    {
      name: 'options check cannot read',
      code:
        CONTROL +
        lines(SDK, GEN, AGENT, 'export async function go(options: object) { await run(agent, "hi", options); }', "await run(agent, 'hi', { ...defaults });"),
    },
    { name: 'no protected tools in the repo', project: null, code: CONTROL + lines(SDK, "await run(new Agent({ name: 'a' }), 'hi');") },
    {
      name: 'an identity check cannot follow, and a context with keys',
      code: lines(
        RT,
        'createControl({ store: memoryStore(), identity: (rc) => principalOf(rc) });',
        SDK,
        GEN,
        AGENT,
        "await run(agent, 'hi', { context: { tenant } });",
      ),
    },
    { name: 'no control in the scanned files', code: lines(SDK, GEN, AGENT, "await run(agent, 'hi');") },
    // loop finding 7: runs of agents that reach no protected tool, and resumes from a caught error's state
    {
      name: 'an agent with no tools (the haiku example)',
      code: CONTROL + lines(SDK, GEN, AGENT, "const haiku = new Agent({ name: 'haiku', instructions: 'Write a haiku' });", "await run(haiku, 'spring');"),
    },
    {
      name: 'an agent whose only tool is an agent tool the manifest does not map',
      code:
        CONTROL +
        lines(
          SDK,
          GEN,
          AGENT,
          "const clerk = new Agent({ name: 'clerk' });",
          "const front = new Agent({ name: 'front', tools: [clerk.asTool({ toolName: 'chat' })] });",
          "await run(front, 'hi');",
        ),
    },
    {
      name: 'an agent whose only tool() the manifest does not map, and an agent handing off to it',
      code:
        CONTROL +
        lines(
          SDK_TOOL,
          GEN,
          AGENT,
          "const joke = tool({ name: 'tell_joke', description: '', parameters: {} as never, execute: async () => 'ha' });",
          "const jester = new Agent({ name: 'jester', tools: [joke] });",
          "const front = new Agent({ name: 'front', handoffs: [jester] });",
          "await run(jester, 'a joke');",
          "await run(front, 'hi');",
        ),
    },
    {
      name: "a resume from a caught error's state (`e.state`, `error.state`)",
      code:
        CONTROL +
        lines(
          SDK,
          GEN,
          AGENT,
          'try {',
          "  await run(agent, 'hi', { context: { user } });",
          '} catch (e) {',
          '  await run(agent, e.state);',
          '}',
          'try { await go(); } catch (error) {',
          '  const state = error.state;',
          '  await run(agent, state);',
          '}',
        ),
    },
    {
      name: 'an agent whose tools are made in a loop (names computed) that no entry maps',
      code: CONTROL + lines(GEN, AGENT) + FLOWS,
    },
    { name: 'a run() of another library', code: CONTROL + lines("import { run } from 'node:test';", GEN, "run('a test', () => {});") },
    // issue 40, item 3: what the repo shows of an agent, followed across its files
    {
      name: 'agents with no tools imported from another module, a barrel that names no SDK, a default export and a namespace',
      files: {
        'src/tutors.ts': TUTORS,
        'src/lessons/index.ts': "export { tutor, triage } from '../tutors';\nexport * from '../tutors';\n",
      },
      code:
        CONTROL +
        lines(
          SDK,
          GEN,
          AGENT,
          "import { tutor, triage } from './lessons';",
          "import historian from './tutors';",
          "import * as all from './tutors';",
          "await run(tutor, 'explain');",
          "await run(triage, 'who');",
          "await run(historian, 'when');",
          "await run(all.tutor, 'again');",
        ),
    },
    {
      name: 'agents with no tools required from a CommonJS module',
      files: { 'src/tutors.cjs': "const { Agent } = require('@openai/agents');\nmodule.exports = { tutor: new Agent({ name: 'tutor' }) };\n" },
      code: CONTROL + lines(SDK, GEN, AGENT, "const { tutor } = require('./tutors.cjs');", "await run(tutor, 'explain');"),
    },
    {
      name: 'an agent holding only hosted tools (they run at OpenAI: no door of this process)',
      code:
        CONTROL +
        lines(
          "import { Agent, run, webSearchTool, fileSearchTool, codeInterpreterTool, imageGenerationTool } from '@openai/agents';",
          GEN,
          AGENT,
          "const researcher = new Agent({ name: 'r', tools: [webSearchTool(), fileSearchTool('vs_1'), codeInterpreterTool(), imageGenerationTool()] });",
          "await run(researcher, 'search');",
        ),
    },
    {
      name: 'a run in a helper whose callers pass agents with no tools (`runWithRetry(agent, prompt)`)',
      code:
        CONTROL +
        lines(
          SDK,
          GEN,
          AGENT,
          "const writer = new Agent({ name: 'writer' });",
          'const runWithRetry = async (a: Agent, prompt: string) => {',
          '  for (let i = 0; i < 3; i++) { try { return await run(a, prompt); } catch { /* again */ } }',
          '};',
          "await runWithRetry(writer, 'write');",
          "await runWithRetry(new Agent({ name: 'editor' }), 'edit');",
        ),
    },
    {
      name: 'an exported helper whose callers in other modules pass agents with no tools',
      file: 'src/ask.ts',
      files: {
        'src/tutors.ts': TUTORS,
        'src/lesson1.ts': lines("import ask from './ask';", "import { tutor } from './tutors';", "await ask(tutor, 'explain');"),
        'src/lesson2.ts': lines("import { default as ask } from './ask.js';", "import historian from './tutors';", "export const r = ask(historian, 'when');"),
      },
      code: CONTROL + lines(SDK, GEN, AGENT, 'export default async function ask(a: Agent, prompt: string) {', '  return run(a, prompt);', '}'),
    },
    {
      name: 'an agent whose tools are set after it is made to tools the manifest does not map (`agent.tools = …`, a property)',
      code:
        CONTROL +
        lines(
          SDK_TOOL,
          GEN,
          AGENT,
          "const haiku = new Agent({ name: 'haiku' });",
          "haiku.tools = [tool({ name: 'count_syllables', description: '', parameters: {} as never, execute: async () => '5' })];",
          'haiku.inputGuardrails = [{ name: "g", execute: async () => ({ tripwireTriggered: false, outputInfo: null }) }];',
          "await run(haiku, 'spring');",
        ),
    },
    {
      name: 'an input typed RunState (or undefined) resumes, even through a Runner a method returns',
      code:
        CONTROL +
        lines(
          SDK,
          "import { RunState } from '@openai/agents';",
          GEN,
          AGENT,
          'class Desk {',
          '  private runnerOf(id: string): Runner { return new Runner({ groupId: id }); }',
          '  async resume(id: string, saved: string) {',
          '    const state: RunState<any, any> | undefined = await RunState.fromString(agent, saved);',
          '    return this.runnerOf(id).run(agent, state);',
          '  }',
          '}',
        ),
    },
    // issue 40 item 3 audit (welt-hinted): a resume through a function declared to give the state back
    {
      name: 'a resume through a function of the file that returns the state it is given (a generic, a const arrow, a `RunState` return)',
      code:
        CONTROL +
        lines(
          SDK,
          "import type { RunState } from '@openai/agents';",
          GEN,
          AGENT,
          'function decode<S extends { approve(item: unknown): void }>(answers: Record<string, boolean>, state: S): S { return state; }',
          'const restore = <S,>(state: S): S => state;',
          'function withAnswers(state: RunState<any, typeof agent>, answers: string[]): RunState<any, typeof agent> { return state; }',
          "const first = await run(agent, 'hi', { context: { user } });",
          'await run(agent, decode(answers, first.state), { stream: true });',
          'await run(agent, restore(first.state));',
          'const next = withAnswers(first.state, []);',
          'await run(agent, next);',
        ),
    },
    {
      name: 'a resume through a function imported from a sibling module (also re-exported by a barrel, or exported as an import)',
      files: {
        'src/resume.ts': lines(
          'export function decode<StateT extends { approve(item: unknown): void }>(answers: Readonly<Record<string, boolean>>, state: StateT): StateT {',
          '  return state;',
          '}',
        ),
        'src/kit/index.ts': "export { decode as decodeAnswers } from '../resume.js';\nexport * from '../resume.js';\n",
        // an import exported under another name
        'src/kit/again.ts': "import { decode } from '../resume.js';\nexport { decode as restore };\n",
      },
      code:
        CONTROL +
        lines(
          SDK,
          GEN,
          AGENT,
          "import { decode } from './resume.js';",
          "import { decodeAnswers, decode as again } from './kit';",
          "import { restore } from './kit/again';",
          "const first = await run(agent, 'hi', { context: { user } });",
          'await run(agent, decode(answers, first.state));',
          'await run(agent, decodeAnswers(answers, first.state));',
          'await run(agent, again(answers, first.state));',
          'await run(agent, restore(answers, first.state));',
        ),
    },
  ],
  invalid: [
    // issue 40: a name is read where it is used, not at its first declaration anywhere in the file
    {
      name: "runner.run() of this function's Runner, though another function's `runner` is no Runner; an untyped parameter still one",
      code:
        CONTROL +
        lines(
          SDK,
          GEN,
          AGENT,
          'function pool() {',
          '  const runner = { run: (_a: unknown, _b: string) => null };',
          "  return runner.run(agent, 'x');",
          '}',
          'export async function turn(text: string) {',
          '  const runner = new Runner();',
          '  return runner.run(agent, text);',
          '}',
          'export async function later(runner2: any, text: string) {',
          '  return runner2.run(agent, text);',
          '}',
          'const runner2 = new Runner();',
        ),
      errors: [
        { line: 18, column: 10, mentions: 'runner.run()' },
        { line: 21, column: 10, mentions: 'runner.run()' },
      ],
    },
    {
      name: 'runner.run() of a `let` or `var` given a Runner after its declaration',
      code:
        CONTROL +
        lines(
          SDK,
          GEN,
          AGENT,
          'export async function lazy(text: string) {',
          '  let runner = undefined;',
          '  runner = new Runner();',
          '  return runner.run(agent, text);',
          '}',
          'export async function bare(text: string) {',
          '  var pool;',
          '  if (text) pool = new Runner();',
          '  return pool.run(agent, text);',
          '}',
        ),
      errors: [
        { line: 15, column: 10, mentions: 'runner.run()' },
        { line: 20, column: 10, mentions: 'runner.run()' },
      ],
    },
    {
      name: 'the same agents when the MCP servers are mapped, or handed in from elsewhere',
      project: withCalc(),
      code:
        CONTROL +
        lines(
          SDK_MCP,
          GEN,
          "const calc = new MCPServerStdio({ name: 'calc', fullCommand: 'x' });",
          'export async function go(outside: MCPServerStdio[]) {',
          '  await run(new Agent({ name: "a", tools: await getAllMcpTools([calc]) }), "hi");',
          '  await run(new Agent({ name: "b", tools: await getAllMcpTools({ mcpServers: [calc] }) }), "hi");',
          '  await run(new Agent({ name: "c", tools: [mcpToFunctionTool({ name: "add" } as never, calc, false)] }), "hi");',
          '  await run(new Agent({ name: "d", mcpServers: (await connectMcpServers([calc])).all }), "hi");',
          '  await run(new Agent({ name: "e", tools: await getAllMcpTools(outside) }), "hi");',
          '  await run(new Agent({ name: "f", mcpServers: (await MCPServers.open([calc])).active }), "hi");',
          '}',
        ),
      errors: [
        { line: 13, column: 9, mentions: 'passes no context' },
        { line: 14, column: 9, mentions: 'passes no context' },
        { line: 15, column: 9, mentions: 'passes no context' },
        { line: 16, column: 9, mentions: 'passes no context' },
        { line: 17, column: 9, mentions: 'passes no context' },
        { line: 18, column: 9, mentions: 'passes no context' },
      ],
    },
    {
      name: 'a state handed to a function not declared to give it back (a `string` return, no types, another parameter, unknown) starts a run',
      code:
        CONTROL +
        lines(
          SDK,
          "import type { RunState } from '@openai/agents';",
          GEN,
          AGENT,
          "import { decode } from '@acme/kit';",
          'function label(state: RunState<any, any>): string { return String(state); }',
          'function pass(state) { return state; }',
          'function pick<T>(prompt: T, state: RunState<any, any>): T { return prompt; }',
          'let swap = <S,>(state: S): S => state;',
          "const first = await run(agent, 'hi', { context: { user } });",
          'await run(agent, label(first.state));',
          'await run(agent, pass(first.state));',
          "await run(agent, pick('again', first.state));",
          'await run(agent, decode(answers, first.state));',
          'await run(agent, wrap(first.state));',
          'await run(agent, swap(first.state));',
        ),
      errors: [
        { line: 19, column: 7, mentions: 'passes no context' },
        { line: 20, column: 7, mentions: 'passes no context' },
        { line: 21, column: 7, mentions: 'passes no context' },
        { line: 22, column: 7, mentions: 'passes no context' },
        { line: 23, column: 7, mentions: 'passes no context' },
        { line: 24, column: 7, mentions: 'passes no context' },
      ],
    },
    {
      name: 'a state handed to an imported function the repo does not have, does not export, or declares to return a string',
      files: { 'src/resume.ts': 'export function decode(answers: unknown, state: unknown): string { return String(state); }\n' },
      code:
        CONTROL +
        lines(
          SDK,
          GEN,
          AGENT,
          "import { decode } from './resume';",
          "import { restore } from './gone';",
          "import { restore as missing } from './resume';",
          "const first = await run(agent, 'hi', { context: { user } });",
          'await run(agent, decode(answers, first.state));',
          'await run(agent, restore(first.state));',
          'await run(agent, missing(first.state));',
        ),
      errors: [
        { line: 16, column: 7, mentions: 'passes no context' },
        { line: 17, column: 7, mentions: 'passes no context' },
        { line: 18, column: 7, mentions: 'passes no context' },
      ],
    },
    // loop session 14 (the SDK's agent-patterns): an orchestrator whose only tools are agent tools the manifest maps
    {
      name: 'an agent whose agent tool the manifest maps, though the agent behind it has no tools',
      code:
        CONTROL +
        lines(
          SDK,
          GEN,
          AGENT,
          "const clerk = new Agent({ name: 'clerk' });",
          "const orchestrator = new Agent({ name: 'o', tools: [clerk.asTool({ toolName: 'refund', toolDescription: 'refunds' })] });",
          "await run(orchestrator, 'hi');",
        ),
      errors: [{ line: 14, column: 7, mentions: 'orchestrator' }],
    },
    // loop session 14 (a Twilio/Express server): one Runner per conversation from a method, an input that starts or resumes
    {
      name: 'runner.run() of a Runner a method returns (`this.getRunner(id)`), or a variable typed Runner',
      code:
        CONTROL +
        lines(
          SDK,
          GEN,
          AGENT,
          'class ConversationService {',
          '  private getRunner(id: string): Runner { return new Runner({ groupId: id }); }',
          '  private async pooled(): Promise<Runner> { return new Runner(); }',
          '  async turn(id: string, text: string, shared: Runner) {',
          '    const runner = this.getRunner(id);',
          '    await runner.run(agent, text, { stream: false });',
          '    await shared.run(agent, text);',
          '    await (await this.pooled()).run(agent, text);',
          '  }',
          '}',
        ),
      errors: [
        { line: 17, column: 11, mentions: 'runner.run()' },
        { line: 18, column: 11, mentions: 'runner.run()' },
        { line: 19, column: 11, mentions: 'runner.run()' },
      ],
    },
    {
      name: 'an input typed `AgentInputItem[] | RunState` starts runs as well as resuming them',
      code:
        CONTROL +
        lines(
          SDK,
          "import { RunState, type AgentInputItem } from '@openai/agents';",
          GEN,
          AGENT,
          'export async function turn(saved: string | undefined, text: string) {',
          '  let input: AgentInputItem[] | RunState<any, any>;',
          "  if (saved) input = await RunState.fromString(agent, saved); else input = [{ role: 'user', content: text }];",
          '  return new Runner().run(agent, input, { stream: true });',
          '}',
        ),
      errors: [{ line: 16, column: 10, mentions: 'runner.run()' }],
    },
    {
      name: 'a name a state was given back to elsewhere, a `let` assigned again, or a part of a state given back, starts a run',
      code:
        CONTROL +
        lines(
          SDK,
          "import { RunState } from '@openai/agents';",
          GEN,
          AGENT,
          'function decode<S>(answers: unknown, state: S): S { return state; }',
          "const first = await run(agent, 'hi', { context: { user } });",
          'export function resumed() { const next = decode({}, first.state); return next; }',
          'export async function again(next: string) { await run(agent, next); }',
          'let later: string | RunState<any, any> = decode({}, first.state);',
          "later = 'go';",
          'await run(agent, later);',
          // a name of a destructuring pattern is a part of what the call gives back, not that state
          'export async function part() { const { text } = decode({}, first.state); await run(agent, text); }',
        ),
      errors: [
        { line: 16, column: 51, mentions: 'passes no context' },
        { line: 19, column: 7, mentions: 'passes no context' },
        { line: 20, column: 80, mentions: 'passes no context' },
      ],
    },
    {
      name: "a name that holds a caught error's state, or a context, in another scope: the run's own name is read",
      code:
        CONTROL +
        lines(
          SDK,
          GEN,
          AGENT,
          'try { await go(); } catch (error) {',
          '  const state = error.state;',
          '  await run(agent, state);',
          '}',
          'try { await go(); } catch (error) {',
          '  const state = `retry after ${String(error)}`;',
          '  await run(agent, state);',
          '}',
          "export function first() { const options = { context: { user } }; return run(agent, 'hi', options); }",
          "export function second() { const options = { maxTurns: 3 }; return run(agent, 'hi', options); }",
          'export function caught(err: unknown) { const failed = err as GuardrailError; return failed; }',
          'export async function fresh(failed: { state: string }) { await run(agent, failed.state); }',
        ),
      errors: [
        { line: 18, column: 9, mentions: 'passes no context' },
        { line: 21, column: 68, mentions: 'passes no context' },
        { line: 23, column: 64, mentions: 'passes no context' },
      ],
    },
    {
      name: 'a state handed to a generic that may give back another argument of its type starts a run',
      code:
        CONTROL +
        lines(
          SDK,
          "import { RunState, type AgentInputItem } from '@openai/agents';",
          GEN,
          AGENT,
          'function either<S>(state: S, other: S): S { return other; }',
          'function listed<S, T extends S>(state: S, other: T[]): S { return other[0]!; }',
          'export async function turn(input: AgentInputItem[] | RunState<any, any>) {',
          "  const first = await run(agent, 'hi', { context: { user } });",
          '  await run(agent, either(first.state, input));',
          '  await run(agent, listed(first.state, [input]));',
          '}',
        ),
      errors: [
        { line: 17, column: 9, mentions: 'passes no context' },
        { line: 18, column: 9, mentions: 'passes no context' },
      ],
    },
    {
      name: 'such an input handed through a function that gives it back starts runs too',
      code:
        CONTROL +
        lines(
          SDK,
          "import { RunState, type AgentInputItem } from '@openai/agents';",
          GEN,
          AGENT,
          'function decode<S>(answers: unknown, state: S): S { return state; }',
          'export async function turn(input: AgentInputItem[] | RunState<any, any>) {',
          '  return run(agent, decode({}, input));',
          '}',
        ),
      errors: [{ line: 15, column: 10, mentions: 'passes no context' }],
    },
    {
      name: 'an agent whose tool() the manifest maps (the codemod protects it), and one handing off to an agent with a protected tool',
      code:
        CONTROL +
        lines(
          SDK_TOOL,
          GEN,
          AGENT,
          "const refund = tool({ name: 'refund', description: '', parameters: {} as never, execute: async () => 'ok' });",
          "const desk = new Agent({ name: 'desk2', tools: [refund] });",
          "const triage = new Agent({ name: 'triage', handoffs: [agent] });",
          "await run(desk, 'refund');",
          "await run(triage, 'hi');",
        ),
      errors: [
        { line: 15, column: 7, mentions: 'desk' },
        { line: 16, column: 7, mentions: 'triage' },
      ],
    },
    {
      name: 'an agent whose tools the file does not show (imported) stays reported; so does a state that is not a caught error',
      code:
        CONTROL +
        lines(
          SDK,
          GEN,
          "import { tools } from './tools';",
          "const agent = new Agent({ name: 'a', tools });",
          "await run(agent, 'hi');",
          'await run(agent, saved.state);',
        ),
      errors: [
        { line: 13, column: 7, mentions: 'passes no context' },
        { line: 14, column: 7, mentions: 'passes no context' },
      ],
    },
    // issue 40, item 3: fail safe where the repo does not show what an agent reaches
    {
      name: 'an agent imported from another module (through a barrel) that holds a protected tool, or hands off to one',
      files: { 'src/desks.ts': DESKS, 'src/all/index.ts': "export * from '../desks';\n" },
      code: CONTROL + lines(SDK, GEN, "import { desk, front } from './all';", "await run(desk, 'refund');", "await run(front, 'hi');"),
      errors: [
        { line: 12, column: 7, mentions: 'desk' },
        { line: 13, column: 7, mentions: 'front' },
      ],
    },
    {
      name: 'an agent of another package, a SandboxAgent (its shell), and an agent from a Map',
      code:
        CONTROL +
        lines(
          SDK,
          "import { SandboxAgent } from '@openai/agents/sandbox';",
          GEN,
          AGENT,
          "import { support } from '@acme/agents';",
          "const sandboxed = new SandboxAgent({ name: 's' });",
          'const byName = new Map([["desk", agent]]);',
          "await run(support, 'hi');",
          "await run(sandboxed, 'ls');",
          "await run(byName.get('desk')!, 'hi');",
        ),
      errors: [
        { line: 16, column: 7 },
        { line: 17, column: 7 },
        { line: 18, column: 7 },
      ],
    },
    {
      name: 'a helper one of whose callers passes an agent with a protected tool, and a helper handed on as a callback',
      code:
        CONTROL +
        lines(
          SDK,
          GEN,
          AGENT,
          "const writer = new Agent({ name: 'writer' });",
          'async function ask(a: Agent, prompt: string) { return run(a, prompt); }',
          "await ask(writer, 'write');",
          "await ask(agent, 'refund');",
          'const handle = (a: Agent) => run(a, "hi");',
          'queue.on("job", handle);',
          'handle(writer);',
        ),
      errors: [
        { line: 13, column: 55 },
        { line: 16, column: 30 },
      ],
    },
    {
      name: 'an exported helper a module calls with an agent holding a protected tool',
      file: 'src/ask.ts',
      files: { 'src/desks.ts': DESKS, 'src/route.ts': lines("import { ask } from './ask';", "import { desk } from './desks';", "await ask(desk, 'refund');") },
      code: CONTROL + lines(SDK, GEN, 'export async function ask(a: Agent, prompt: string) {', '  return run(a, prompt);', '}'),
      errors: [{ line: 12, column: 10 }],
    },
    {
      name: 'a helper of another module adds a protected tool through its parameter: every run may reach it',
      files: {
        'src/arm.ts': lines(GEN, 'export function arm(a: { tools: unknown[] }) {', "  a.tools.push(protectedTool('stripe.refund', { name: 'refund' }));", '}'),
      },
      code: CONTROL + lines(SDK, "const plain = new Agent({ name: 'plain' });", "await run(plain, 'a');"),
      errors: [{ line: 11, column: 7 }],
    },
    {
      name: 'agents of a package (also through an alias of package.json `imports`), or of a module the repo does not have, in a repo scan',
      files: { 'package.json': JSON.stringify({ name: 'app', imports: { '#desk': '@acme/desk' } }) },
      code:
        CONTROL +
        lines(
          SDK,
          GEN,
          AGENT,
          "import { support } from '@acme/agents';",
          "import { desk } from '#desk';",
          "import { gone } from './gone';",
          "await run(support, 'hi');",
          "await run(desk, 'hi');",
          "await run(gone, 'hi');",
        ),
      errors: [
        { line: 15, column: 7, mentions: 'support' },
        { line: 16, column: 7, mentions: 'desk' },
        { line: 17, column: 7, mentions: 'gone' },
      ],
    },
    {
      name: 'a protected tool added after the agent is made: pushed, or handed off to by a property set later',
      code:
        CONTROL +
        lines(
          SDK,
          GEN,
          "const one = new Agent({ name: 'one' });",
          "one.tools.push(protectedTool('stripe.refund', { name: 'refund' }));",
          "const two = new Agent({ name: 'two' });",
          "two.handoffs = [new Agent({ name: 'desk', tools: [protectedTool('stripe.refund', { name: 'refund' })] })];",
          "const three = new Agent({ name: 'three' });",
          "await run(one, 'a');",
          "await run(two, 'b');",
          "await run(three, 'c');",
        ),
      errors: [
        { line: 16, column: 7 },
        { line: 17, column: 7 },
      ],
    },
    {
      name: 'a tool list handed to a function that may fill it',
      code:
        CONTROL +
        lines(
          SDK,
          GEN,
          'const tools: unknown[] = [];',
          'registerTools(tools);',
          "const filled = new Agent({ name: 'f', tools: tools as never });",
          "await run(filled, 'hi');",
        ),
      errors: [{ line: 14, column: 7 }],
    },
    {
      name: 'an agent whose tools are made in a loop, mapped by the place of the call (`tool: { at, in }`)',
      project: withFlows(),
      code: CONTROL + lines(GEN, AGENT) + FLOWS,
      errors: [{ line: 14, column: 7, mentions: 'flows' }],
    },
    {
      name: 'run(agent, input) with no context and the control init writes',
      code: CONTROL + lines(SDK, GEN, AGENT, "const result = await run(agent, 'refund pay_1');"),
      errors: [{ line: 12, column: 22, mentions: 'runContext.context.user' }],
    },
    {
      name: 'runner.run with a context that lacks the key; the runtime run() with none',
      code:
        CONTROL +
        lines(
          SDK,
          GEN,
          "import { run as guardedRun } from 'ctrlrun-gen/runtime';",
          AGENT,
          'const runner = new Runner();',
          "await runner.run(agent, 'hi', { context: { tenant: 'acme' } });",
          "await guardedRun(agent, 'hi');",
        ),
      errors: [
        { line: 14, column: 7, mentions: 'passes a context without `user`' },
        { line: 15, column: 7, mentions: 'passes no context' },
      ],
    },
    {
      name: "an identity held by a name: the function the name is where the control is made, not another function's",
      code: lines(
        RT,
        'function spare() { const identify = () => null; return identify; }',
        'const identify = (runContext: { context?: { user?: string } }) => runContext.context?.user ?? null;',
        'createControl({ store: memoryStore(), identity: identify });',
        SDK,
        GEN,
        AGENT,
        "await run(agent, 'hi');",
      ),
      errors: [{ line: 8, column: 7, mentions: 'passes no context' }],
    },
    {
      name: 'a destructured identity reading context.userId; a run passing user',
      code: lines(
        RT,
        'createControl({ store: memoryStore(), identity: ({ context }) => context.userId ?? null });',
        SDK,
        GEN,
        AGENT,
        "await run(agent, 'hi', { context: { user: 'ana' } });",
      ),
      errors: [{ line: 6, column: 7, mentions: 'context: { userId:' }],
    },
  ],
});
