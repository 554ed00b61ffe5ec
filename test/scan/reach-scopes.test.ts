import { describe, expect, it } from 'vitest';
import { scanSource } from '../../src/scan/index.js';

// The run reach's binding index (src/scan/reach/bindings.ts) gives each declaration the scope it is
// written in: a block's, a catch clause's, a loop's or a function's names never reach a run outside
// them, and a name declared after one of them is the file's (issue 40, item 8: the index's walk
// keeps its position in fields rather than in a callback made for each node).
const SOURCE = [
  "import { Agent, run, tool } from '@openai/agents';",
  "const refund = tool({ name: 'refund', description: 'd', parameters: {} as any, execute: async () => 'ok' });",
  'async function main(mode: number) {',
  '  function helper() {',
  "    var agent = new Agent({ name: 'in a function', tools: [refund] });",
  '    return agent;',
  '  }',
  "  { const agent = new Agent({ name: 'in a block', tools: [refund] }); }",
  '  try {',
  '    work();',
  '  } catch (agent) {',
  "    const other = new Agent({ name: 'in a catch', tools: [refund] });",
  "    await run(agent, 'the caught error');",
  '  }',
  "  for (const agent of [new Agent({ name: 'in a loop', tools: [refund] })]) await run(agent, 'each');",
  "  for (let agent = new Agent({ name: 'in a for', tools: [refund] }); ; ) break;",
  "  switch (mode) { case 1: const agent = new Agent({ name: 'in a case', tools: [refund] }); }",
  "  var agent = new Agent({ name: 'plain' });",
  "  const other = new Agent({ name: 'plain too' });",
  "  await run(agent, 'hi');",
  "  await run(other, 'hi');",
  "  await run(helper(), 'hi');",
  '}',
  '',
].join('\n');

describe('the run reach reads each name in its own scope', () => {
  it('names declared in a function, a block, a catch clause, a loop or a case reach no run outside them, nor their siblings', () => {
    const runs = scanSource('src/run.ts', SOURCE).runCalls ?? [];
    expect(runs.map((r) => [r.agent, r.reach?.kind, r.reach?.leaves.length])).toEqual([
      ['agent', 'unknown', 0],
      ['agent', 'tools', 1],
      ['agent', 'tools', 0],
      ['other', 'tools', 0],
      ['helper()', 'tools', 1],
    ]);
  });
});
