import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Red team, session 24 (issue 40 item 4, silent break): a pending answer kept as a pair,
 * `[RunState, RunToolApprovalItem]`, the plainest tuple an app writes for it. type-shapes.ts's
 * `elementTypes` gives every element of a tuple for any index, so `e[0]` reads as "RunState or
 * RunToolApprovalItem"; not every alternative is the SDK's state, so the receiver is taken for the
 * app's. The item side (`e[1]`) is not read as an interruption either. tsc types `e[0]` as the
 * SDK's `RunState` (checked against the SDK this repo installs). `sdk-approval` finds nothing and
 * the codemod rewrites the tool with "0 conflicts". The same miss for the SDK state in a tuple's
 * second place, a list of pairs, and the pair destructured. Control: the app's state in the second
 * place read by `e[1]` stays silent (it does today, for the reason above).
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState, RunToolApprovalItem } from '@openai/agents';";
const S = 'RunState<any, any>';
const MINE = 'interface Mine { approve(i: unknown): void }';
const lint = (server: string) =>
  lintRepo({ 'src/server.ts': lines(GEN, SDK, MINE, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;

const misses: Record<string, string> = {
  'a pair `[RunState, RunToolApprovalItem]` answered as `e[0].approve(e[1])`': `export function ok(e: [${S}, RunToolApprovalItem]) { e[0].approve(e[1]); }`,
  "the SDK state in a tuple's second place (`[Mine, RunState]`, `e[1]`)": `export function ok(e: [Mine, ${S}], i: Row) { e[1].approve(i); }`,
  'a list of pairs (`es[0][0]`)': `export function ok(es: Array<[${S}, Row]>, i: Row) { es[0][0].approve(i); }`,
  'a pair destructured (`const [state] = e`)': `export function ok(e: [${S}, Row], i: Row) { const [state] = e; state.approve(i); }`,
};

describe('a tuple element read by its index (red team, session 24)', () => {
  for (const [name, server] of Object.entries(misses)) it(`one sdk-approval finding: ${name}`, () => expect(lint(server)).toBe(1));
  it("control: the app's state in the second place (`[RunState, Mine]`, `e[1]`) is no finding", () =>
    expect(lint(`export function ok(e: [${S}, Mine], i: Row) { e[1].approve(i); }`)).toBe(0));
});
