import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';
import { TOOLS } from './red27-apps.js';

/**
 * The SDK's answer taken off its object and called on it (issue 40 item 4, the forms of sdk-approval
 * still silent after session 27): a destructured method called with `.call` (`const { approve } =
 * state; approve.call(state, item)`), and an unbound prototype method handed to `forEach` with the
 * state as its this-argument (`items.forEach(RunState.prototype.approve, state)`).
 */

/** A server that runs the agent of TOOLS and answers its interruptions with `stmt` at line 6. */
const server = (stmt: string, ...after: string[]): Record<string, string> => ({
  'src/tools.ts': TOOLS,
  'src/server.ts': lines(
    "import { Agent, run, RunState } from '@openai/agents';",
    "import { refund } from './tools.js';",
    "const agent = new Agent({ name: 'desk', instructions: 'Help with payments.', tools: [refund] });",
    'export async function go() {',
    "  const r = await run(agent, 'refund my last payment');",
    `  ${stmt}`,
    ...after,
    '  return run(agent, r.state);',
    '}',
  ),
});

/** The app's own queue with an `approve` method; its call at line 5. */
const ownQueue = (stmt: string): Record<string, string> => ({
  'src/tools.ts': TOOLS,
  'src/server.ts': lines(
    "import { Agent, RunState } from '@openai/agents';",
    'interface Row { id: string }',
    'class Queue { approve(row: Row) { return row.id; } }',
    'export function go(queue: Queue, rows: Row[]) {',
    `  ${stmt}`,
    '}',
    'void Agent; void RunState;',
  ),
});

const found = (files: Record<string, string>) => lintRepo(files, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).map((f) => f.line);

describe('sdk-approval: an answer method taken off the state and called on it', () => {
  const reported: Record<string, Record<string, string>> = {
    'destructured, then `.call` (`const { approve } = r.state; approve.call(r.state, i)`)': server(
      'for (const i of r.interruptions) { const { approve } = r.state; approve.call(r.state, i); }',
    ),
    'destructured under another name (`const { reject: no } = r.state; no.call(r.state, i)`)': server(
      'for (const i of r.interruptions) { const { reject: no } = r.state; no.call(r.state, i); }',
    ),
    'held in a const (`const approve = r.state.approve; approve.apply(r.state, [i])`)': server(
      'for (const i of r.interruptions) { const approve = r.state.approve; approve.apply(r.state, [i]); }',
    ),
    'the prototype’s method in `forEach` with the state as this-argument': server('r.interruptions.forEach(RunState.prototype.approve, r.state);'),
    'the prototype’s method in `map` (`RunState.prototype.reject`)': server('r.interruptions.map(RunState.prototype.reject, r.state);'),
    "the prototype read by a key (`RunState['prototype'].approve`)": server("r.interruptions.forEach(RunState['prototype'].approve, r.state);"),
  };
  for (const [name, files] of Object.entries(reported)) it(`reported: ${name}`, () => expect(found(files)).toContain(6));

  const silent: Record<string, Record<string, string>> = {
    "the app's own class, destructured and called on its own object": ownQueue(
      'for (const row of rows) { const { approve } = queue; approve.call(queue, row); }',
    ),
    "the app's own class's prototype method in `forEach`": ownQueue('rows.forEach(Queue.prototype.approve, queue);'),
    'another method of the state destructured and called (`toJSON`)': server('const { toJSON } = r.state; toJSON.call(r.state);'),
    "an object's own method in `forEach` with the state as this-argument (not the SDK's method)": server(
      'const queue = { approve(i: unknown) { return i; } }; r.interruptions.forEach(queue.approve, r.state);',
    ),
  };
  for (const [name, files] of Object.entries(silent)) it(`silent: ${name}`, () => expect(found(files)).toEqual([]));
});
