import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Session 25 (issue 40 item 4): a receiver or item the language binds from a written type — a
 * pattern (nested, renamed, an object's rest), a `for … of` over a typed list, a cast — read down
 * the written type as TypeScript types it (bound-types.ts). A miss is a silent break; each "none"
 * a false alarm if reported.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState, RunToolApprovalItem } from '@openai/agents';";
const TYPES = lines(
  'interface Pending { state: RunState<any, any>; item: RunToolApprovalItem; id: string }',
  'interface Own { approve(x: unknown): void }',
  'interface Outer { job: Pending; pair: [RunState<any, any>, Own]; own: Own }',
);
const lint = (server: string) =>
  lintRepo({ 'src/server.ts': lines(GEN, SDK, TYPES, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;

describe('a receiver bound down a written type', () => {
  const one: Record<string, string> = {
    'a nested pattern (`({ job: { state } }: Outer)`)': 'export function ok({ job: { state } }: Outer, i: Row) { state.approve(i); }',
    'a renamed key (`({ state: s }: Pending)`)': 'export function ok({ state: s }: Pending, i: Row) { s.approve(i); }',
    "an object's rest (`({ id, ...rest }: Pending)`)": 'export function ok({ id, ...rest }: Pending, i: Row) { rest.state.approve(i); }',
    'a place inside a member (`({ pair: [state] }: Outer)`)': 'export function ok({ pair: [state] }: Outer, i: Row) { state.approve(i); }',
    'a typed pattern of a local (`const { state }: Pending = x`)': 'export function ok(x: any, i: Row) { const { state }: Pending = x; state.approve(i); }',
    'a pattern of a cast (`const { state } = x as Pending`)': 'export function ok(x: unknown, i: Row) { const { state } = x as Pending; state.approve(i); }',
    'a `for … of` over a member list (`for (const p of h.list)`)':
      'export function ok(h: { list: Pending[] }, i: Row) { for (const p of h.list) p.state.approve(i); }',
    'a `for … of` over a tuple list (`for (const [state] of pairs)`)':
      'export function ok(pairs: Array<[RunState<any, any>, Own]>, i: Row) { for (const [state] of pairs) state.approve(i); }',
    'a nested pattern of a cast (`const { job: { state } } = x as Outer`)':
      'export function ok(x: unknown, i: Row) { const { job: { state } } = x as Outer; state.approve(i); }',
    'a cast to `any` keeps the written type (`(p as any).state`)': 'export function ok(p: Pending, i: Row) { (p as any).state.approve(i); }',
    'a cast read in place (`(x as Pending).state`)': 'export function ok(x: unknown, i: Row) { (x as Pending).state.approve(i); }',
    'a cast to the SDK state (`(x as RunState<any, any>)`)': 'export function ok(x: unknown, i: Row) { (x as RunState<any, any>).approve(i); }',
    'a local cast to the SDK state': 'export function ok(x: unknown, i: Row) { const s = x as RunState<any, any>; s.approve(i); }',
    'an item bound by a pattern (`({ own, item }: …)`)': 'export function ok({ own, item }: { own: Own; item: RunToolApprovalItem }) { own.approve(item); }',
    'an item of a `for … of` pattern': 'export function ok(o: Own, ps: Pending[]) { for (const { item } of ps) o.approve(item); }',
  };
  for (const [name, server] of Object.entries(one)) it(`one sdk-approval finding: ${name}`, () => expect(lint(server)).toBe(1));

  const none: Record<string, string> = {
    'the app member of a pattern (`({ own }: Outer)`)': 'export function ok({ own }: Outer, i: Row) { own.approve(i); }',
    'the app place inside a member (`({ pair: [, own] }: Outer)`)': 'export function ok({ pair: [, own] }: Outer, i: Row) { own.approve(i); }',
    'a `for … of` over a list of the app': 'export function ok(os: Own[], i: Row) { for (const o of os) o.approve(i); }',
    'a cast to the app (`(x as Own)`)': 'export function ok(x: { id: string }, i: Row) { (x as Own).approve(i); }',
  };
  for (const [name, server] of Object.entries(none)) it(`no sdk-approval finding: ${name}`, () => expect(lint(server)).toBe(0));
});
