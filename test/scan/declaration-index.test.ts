import { describe, expect, it } from 'vitest';
import { scanSource } from '../../src/scan/index.js';

// A name the scope where it is read does not hold (a parameter) is followed to the file's first
// declaration of it, in the order a walk from the file meets them: the index the scan's first walk
// fills (src/scan/syntax.ts, `DeclarationIndex`) gives the answers the walks it replaced gave.

const SOURCE = `import { Runner } from '@openai/agents';
function make() {
  const runner = new Runner();
  return runner;
}
export async function go(runner: unknown, agent: never) {
  return (runner as Runner).run(agent, 'hi');
}
function later() {
  const runner = { run: (_a: unknown, _b: string) => 0 };
  return runner;
}
`;

describe('declarations by name: the first of the file', () => {
  it("a parameter's name is followed to the file's first `const` of it, not a later one", () => {
    const runs = scanSource('src/go.ts', SOURCE).runCalls ?? [];
    expect(runs.map((r) => [r.span.line, r.via])).toEqual([[7, 'runner']]);
  });

  it('with the two declarations swapped, the first is no Runner: no run', () => {
    const NOT_A_RUNNER = '{ run: (_a: unknown, _b: string) => 0 }';
    const swapped = SOURCE.replace('new Runner();', 'FIRST;').replace(`${NOT_A_RUNNER};`, 'new Runner();').replace('FIRST;', `${NOT_A_RUNNER};`);
    expect(swapped.indexOf(NOT_A_RUNNER)).toBeLessThan(swapped.indexOf('new Runner()'));
    expect(scanSource('src/go.ts', swapped).runCalls ?? []).toEqual([]);
  });
});
