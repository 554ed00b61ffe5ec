import { afterAll, describe, it } from 'vitest';
import { approvalsApp, expectAnswerConflict, expectNoAnswerConflict } from '../helpers/approvals-app.js';
import { removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * Session 24 (issue 40 item 4), through the real CLI: the app-approvals fixture with a server
 * answering close_account's interruptions through an interface whose `state` another file writes:
 * a base it extends, or a `declare module` augmentation. The SDK's state there leaves close_account
 * a conflict (a rewrite with "0 conflicts" is the silent break); the app's own, no conflict.
 */
const SDK = "import type { RunState } from '@openai/agents';\n";
const OWN = 'export interface RunState<A = unknown, B = unknown> { approve(x: unknown): void; a?: A; b?: B }\n';
const CODE = "import type { Pending } from './types.js';\nexport function yes(p: Pending, item: unknown) { p.state.approve(item); }";

const layouts = (state: string): Record<string, Record<string, string>> => ({
  'an interface extending a base of another file': {
    'src/base.ts': `${state}export interface Base { state: RunState<any, any> }\n`,
    'src/types.ts': "import type { Base } from './base.js';\nexport interface Pending extends Base { id: string }\n",
  },
  "another file's `declare module` augmentation": {
    'src/types.ts': 'export interface Pending { id: string }\n',
    'src/aug.ts': `${state}declare module './types.js' { interface Pending { state: RunState<any, any> } }\n`,
  },
});

describe("the codemod keeps close_account answered through the SDK's state a base or an augmentation writes", () => {
  for (const [name, files] of Object.entries(layouts(SDK)))
    it(`a conflict naming src/app.ts:7: ${name}`, () => expectAnswerConflict(approvalsApp(dirs, CODE, files)));
});

describe("no conflict over the app's own RunState a base or an augmentation writes", () => {
  for (const [name, files] of Object.entries(layouts(OWN)))
    it(name, async () => {
      await expectNoAnswerConflict(approvalsApp(dirs, CODE, files));
    });
});
