import { lines, lintSource } from './rule-tester.js';

/** The SDK's state as the answer tests write it. */
export const S = 'RunState<any, any>';

const CONTROL = lines(
  "import { createControl, memoryStore } from 'ctrlrun-gen/runtime';",
  'export const control = createControl({ store: memoryStore(), identity: (rc) => (rc.context as { user?: string }).user ?? null });',
);

/**
 * The `run-without-context` findings of `run(agent, input)` in `turn(params)`, the agent holding a
 * protected tool: a resume (an input surely a state) gives none, any other input one. The answer
 * tests use it to show a reading of a value is "maybe a state" for an answer and "surely" for a resume.
 */
export function runInputFindings(params: string, input: string): number {
  const code = lines(
    CONTROL,
    "import { Agent, run } from '@openai/agents';",
    "import type { RunState } from '@openai/agents';",
    "import { protectedTool } from './ctrlrun.generated.js';",
    "const agent = new Agent({ name: 'desk', tools: [protectedTool('stripe.refund', { name: 'refund' })] });",
    `export async function turn(${params}) { await run(agent, ${input}); }`,
  );
  return lintSource(code, { ruleId: 'run-without-context' }).length;
}
