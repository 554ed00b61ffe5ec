import { lines, ruleTester } from '../rule-tester.js';

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

ruleTester('run-without-context', {
  valid: [
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
    { name: 'a run() of another library', code: CONTROL + lines("import { run } from 'node:test';", GEN, "run('a test', () => {});") },
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
  ],
  invalid: [
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
