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
const AGENT = "const agent = new Agent({ name: 'desk', tools: [protectedTool('stripe.refund', { name: 'refund' })] });";

ruleTester('run-without-context', {
  valid: [
    { name: 'the context carries the user', code: CONTROL + lines(SDK, GEN, AGENT, "await run(agent, 'hi', { context: { user: session.user } });") },
    { name: 'a shorthand context held in a variable', code: CONTROL + lines(SDK, GEN, AGENT, 'const context = { user: me, locale };', "await run(agent, 'hi', { context, stream: true });") },
    { name: 'an identity that needs no context (a service principal)', code: lines(RT, "createControl({ store: memoryStore(), identity: () => process.env.CTRLRUN_PRINCIPAL ?? null });", SDK, GEN, AGENT, "await run(agent, 'hi');") },
    { name: 'a resumed run keeps its context', code: CONTROL + lines(SDK, GEN, AGENT, "const result = await run(agent, 'hi', { context: { user } });", 'await run(agent, result.state);') },
    { name: 'options check cannot read', code: CONTROL + lines(SDK, GEN, AGENT, 'export async function go(options: object) { await run(agent, "hi", options); }', "await run(agent, 'hi', { ...defaults });") },
    { name: 'no protected tools in the repo', project: null, code: CONTROL + lines(SDK, "await run(new Agent({ name: 'a' }), 'hi');") },
    { name: 'an identity check cannot follow, and a context with keys', code: lines(RT, 'createControl({ store: memoryStore(), identity: (rc) => principalOf(rc) });', SDK, GEN, AGENT, "await run(agent, 'hi', { context: { tenant } });") },
    { name: 'no control in the scanned files', code: lines(SDK, GEN, AGENT, "await run(agent, 'hi');") },
    { name: 'a run() of another library', code: CONTROL + lines("import { run } from 'node:test';", GEN, "run('a test', () => {});") },
  ],
  invalid: [
    {
      name: "run(agent, input) with no context and the control init writes",
      code: CONTROL + lines(SDK, GEN, AGENT, "const result = await run(agent, 'refund pay_1');"),
      errors: [{ line: 12, column: 22, mentions: 'runContext.context.user' }],
    },
    {
      name: 'runner.run with a context that lacks the key; the runtime run() with none',
      code:
        CONTROL +
        lines(SDK, GEN, "import { run as guardedRun } from 'ctrlrun-gen/runtime';", AGENT, 'const runner = new Runner();', "await runner.run(agent, 'hi', { context: { tenant: 'acme' } });", "await guardedRun(agent, 'hi');"),
      errors: [
        { line: 14, column: 7, mentions: 'passes a context without `user`' },
        { line: 15, column: 7, mentions: 'passes no context' },
      ],
    },
    {
      name: 'a destructured identity reading context.userId; a run passing user',
      code: lines(RT, 'createControl({ store: memoryStore(), identity: ({ context }) => context.userId ?? null });', SDK, GEN, AGENT, "await run(agent, 'hi', { context: { user: 'ana' } });"),
      errors: [{ line: 6, column: 7, mentions: 'context: { userId:' }],
    },
  ],
});
