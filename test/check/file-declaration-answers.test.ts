import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Session 25, answers whose receiver's type is declared at the answering file's top in a way the
 * member reader did not read (issue 40 item 4, silent break): a class (its field, its getter, a
 * base it extends), an interface merged with a class or with itself, an interface extending a
 * global wrapper (`Omit`, `Pick`). Control (no false alarm): the same layouts holding the app's own
 * `RunState` (an engine's) give no finding.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const OWN = "import type { RunState } from './engine.js';";
const ENGINE = 'export interface RunState { approve(x: unknown): void }\n';
const S = 'RunState<any, any>';
const USE = 'export function ok(p: Pending, i: Row) { p.state.approve(i); }';

const lint = (imp: string, server: string) =>
  lintRepo({ 'src/engine.ts': ENGINE, 'src/server.ts': lines(GEN, imp, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' })
    .length;

const layouts: Record<string, string> = {
  "a class's field": lines(`class Pending { state!: ${S} }`, USE),
  "a class's getter": lines(`class Pending { #s!: ${S}; get state(): ${S} { return this.#s; } }`, USE),
  'a field of the base a class of the file extends': lines(`class Base { state!: ${S} }`, 'class Pending extends Base { note = 1 }', USE),
  'an interface merged with a class of one name': lines('class Pending { note = 1 }', `interface Pending { state: ${S} }`, USE),
  'the second of two declarations of one interface': lines('interface Pending { id: string }', `interface Pending { state: ${S} }`, USE),
  "an interface extending `Pick<Job, 'state'>`": lines(
    `interface Job { id: number; state: ${S} }`,
    "interface Pending extends Pick<Job, 'state'> { id: string }",
    USE,
  ),
  "an interface extending `Omit<Job, 'id'>` of a base class": lines(
    `class Job { id = 1; state!: ${S} }`,
    "interface Pending extends Omit<Job, 'id'> { id: string }",
    USE,
  ),
};

describe("a receiver's type declared at the answering file's top (session 25)", () => {
  for (const [name, server] of Object.entries(layouts)) {
    it(`one sdk-approval finding: ${name}`, () => expect(lint(SDK, server)).toBe(1));
    it(`no sdk-approval finding: ${name}, holding the app's own RunState`, () => expect(lint(OWN, server)).toBe(0));
  }
});
