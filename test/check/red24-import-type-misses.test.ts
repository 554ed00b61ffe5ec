import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Red team, session 24 (issue 40 item 4, silent break): the SDK's `RunState` or the app's
 * `Pending` named through an import type, `import('…').Name`, the form TypeScript code uses to
 * name a type without an import statement (to keep a module free of an import cycle) and the
 * only form a JavaScript app's JSDoc has. tsc types each receiver as the SDK's `RunState`
 * (checked against the SDK this repo installs, with checkJs for the JavaScript case). The member
 * reader (written-members.ts `memberIn`) reads no import type, so `sdk-approval` finds nothing
 * and the codemod rewrites the tool with "0 conflicts". A JSDoc `@param` naming the SDK's state
 * directly is found; a `@typedef` holding it is not.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const TYPES = { 'src/types.ts': lines(SDK, 'export interface Pending { state: RunState<any, any> }') };
const lint = (files: Record<string, string>, file: string, server: string) =>
  lintRepo({ ...files, [file]: lines(GEN, server) }, { project: testProject(), ruleId: 'sdk-approval', file }).length;

describe('a type named through an import type (red team, session 24)', () => {
  it("one sdk-approval finding: a parameter typed `import('./types.js').Pending`", () =>
    expect(lint(TYPES, 'src/server.ts', "export function ok(p: import('./types.js').Pending, i: Row) { p.state.approve(i); }")).toBe(1));
  it("one sdk-approval finding: a member typed `import('@openai/agents').RunState`", () =>
    expect(
      lint(
        {},
        'src/server.ts',
        lines("interface Pending { state: import('@openai/agents').RunState<any, any> }", 'export function ok(p: Pending, i: Row) { p.state.approve(i); }'),
      ),
    ).toBe(1));
  it('one sdk-approval finding: a JavaScript `@typedef` holding the SDK state', () =>
    expect(
      lint(
        {},
        'src/server.js',
        lines(
          "/** @typedef {{ state: import('@openai/agents').RunState<any, any> }} Pending */",
          '/** @param {Pending} p */',
          'export function ok(p, i) { p.state.approve(i); }',
        ),
      ),
    ).toBe(1));
  it('control: a JavaScript `@param` naming the SDK state is one finding', () =>
    expect(
      lint(
        {},
        'src/server.js',
        lines("/** @param {import('@openai/agents').RunState<any, any>} state */", 'export function ok(state, i) { state.approve(i); }'),
      ),
    ).toBe(1));
});
