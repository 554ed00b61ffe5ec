import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Red team, session 25 (issue 40 item 4, silent break): a variable declared with a written type in
 * a `for` statement's initializer (`for (let s: RunState = get(); …)`) is not read (the declaration
 * readers find `const`/`let` statements, parameters and `for … of`, not a `for`'s own list), even
 * when the written type is the SDK's `RunState` itself. tsc (against the SDK this repo installs)
 * types `s` as `RunState`; `sdk-approval` finds nothing, so the codemod rewrites the tool with no
 * conflict. Each is one finding.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const DECL = lines('declare function get(): RunState<any, any>;', 'interface Pending { state: RunState<any, any> }', 'declare function pending(): Pending;');
const lint = (server: string) =>
  lintRepo({ 'src/server.ts': lines(GEN, SDK, DECL, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;

const cases: Record<string, string> = {
  'a `for` variable written `RunState`': 'export function ok(i: Row) { for (let s: RunState<any, any> = get(); ; ) { s.approve(i); break; } }',
  'a `for` variable written `Pending` (`p.state`)': 'export function ok(i: Row) { for (let p: Pending = pending(); ; ) { p.state.approve(i); break; } }',
};

describe('variables a `for` statement declares (red team, session 25)', () => {
  for (const [name, server] of Object.entries(cases)) it(`one sdk-approval finding: ${name}`, () => expect(lint(server)).toBe(1));
  it('control: one sdk-approval finding for the same `let` before the loop', () =>
    expect(lint('export function ok(i: Row) { let s: RunState<any, any> = get(); for (; ; ) { s.approve(i); break; } }')).toBe(1));
});
