import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Lists a `for … of` takes its elements from that are no written array (type-shapes.ts `ITERABLES`),
 * and a list given a fallback (`ps ?? []`, written-members.ts `eitherSide`).
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const TYPES = lines('interface Review { approve(i: Row): void }', 'interface Pending { state: RunState<any, any> }', 'interface Mine { state: Review }');
const lint = (server: string) =>
  lintRepo({ 'src/server.ts': lines(GEN, SDK, TYPES, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;

describe('a list iterated that is no written array', () => {
  it.each([
    [
      'a `ReadonlySet` through an alias',
      lines('type Ps = ReadonlySet<Pending>;', 'export function ok(ps: Ps, i: Row) { for (const p of ps) p.state.approve(i); }'),
    ],
    ['a generator', 'export function ok(ps: Generator<Pending>, i: Row) { for (const { state } of ps) state.approve(i); }'],
    ['`ps || []`', 'export function ok(ps: Pending[] | null, i: Row) { for (const p of ps || []) p.state.approve(i); }'],
    [
      'a fallback of the same list type',
      'export function ok(ps: Pending[] | undefined, qs: Pending[], i: Row) { for (const p of ps ?? qs) p.state.approve(i); }',
    ],
    // session 26: `p` is `Pending | Mine`, so `p.state` may be the SDK's state (fail closed)
    [
      "a fallback to the app's own list (one alternative the SDK's)",
      'export function ok(ps: Pending[] | undefined, ms: Mine[], i: Row) { for (const p of ps ?? ms) p.state.approve(i); }',
    ],
  ])('one sdk-approval finding: %s', (_, server) => expect(lint(server)).toBe(1));

  it.each([
    ["the app's own `Set`", 'export function ok(ms: Set<Mine>, i: Row) { for (const m of ms) m.state.approve(i); }'],
    [
      'a `Set` class the file declares, iterating its own',
      lines(
        'class Set<T> { t?: T; *[Symbol.iterator](): Iterator<Mine> {} }',
        'export function ok(ps: Set<Pending>, i: Row) { for (const p of ps) p.state.approve(i); }',
      ),
    ],
    ["a fallback to the app's own list", 'export function ok(ms: Mine[] | undefined, ns: Mine[], i: Row) { for (const p of ms ?? ns) p.state.approve(i); }'],
  ])('no sdk-approval finding: %s', (_, server) => expect(lint(server)).toBe(0));
});
