import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/** Members written in other forms than a property (written-members.ts): an interface's accessor, a computed literal key, a constructor's parameter property. */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const REVIEW = 'interface Review { approve(i: Row): void }';
const lint = (server: string) =>
  lintRepo({ 'src/server.ts': lines(GEN, SDK, REVIEW, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;

describe('a member written as an accessor, a computed key or a parameter property', () => {
  it.each([
    ["an interface's accessor", lines('interface P { get state(): RunState<any, any> }', 'export function ok(p: P, i: Row) { p.state.approve(i); }')],
    ['a computed key in a type literal', "export function ok(p: { ['state']: RunState<any, any> }, i: Row) { p.state.approve(i); }"],
    [
      "a class's `private readonly` parameter property read inside",
      lines(
        'class H { constructor(private readonly state: RunState<any, any>) {} }',
        'export function ok(h: H, i: Row) { (h as any).x; h["state"].approve(i); }',
      ),
    ],
    [
      "a class's `public` parameter property",
      lines('class H { constructor(public state: RunState<any, any>) {} }', 'export function ok(h: H, i: Row) { h.state.approve(i); }'),
    ],
  ])('one sdk-approval finding: %s', (_, server) => expect(lint(server)).toBe(1));

  it.each([
    ["an interface's accessor of the app's own", lines('interface P { get state(): Review }', 'export function ok(p: P, i: Row) { p.state.approve(i); }')],
    [
      'a constructor parameter without a modifier (no field)',
      lines(
        'class H { constructor(state: RunState<any, any>) { this.state = {} as Review; void state; } state: Review; }',
        'export function ok(h: H, i: Row) { h.state.approve(i); }',
      ),
    ],
  ])('no sdk-approval finding: %s', (_, server) => expect(lint(server)).toBe(0));
});
