import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Red team, session 25 (issue 40 item 4): a tag test held through a chain of locals
 * (`let x0 = t.kind === 'review'; let x1 = x0; … if (x12) t.state.approve(i)`). TypeScript does not
 * narrow through a `let`, nor through a `const` deeper than five, so `t.state` is `Review | RunState`
 * (tsc against the SDK this repo installs), and the product's rule (tag-tests.ts `heldTest`) is that
 * such a test is unsure: the SDK's kind stays possible, one finding.
 * - Silent break: `mentionsHeld` stops at a depth bound (ten) and answers "does not mention the
 *   object" past it, so a chain twelve deep reads as no test at all and the union's state is not
 *   reported (fail open), for `let` and for `const` chains alike.
 * - Blow-up: the same walk follows every name of each initializer again, with no memory of the
 *   names it has read, so a chain whose locals each read the previous one several times
 *   (`let x2 = x1 && x1 && x1 && x1`) takes time exponential in the width: four wide takes
 *   seconds and then answers nothing; six wide (`let` or `const`) did not finish in a minute, and
 *   a hang of the synchronous scan cannot be timed out by the test runner, so it is not pinned here.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const TASK = lines(
  'interface Review { approve(i: Row): void; review: true }',
  "type Task = { kind: 'agent'; state: RunState<any, any> } | { kind: 'review'; state: Review };",
);
const lint = (server: string) =>
  lintRepo({ 'src/server.ts': lines(GEN, SDK, TASK, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;

/** `ok(t)` testing `t` through `depth` locals declared with `keyword`, each reading the previous one `width` times. */
function chain(keyword: 'let' | 'const', depth: number, width: number): string {
  const locals = [`${keyword} x0 = t.kind === 'review';`];
  for (let k = 1; k <= depth; k++) locals.push(`${keyword} x${k} = ${Array.from({ length: width }, () => `x${k - 1}`).join(' && ')};`);
  return `export function ok(t: Task, i: Row) { ${locals.join(' ')} if (x${depth}) t.state.approve(i); }`;
}

describe('tests held through long chains of locals (red team, session 25)', () => {
  it('one sdk-approval finding: a `let` chain twelve deep', () => expect(lint(chain('let', 12, 1))).toBe(1));
  it('one sdk-approval finding: a `const` chain twelve deep', () => expect(lint(chain('const', 12, 1))).toBe(1));
  it('one sdk-approval finding: a `let` chain twelve deep, each local reading the last four times (seconds, exponential)', () =>
    expect(lint(chain('let', 12, 4))).toBe(1));
  it('one sdk-approval finding: a chain twelve deep and six wide, `let` and `const` (it hung before each initializer was read once)', () => {
    expect(lint(chain('let', 12, 6))).toBe(1);
    expect(lint(chain('const', 12, 6))).toBe(1);
  });
  it('control: one sdk-approval finding for a `let` chain three deep, and one nine deep and five wide', () => {
    expect(lint(chain('let', 3, 1))).toBe(1);
    expect(lint(chain('let', 9, 5))).toBe(1);
  });
});
