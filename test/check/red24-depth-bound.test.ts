import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Red team, session 24 (issue 40 item 4, silent break): the member reader's depth bound
 * (written-members.ts `ALIAS_DEPTH`, 4, shared by aliases, bases, wrappers and other files' hops)
 * ends the walk before a layered app's type reaches the state. A three-layer app names its pending
 * answer once per layer: db.ts's `PendingRecord = WithTimestamps<{ state: RunState }>`, domain.ts's
 * `Pending = Readonly<PendingRecord>`, api.ts's `PendingDto = Pending`; the handler typed with
 * the DTO is missed, though the same handler typed with the domain's `Pending` is found. Four plain
 * renames in one file are missed too. tsc types both receivers as the SDK's `RunState` (checked
 * against the SDK this repo installs). The bound fails open here: what is not read leaves the
 * answer the app's, so the codemod rewrites the tool with "0 conflicts".
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const lint = (files: Record<string, string>, server: string) =>
  lintRepo({ ...files, 'src/server.ts': lines(GEN, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;
const LAYERS = {
  'src/db.ts': lines(SDK, 'type WithTimestamps<T> = T & { at: number };', 'export type PendingRecord = WithTimestamps<{ state: RunState<any, any> }>;'),
  'src/domain.ts': lines("import type { PendingRecord } from './db.js';", 'export type Pending = Readonly<PendingRecord>;'),
  'src/api.ts': lines("import type { Pending } from './domain.js';", 'export type PendingDto = Pending;'),
};

describe('a type deeper than the reader goes (red team, session 24)', () => {
  it("one sdk-approval finding: a three-layer app's DTO (`PendingDto = Pending = Readonly<WithTimestamps<…>>`)", () =>
    expect(lint(LAYERS, lines("import type { PendingDto } from './api.js';", 'export function ok(p: PendingDto, i: Row) { p.state.approve(i); }'))).toBe(1));
  it("control: the same app's domain type is one sdk-approval finding", () =>
    expect(lint(LAYERS, lines("import type { Pending } from './domain.js';", 'export function ok(p: Pending, i: Row) { p.state.approve(i); }'))).toBe(1));
  it('one sdk-approval finding: four renames of one alias', () =>
    expect(
      lint(
        {},
        lines(
          SDK,
          'type A = { state: RunState<any, any> };',
          'type B = A;',
          'type C = B;',
          'type D = C;',
          'type E = D;',
          'export function ok(p: E, i: Row) { p.state.approve(i); }',
        ),
      ),
    ).toBe(1));
});
