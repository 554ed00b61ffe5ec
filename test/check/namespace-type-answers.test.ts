import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/** A type a `namespace` of the file declares, named `App.Pending` (written-members.ts `namespaceDeclaration`). */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const REVIEW = 'interface Review { approve(i: Row): void }';
const lint = (server: string) =>
  lintRepo({ 'src/server.ts': lines(GEN, SDK, REVIEW, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;

describe('a type of a namespace the file declares', () => {
  it.each([
    [
      'an alias',
      lines('namespace App { export type Pending = { state: RunState<any, any> } }', 'export function ok(p: App.Pending, i: Row) { p.state.approve(i); }'),
    ],
    [
      'a generic interface given the state',
      lines('namespace App { export interface Box<S> { state: S } }', 'export function ok(p: App.Box<RunState<any, any>>, i: Row) { p.state.approve(i); }'),
    ],
    ['a class', lines('namespace App { export class Desk { state!: RunState<any, any> } }', 'export function ok(p: App.Desk, i: Row) { p.state.approve(i); }')],
  ])('one sdk-approval finding: %s', (_, server) => expect(lint(server)).toBe(1));

  it.each([
    [
      "the app's own state",
      lines('namespace App { export interface Pending { state: Review } }', 'export function ok(p: App.Pending, i: Row) { p.state.approve(i); }'),
    ],
    [
      'a generic interface given the app’s own',
      lines('namespace App { export interface Box<S> { state: S } }', 'export function ok(p: App.Box<Review>, i: Row) { p.state.approve(i); }'),
    ],
  ])('no sdk-approval finding: %s', (_, server) => expect(lint(server)).toBe(0));
});
