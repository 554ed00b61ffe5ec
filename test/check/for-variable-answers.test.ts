import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/** Variables a `for` statement declares (bound-types.ts): their written type, or their pattern's. */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const TYPES = lines(
  'interface Review { approve(i: Row): void }',
  'interface Pending { state: RunState<any, any> }',
  'interface Mine { state: Review }',
  'declare function get(): any;',
);
const lint = (server: string) =>
  lintRepo({ 'src/server.ts': lines(GEN, SDK, TYPES, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;

describe('a variable a `for` statement declares', () => {
  it.each([
    ['the first of two', 'export function ok(i: Row) { for (let p: Pending = get(), k = 0; k < 1; k++) p.state.approve(i); }'],
    ['the second of two', 'export function ok(i: Row) { for (let k = 0, p: Pending = get(); k < 1; k++) p.state.approve(i); }'],
    ['a pattern of a written type', 'export function ok(i: Row) { for (let { state }: Pending = get(); ; ) { state.approve(i); break; } }'],
    ['a cast initializer', 'export function ok(i: Row) { for (let p = get() as Pending; ; ) { p.state.approve(i); break; } }'],
  ])('one sdk-approval finding: %s', (_, server) => expect(lint(server)).toBe(1));

  it.each([
    ["the app's own type", 'export function ok(i: Row) { for (let m: Mine = get(); ; ) { m.state.approve(i); break; } }'],
    ['another variable of the loop', 'export function ok(r: Review, i: Row) { for (let p: Pending = get(), q = r; ; ) { q.approve(i); break; } }'],
  ])('no sdk-approval finding: %s', (_, server) => expect(lint(server)).toBe(0));
});
