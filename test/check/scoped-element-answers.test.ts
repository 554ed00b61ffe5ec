import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Session 24 review (issue 40 item 4): what `xs[i]` reads goes through the same scoped names as a
 * member does. A list type the function declares, or a type parameter constrained to a list, is
 * read where TypeScript reads it (innermost scope first), not only at the file's top: the SDK's
 * state there is an answer (a miss is a silent break), the app's own there hides a top-level list
 * of the SDK's (a finding is a false alarm).
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const lint = (server: string) =>
  lintRepo({ 'src/server.ts': lines(GEN, SDK, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;
const OWN = '{ approve(x: unknown): void }';
const STATE = 'RunState<any, any>';

describe('an element of a list the function declares', () => {
  it("one sdk-approval finding: a local alias of a list of the SDK's state", () =>
    expect(lint(`export function ok(i: Row) { type List = ${STATE}[]; const xs: List = get(); xs[0].approve(i); }`)).toBe(1));
  it("one sdk-approval finding: a type parameter constrained to a list of the SDK's state", () =>
    expect(lint(`export function ok<L extends ${STATE}[]>(xs: L, i: Row) { xs[0].approve(i); }`)).toBe(1));
  it("no sdk-approval finding: a local list of the app's own hiding a top-level list of the SDK's", () =>
    expect(lint(lines(`type List = ${STATE}[];`, `export function ok(i: Row) { type List = ${OWN}[]; const xs: List = get(); xs[0].approve(i); }`))).toBe(0));
  it("no sdk-approval finding: a local enum hiding a top-level list of the SDK's", () =>
    expect(lint(lines(`type List = ${STATE}[];`, 'export function ok(i: Row) { enum List { A } const xs: List = get(); xs[0].approve(i); }'))).toBe(0));
});
