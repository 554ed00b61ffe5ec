import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/** A local holding the result of a function the file declares with a written return type (declared-returns.ts). */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const TYPES = lines('interface Review { approve(i: Row): void }', 'interface Pending { state: RunState<any, any> }', 'interface Mine { state: Review }');
const lint = (server: string) =>
  lintRepo({ 'src/server.ts': lines(GEN, SDK, TYPES, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;

describe("a local holding a declared function's result", () => {
  it.each([
    [
      'a function with a body',
      lines('function load(): Pending { return {} as Pending; }', 'export function ok(i: Row) { const p = load(); p.state.approve(i); }'),
    ],
    [
      '`await` of a `Promise`',
      lines('declare function load(): Promise<Pending>;', 'export async function ok(i: Row) { const p = await load(); p.state.approve(i); }'),
    ],
    ['the state itself', lines('declare function get(): RunState<any, any>;', 'export function ok(i: Row) { const s = get(); s.approve(i); }')],
  ])('one sdk-approval finding: %s', (_, server) => expect(lint(server)).toBe(1));

  it.each([
    ["the app's own type", lines('declare function load(): Mine;', 'export function ok(i: Row) { const p = load(); p.state.approve(i); }')],
    [
      "`await` of a `Promise` of the app's own",
      lines('declare function load(): Promise<Mine>;', 'export async function ok(i: Row) { const p = await load(); p.state.approve(i); }'),
    ],
    [
      'a local arrow hiding the file’s function',
      lines('declare function load(): Pending;', 'export function ok(m: Mine, i: Row) { const load = () => m; const p = load(); p.state.approve(i); }'),
    ],
  ])('no sdk-approval finding: %s', (_, server) => expect(lint(server)).toBe(0));
});
