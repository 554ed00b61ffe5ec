import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/** `Awaited<…>` as a wrapper (type-shapes.ts `wrapped`): of a `Promise`, what `await` gives. */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const TYPES = lines('interface Review { approve(i: Row): void }', 'interface Pending { state: RunState<any, any> }', 'interface Mine { state: Review }');
const lint = (server: string) =>
  lintRepo({ 'src/server.ts': lines(GEN, SDK, TYPES, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;

describe('Awaited', () => {
  it.each([
    ['of a `Promise` of the state, as the receiver', 'export function ok(s: Awaited<Promise<RunState<any, any>>>, i: Row) { s.approve(i); }'],
    ['of a type that is no `Promise`', 'export function ok(p: Awaited<Pending>, i: Row) { p.state.approve(i); }'],
    ['of a `PromiseLike`, through a member', 'export function ok(p: Awaited<PromiseLike<Pending>>, i: Row) { p.state.approve(i); }'],
  ])('one sdk-approval finding: %s', (_, server) => expect(lint(server)).toBe(1));

  it("no sdk-approval finding: of a `Promise` of the app's own", () =>
    expect(lint('export function ok(p: Awaited<Promise<Mine>>, i: Row) { p.state.approve(i); }')).toBe(0));
});
