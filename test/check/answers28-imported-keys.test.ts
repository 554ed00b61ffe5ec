import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';
import { TOOLS } from './red27-apps.js';

/**
 * The SDK's answer by a key another module exports, or an enum member (issue 40 item 4, the forms
 * of sdk-approval still silent after session 27): `state[APPROVE](item)` with `export const
 * APPROVE = 'approve'` elsewhere, `state[Verdict.Approve](item)`. On a helper's untyped receiver
 * only a key read as naming an answer counts, so these were silent; and the answering file holds
 * no token of the prefilter, so it was not even parsed.
 */

/** The keys' module: a const, an enum and an `as const` object, each with an answer and another word. */
const KEYS = lines(
  "export const APPROVE = 'approve';",
  "export const YES = 'yes';",
  "export enum Verdict { Approve = 'approve', Reject = 'reject', Hold = 'hold' }",
  "export const KEYS = { yes: 'approve', wait: 'hold' } as const;",
);

/** A helper answering with `state[key](item)` on an untyped receiver; the call at line `head.length + 2`. */
const helper = (key: string, ...head: string[]): Record<string, string> => ({
  'src/tools.ts': TOOLS,
  'src/keys.ts': KEYS,
  'src/answer.ts': lines(...head, 'export function answer(state: any, item: any) {', `  state[${key}](item);`, '}'),
});

const found = (files: Record<string, string>) => lintRepo(files, { project: testProject(), ruleId: 'sdk-approval', file: 'src/answer.ts' }).map((f) => f.line);

describe('sdk-approval: an answer by a key held in an imported const or an enum member', () => {
  const reported: Record<string, [Record<string, string>, number]> = {
    'an imported const (`state[APPROVE](item)`)': [helper('APPROVE', "import { APPROVE } from './keys.js';"), 3],
    'an imported const under another name (`import { APPROVE as OK }`)': [helper('OK', "import { APPROVE as OK } from './keys.js';"), 3],
    'a member of an imported enum (`state[Verdict.Approve](item)`)': [helper('Verdict.Approve', "import { Verdict } from './keys.js';"), 3],
    'a member of an imported enum, reject (`state[Verdict.Reject](item)`)': [helper('Verdict.Reject', "import { Verdict } from './keys.js';"), 3],
    'a member of an enum of the file': [helper('V.Approve', "enum V { Approve = 'approve' }"), 3],
    'a property of an imported `as const` object (`state[KEYS.yes](item)`)': [helper('KEYS.yes', "import { KEYS } from './keys.js';"), 3],
    'a local const holding the imported one (`const k = APPROVE`)': [helper('k', "import { APPROVE } from './keys.js';", 'const k = APPROVE;'), 4],
  };
  for (const [name, [files, line]] of Object.entries(reported)) it(`reported: ${name}`, () => expect(found(files)).toContain(line));

  const silent: Record<string, Record<string, string>> = {
    'an imported const holding another word (`state[YES](item)`)': helper('YES', "import { YES } from './keys.js';"),
    'an imported enum member holding another word (`Verdict.Hold`)': helper('Verdict.Hold', "import { Verdict } from './keys.js';"),
    'a property of an imported object holding another word (`KEYS.wait`)': helper('KEYS.wait', "import { KEYS } from './keys.js';"),
    'a numeric enum member of the file (`V.Approve` is 0)': helper('V.Approve', 'enum V { Approve }'),
    "the app's own class with an `approve` method, by the imported key": {
      'src/tools.ts': TOOLS,
      'src/keys.ts': KEYS,
      'src/answer.ts': lines(
        "import { APPROVE } from './keys.js';",
        'interface Row { id: string }',
        'class Queue { approve(row: Row) { return row.id; } }',
        'const queue = new Queue();',
        'export function answer(row: Row) {',
        '  queue[APPROVE](row);',
        '}',
      ),
    },
  };
  for (const [name, files] of Object.entries(silent)) it(`silent: ${name}`, () => expect(found(files)).toEqual([]));
});

// The same reader (names.ts's `constStringOf`, syntax.ts's enum strings) gives a tool's name: an
// enum member names the tool as a const does, so the tool is mapped (and reported) by that name.
describe('a tool named by an enum member', () => {
  const agent = (head: string[], name: string) =>
    lines(
      "import { tool } from '@openai/agents';",
      "import { z } from 'zod';",
      ...head,
      `export const refund = tool({ name: ${name}, description: 'Refund', parameters: z.object({ id: z.string() }), execute: async ({ id }) => id });`,
    );
  const unprotected = (files: Record<string, string>) =>
    lintRepo(files, { project: testProject(), ruleId: 'unprotected-tool', file: 'src/agent.ts' }).map((f) => f.message);

  it("of the file's enum", () => {
    expect(unprotected({ 'src/agent.ts': agent(["enum Names { Refund = 'refund' }"], 'Names.Refund') }).join()).toContain("'refund'");
  });
  it('of an enum a relative module exports', () => {
    const files = {
      'src/names.ts': "export enum Names { Refund = 'refund' }\n",
      'src/agent.ts': agent(["import { Names } from './names.js';"], 'Names.Refund'),
    };
    expect(unprotected(files).join()).toContain("'refund'");
  });
});
