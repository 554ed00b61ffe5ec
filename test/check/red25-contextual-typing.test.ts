import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Red team, session 25 (issue 40 item 4, silent break): a function whose parameter has no written
 * type of its own but is typed by its context, as TypeScript types it (checked with tsc against the
 * SDK this repo installs: each receiver is the SDK's `RunState`): an arrow held by a `const` written
 * with a function type (inline or an alias), a callback handed to a typed list's `forEach` (a plain
 * parameter, or a destructured one). The readers (bound-types.ts, written-members.ts) read a
 * parameter only by its own written type, so `sdk-approval` finds nothing: the codemod rewrites the
 * tool with no conflict and the app's own answers are refused at run time. Each is one finding.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const PENDING = 'interface Pending { state: RunState<any, any> }';
const lint = (server: string) =>
  lintRepo({ 'src/server.ts': lines(GEN, SDK, PENDING, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;

const cases: Record<string, string> = {
  'an arrow held by a `const` written with a function type': 'export const ok: (p: Pending, i: Row) => void = (p, i) => { p.state.approve(i); };',
  'an arrow held by a `const` typed by a function type alias': lines(
    'type Handler = (p: Pending, i: Row) => void;',
    'export const ok: Handler = (p, i) => p.state.approve(i);',
  ),
  'a callback of a typed list’s `forEach` (`ps.forEach((p) => p.state.approve(i))`)':
    'export function ok(ps: Pending[], i: Row) { ps.forEach((p) => p.state.approve(i)); }',
  'a destructured callback parameter (`ps.forEach(({ state }) => state.approve(i))`)':
    'export function ok(ps: Pending[], i: Row) { ps.forEach(({ state }) => state.approve(i)); }',
};

describe('parameters typed by their context (red team, session 25)', () => {
  for (const [name, server] of Object.entries(cases)) it(`one sdk-approval finding: ${name}`, () => expect(lint(server)).toBe(1));
  it('control: one sdk-approval finding for a parameter written `(p: Pending)`', () =>
    expect(lint('export function ok(p: Pending, i: Row) { p.state.approve(i); }')).toBe(1));
});
