import { afterAll, describe, it } from 'vitest';
import { approvalsApp, expectAnswerConflict } from '../helpers/approvals-app.js';
import { removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * Red team, session 24 (issue 40 item 4, silent break through the real CLI): an app answering
 * close_account's interruptions through the SDK's `RunState` in four common layouts check does
 * not read (test/check/red24-*.test.ts): a destructured parameter, a `for … of` over the pending
 * answers, a pair tuple `[RunState, RunToolApprovalItem]` and `Extract` of a tagged union. tsc
 * types each receiver as the SDK's `RunState`. The codemod rewrites close_account with
 * "0 conflicts", and every approve/reject of the app is then refused at run time.
 */
const SDK = "import type { RunState } from '@openai/agents';";
const TYPES = {
  'src/types.ts': [
    SDK,
    'export interface Pending { id: string; state: RunState<any, any> }',
    'export interface Review { approve(item: unknown): void }',
    "export type Task = { kind: 'agent'; state: RunState<any, any> } | { kind: 'review'; state: Review };",
    "import type { RunToolApprovalItem } from '@openai/agents';",
    'export type Pair = [RunState<any, any>, RunToolApprovalItem];',
    '',
  ].join('\n'),
};

describe('the codemod keeps close_account where the answer is read in a layout check misses', () => {
  const cases: Record<string, string> = {
    'a destructured parameter (`({ state }: Pending)`)':
      "import type { Pending } from './types.js';\nexport function yes({ state }: Pending, item: unknown) { state.approve(item); }",
    'a `for … of` over the pending answers':
      "import type { Pending } from './types.js';\nexport function yes(ps: Pending[], item: unknown) { for (const p of ps) p.state.approve(item); }",
    'a pair `[RunState, RunToolApprovalItem]` (`e[0].approve(e[1])`)':
      "import type { Pair } from './types.js';\nexport function yes(e: Pair) { e[0].approve(e[1]); }",
    "`Extract` of a tagged union (`Extract<Task, { kind: 'agent' }>`)":
      "import type { Task } from './types.js';\nexport function yes(t: Extract<Task, { kind: 'agent' }>, item: unknown) { t.state.approve(item); }",
  };
  it('control: a conflict naming src/app.ts:7 for `p.state.approve(item)` of a `Pending`', () =>
    expectAnswerConflict(
      approvalsApp(dirs, "import type { Pending } from './types.js';\nexport function yes(p: Pending, item: unknown) { p.state.approve(item); }", TYPES),
    ));
  for (const [name, code] of Object.entries(cases)) it(`a conflict naming src/app.ts:7: ${name}`, () => expectAnswerConflict(approvalsApp(dirs, code, TYPES)));
});
