import { afterAll, describe, expect, it } from 'vitest';
import { approvalsApp, expectAnswerConflict } from '../helpers/approvals-app.js';
import { cli } from '../helpers/cli.js';
import { removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * Session 23, answers whose receiver's type is written in another file (issue 40 item 4). Code
 * shape: the app-approvals fixture's tools and manifest, with a server answering close_account's
 * interruptions through `p.state.approve(item)`, `p` typed `Pending` of the app's `types.ts`
 * (`export interface Pending { state: RunState }`), or a field typed with the SDK's `RunState`
 * re-exported by the app's `sdk.ts` (`export type { RunState } from '@openai/agents'`). The codemod
 * rewrote close_account with "0 conflicts". Control: `types.ts` over the app's own `RunState`.
 */
const PENDING = "import type { Pending } from './types.js';\nexport function yes(p: Pending, item: unknown) { p.state.approve(item); }";
const FIELD =
  "import type { RunState } from './sdk.js';\nexport class Desk { private state?: RunState<any, any>; yes(item: unknown) { this.state!.approve(item); } }";

describe('the codemod keeps close_account where its answer is typed in another file', () => {
  const cases: Record<string, { code: string; files: Record<string, string> }> = {
    "a parameter typed with `types.ts`'s `Pending { state: RunState }`": {
      code: PENDING,
      files: { 'src/types.ts': "import type { RunState } from '@openai/agents';\nexport interface Pending { state: RunState<any, any> }\n" },
    },
    "a field typed with `sdk.ts`'s `export type { RunState } from '@openai/agents'`": {
      code: FIELD,
      files: { 'src/sdk.ts': "export type { RunState } from '@openai/agents';\n" },
    },
    'a field of a base class of another file (`class Desk extends BaseDesk`)': {
      code: "import { BaseDesk } from './base.js';\nexport class Desk extends BaseDesk { yes(item: unknown) { this.state!.approve(item); } }",
      files: { 'src/base.ts': "import type { RunState } from '@openai/agents';\nexport class BaseDesk { protected state?: RunState<any, any> }\n" },
    },
    "a tagged union's branch narrowed to the SDK's kind (`types.ts`)": {
      code: "import type { Job } from './types.js';\nexport function yes(j: Job, item: unknown) { if (j.kind === 'paused') j.state.approve(item); }",
      files: {
        'src/types.ts':
          "import type { RunState } from '@openai/agents';\nexport type Job = { kind: 'paused'; state: RunState<any, any> } | { kind: 'review'; state: { approve(x: unknown): void } };\n",
      },
    },
  };
  for (const [name, { code, files }] of Object.entries(cases))
    it(`a conflict naming src/app.ts:7: ${name}`, () => expectAnswerConflict(approvalsApp(dirs, code, files)));

  it("no conflict: `Pending`'s state is the app's own `RunState`", async () => {
    const files = {
      'src/types.ts': "import type { RunState } from './engine.js';\nexport interface Pending { state: RunState }\n",
      'src/engine.ts': 'export interface RunState { approve(x: unknown): void }\n',
    };
    const r = await cli(['codemod'], { cwd: approvalsApp(dirs, PENDING, files) });
    expect(r.stdout).not.toContain('answered at src/app.ts');
    expect(r.stdout).toContain('0 conflicts');
  });
});
