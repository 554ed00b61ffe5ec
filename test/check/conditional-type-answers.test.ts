import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * A conditional type (conditional-types.ts): the branch a literal argument takes; either, when the
 * test is not one of literals, as TypeScript may defer it (fail closed).
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const S = 'RunState<any, any>';
const TYPES = lines(
  'interface Review { approve(i: Row): void }',
  `interface Pending { state: ${S} }`,
  'interface Mine { state: Review }',
  `type StateOf<K> = K extends 'agent' ? ${S} : Review;`,
  "type PendingOf<K> = K extends 'agent' ? Pending : Mine;",
);
const lint = (server: string) =>
  lintRepo({ 'src/server.ts': lines(GEN, SDK, TYPES, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;
const receiver = (type: string) => `export function ok(s: ${type}, i: Row) { s.approve(i); }`;
const member = (type: string) => `export function ok(p: ${type}, i: Row) { p.state.approve(i); }`;

describe('a conditional type', () => {
  it.each([
    ['a string literal taking the SDK branch, as the receiver', receiver("StateOf<'agent'>")],
    ['a string literal taking the SDK branch, through a member', member("PendingOf<'agent'>")],
    ['a number literal', lines(`type ByCode<K> = K extends 1 ? ${S} : Review;`, receiver('ByCode<1>'))],
    ['a boolean literal', lines(`type ByFlag<K> = K extends true ? ${S} : Review;`, receiver('ByFlag<true>'))],
    ['an argument that is no literal, as the receiver (either branch)', receiver('StateOf<string>')],
    ['an argument that is no literal, through a member (either branch)', member('PendingOf<string>')],
    [
      'a union as the tested type written in place (no distribution)',
      lines(`type Both = 'agent' | 'review' extends 'review' ? Review : ${S};`, receiver('Both')),
    ],
    ['an alias of the conditional', lines("type AgentState = StateOf<'agent'>;", receiver('AgentState'))],
    ['in a union with `undefined`', receiver("StateOf<'agent'> | undefined")],
    ['written in place in a union', receiver(`('agent' extends 'agent' ? ${S} : Review) | undefined`)],
    // a bare type parameter distributes: `Review | RunState`, an untested union that may be the SDK's (fails closed)
    [
      'a union argument, each alternative taking its branch',
      lines(`type ByKind<K> = K extends 'review' ? Review : ${S};`, receiver("ByKind<'agent' | 'review'>")),
    ],
  ])('one sdk-approval finding: %s', (_, server) => expect(lint(server)).toBe(1));

  it.each([
    ['a string literal taking the app’s branch, as the receiver', receiver("StateOf<'review'>")],
    ['a string literal taking the app’s branch, through a member', member("PendingOf<'review'>")],
    ['a number literal taking the app’s branch', lines(`type ByCode<K> = K extends 1 ? ${S} : Review;`, receiver('ByCode<2>'))],
    ['a boolean literal taking the app’s branch', lines(`type ByFlag<K> = K extends true ? ${S} : Review;`, receiver('ByFlag<false>'))],
    [
      'a parenthesized union of literals taking the app’s branch',
      lines(`type ByPair<K> = K extends ('agent' | 'tool') ? ${S} : Review;`, receiver("ByPair<'review'>")),
    ],
    ['an argument that is no literal, neither branch the SDK’s', lines('type OwnOf<K> = K extends 1 ? Review : Mine;', receiver('OwnOf<number>'))],
  ])('no sdk-approval finding: %s', (_, server) => expect(lint(server)).toBe(0));
});
