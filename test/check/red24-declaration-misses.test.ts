import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Red team, session 24 (issue 40 item 4, silent break): declarations of the answering file the
 * member reader (written-members.ts `namedMember`/`interfaceMember`) does not read, though it reads
 * the same ones in a function body or in another file: a class declared at the file's top (its
 * field, or a getter), an interface extending such a class, an interface declared twice in the
 * file (declaration merging: the augmentation reader merges across files, not within one), and an
 * interface extending `Omit<Job, 'id'>` (a common way to re-type one member of a base). TypeScript
 * types each receiver as the SDK's `RunState` (checked with tsc against the SDK this repo
 * installs). `sdk-approval` finds nothing, so the codemod rewrites the tool with "0 conflicts" and
 * the answers are refused at run time. Each is one finding.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const S = 'RunState<any, any>';
const lint = (server: string) =>
  lintRepo({ 'src/server.ts': lines(GEN, SDK, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;

const cases: Record<string, string> = {
  "a class of the file's top, its field (`d: Desk`)": lines(`class Desk { state!: ${S} }`, 'export function ok(d: Desk, i: Row) { d.state.approve(i); }'),
  "a class of the file's top, its getter (`get state(): RunState`)": lines(
    `class Desk { #s!: ${S}; get state(): ${S} { return this.#s; } }`,
    'export function ok(d: Desk, i: Row) { d.state.approve(i); }',
  ),
  "an interface extending a class of the file's top": lines(
    `class Base { state!: ${S} }`,
    'interface Pending extends Base { id: string }',
    'export function ok(p: Pending, i: Row) { p.state.approve(i); }',
  ),
  'an interface declared twice in the file (declaration merging)': lines(
    'interface Pending { id: string }',
    `interface Pending { state: ${S} }`,
    'export function ok(p: Pending, i: Row) { p.state.approve(i); }',
  ),
  "an interface extending `Omit<Job, 'id'>`": lines(
    `interface Job { id: number; state: ${S} }`,
    "interface Pending extends Omit<Job, 'id'> { id: string }",
    'export function ok(p: Pending, i: Row) { p.state.approve(i); }',
  ),
};

describe('declarations of the answering file the member reader does not read (red team, session 24)', () => {
  for (const [name, server] of Object.entries(cases)) it(`one sdk-approval finding: ${name}`, () => expect(lint(server)).toBe(1));
});
