import { describe, expect, it } from 'vitest';
import { scanSource } from '../../src/scan/index.js';

// A run's arguments are looked up where the run is: a `var` a function hoists is found in the list
// the scan filed while collecting the alias names, not by walking the function's body again
// (issue 40, item 8). These are the answers the body's walk gave.

const SOURCE = `import { Agent, Runner, RunState, run } from '@openai/agents';
const agent = new Agent({ name: 'a' });
export async function resume(saved: string) {
  if (saved) {
    var state: RunState<unknown, Agent> = await RunState.fromString(agent, saved);
  }
  return run(agent, state);
}
export async function fresh(input: string) {
  return run(agent, input);
}
export async function byRunner(input: string) {
  for (;;) {
    var runner: Runner = pick();
    break;
  }
  return runner.run(agent, input);
}
export async function inner(input: string) {
  const nested = () => {
    var state: RunState<unknown, Agent> = load();
    return state;
  };
  // the nested function's var is not this function's: the input is a fresh one
  return run(agent, state);
}
declare function pick(): Runner;
declare function load(): RunState<unknown, Agent>;
declare const state: string;
`;

describe("runs: a function's hoisted vars, as the scan filed them", () => {
  it('a var typed RunState resumes; a var typed Runner runs; another function’s var is not seen', () => {
    const runs = scanSource('src/run.ts', SOURCE).runCalls ?? [];
    expect(runs.map((r) => [r.span.line, r.via, r.resumes])).toEqual([
      [7, 'sdk-run', true],
      [10, 'sdk-run', false],
      [17, 'runner', false],
      [25, 'sdk-run', false],
    ]);
  });

  it("an approval's receiver held by a var of the function is the SDK's RunState; the same name elsewhere is not", () => {
    const scan = scanSource(
      'src/approve.ts',
      `import { Agent, RunState } from '@openai/agents';
const agent = new Agent({ name: 'a' });
export async function approveAll(saved: string, item: unknown) {
  if (saved) { var state: RunState<unknown, Agent> = await RunState.fromString(agent, saved); }
  state.approve(item);
}
export function other(state: { approve(id: string): void }, id: string) {
  state.approve(id);
}
`,
    );
    expect((scan.sdkApprovals ?? []).map((a) => a.span.line)).toEqual([5]);
  });
});
