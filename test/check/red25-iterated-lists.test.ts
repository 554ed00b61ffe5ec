import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Red team, session 25 (issue 40 item 4, silent break): the variable of a `for … of` over a list
 * whose written type is no array (bound-types.ts reads the list's element with `elementTypes`, which
 * walks `T[]`, `Array<T>`, tuples): a `Set<Pending>`, an `Iterable<Pending>`, `for await` over an
 * `AsyncIterable<Pending>`, and a list written `ps ?? []` of an optional array. tsc (against the SDK
 * this repo installs) types `p.state` as the SDK's `RunState` in each; `sdk-approval` finds nothing,
 * so the codemod rewrites the tool with no conflict. Each is one finding.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const PENDING = 'interface Pending { state: RunState<any, any> }';
const lint = (server: string) =>
  lintRepo({ 'src/server.ts': lines(GEN, SDK, PENDING, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;

const cases: Record<string, string> = {
  'a `Set<Pending>` iterated': 'export function ok(ps: Set<Pending>, i: Row) { for (const p of ps) p.state.approve(i); }',
  'an `Iterable<Pending>` iterated': 'export function ok(ps: Iterable<Pending>, i: Row) { for (const p of ps) p.state.approve(i); }',
  '`for await` over an `AsyncIterable<Pending>`':
    'export async function ok(ps: AsyncIterable<Pending>, i: Row) { for await (const p of ps) p.state.approve(i); }',
  'an optional list iterated as `ps ?? []`': 'export function ok(ps: Pending[] | undefined, i: Row) { for (const p of ps ?? []) p.state.approve(i); }',
};

describe('lists iterated that are no written array (red team, session 25)', () => {
  for (const [name, server] of Object.entries(cases)) it(`one sdk-approval finding: ${name}`, () => expect(lint(server)).toBe(1));
  it('control: one sdk-approval finding over a `readonly Pending[]`', () =>
    expect(lint('export function ok(ps: readonly Pending[], i: Row) { for (const p of ps) p.state.approve(i); }')).toBe(1));
});
