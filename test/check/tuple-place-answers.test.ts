import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Issue 40 item 4 (session 24): a tuple element read in its place. `e[0]` of `[RunState, Mine]` is
 * the SDK's state alone, as tsc types it; a place at or after a rest element may be the rest's
 * element or any after it; a place not written as a numeric literal may be any element. A name an
 * array pattern binds (`const [, state] = e`, a parameter `[state]: [RunState, Mine]`) is the
 * element in its place. Each miss below is one finding; each control is none.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const S = 'RunState<any, any>';
const MINE = 'interface Mine { approve(i: unknown): void }';
const lint = (server: string) =>
  lintRepo({ 'src/server.ts': lines(GEN, SDK, MINE, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;

const answers: Record<string, string> = {
  'a named optional element in place 0 (`[state: RunState, mine?: Mine]`)': `export function ok(e: [state: ${S}, mine?: Mine], i: Row) { e[0].approve(i); }`,
  'the rest element in place 1 (`[Mine, ...RunState[]]`)': `export function ok(e: [Mine, ...${S}[]], i: Row) { e[1].approve(i); }`,
  'a pair of an alias (`type Pair = [Mine, RunState]`)': `type Pair = [Mine, ${S}];\nexport function ok(e: Pair, i: Row) { e[1].approve(i); }`,
  'a pattern skipping place 0 (`const [, state] = e`)': `export function ok(e: [Mine, ${S}], i: Row) { const [, state] = e; state.approve(i); }`,
  'a parameter pattern (`[state]: [RunState, Mine]`)': `export function ok([state]: [${S}, Mine], i: Row) { state.approve(i); }`,
  'a member of a destructured element (`const [p] = e; p.state`)': `export function ok(e: [{ state: ${S} }, Mine], i: Row) { const [p] = e; p.state.approve(i); }`,
  // session 26: each may be the SDK's state or the app's (tsc: `RunState | Mine`), so it is reported
  'place 0 before a rest element (`[...RunState[], Mine]`)': `export function ok(e: [...${S}[], Mine], i: Row) { e[0].approve(i); }`,
  'a place not written as a literal (`e[k]`)': `export function ok(e: [${S}, Mine], k: number, i: Row) { e[k].approve(i); }`,
};

const controls: Record<string, string> = {
  'a place not whole (`e[0.5]`)': `export function ok(e: [${S}, Mine], i: Row) { e[0.5].approve(i); }`,
  "a pattern's second place (`const [, mine] = e`)": `export function ok(e: [${S}, Mine], i: Row) { const [, mine] = e; mine.approve(i); }`,
  "a typed pattern's second place (`[, mine]: [RunState, Mine]`)": `export function ok([, mine]: [${S}, Mine], i: Row) { mine.approve(i); }`,
};

describe('a tuple element read in its place (session 24)', () => {
  for (const [name, server] of Object.entries(answers)) it(`one sdk-approval finding: ${name}`, () => expect(lint(server)).toBe(1));
  for (const [name, server] of Object.entries(controls)) it(`no sdk-approval finding: ${name}`, () => expect(lint(server)).toBe(0));
});
