import { afterAll, describe, expect, it } from 'vitest';
import { approvalsApp, expectAnswerConflict } from '../helpers/approvals-app.js';
import { cli } from '../helpers/cli.js';
import { removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * Session 24, answers whose receiver's SDK state sits inside a type shape written in another file
 * (issue 40 item 4): an intersection, an array element, a `Record`'s value, a generic given the
 * state. Code shape: the app-approvals fixture's tools and manifest, with a server answering
 * close_account's interruptions through the shape. Without the shape reader the codemod rewrote
 * close_account with "0 conflicts", and every approve/reject of the app would be refused at run
 * time. Control: the same shape over the app's own `RunState`.
 */
const SDK = "import type { RunState } from '@openai/agents';";

describe('the codemod keeps close_account where its answer reads the SDK state through a type shape', () => {
  const cases: Record<string, { code: string; files: Record<string, string> }> = {
    'an intersection (`{ id: string } & { state: RunState }`)': {
      code: "import type { Pending } from './types.js';\nexport function yes(p: Pending, item: unknown) { p.state.approve(item); }",
      files: { 'src/types.ts': `${SDK}\nexport type Pending = { id: string } & { state: RunState<any, any> };\n` },
    },
    'an array element (`ps[0].state`)': {
      code: "import type { Pending } from './types.js';\nexport function yes(ps: Pending[], item: unknown) { ps[0].state.approve(item); }",
      files: { 'src/types.ts': `${SDK}\nexport interface Pending { state: RunState<any, any> }\n` },
    },
    "a Record's value (`states[id]`)": {
      code: "import type { States } from './types.js';\nexport function yes(states: States, id: string, item: unknown) { states[id].approve(item); }",
      files: { 'src/types.ts': `${SDK}\nexport type States = Record<string, RunState<any, any>>;\n` },
    },
    'a generic given the state (`Box<RunState>`)': {
      code: `${SDK} import type { Box } from './types.js';\nexport function yes(p: Box<RunState<any, any>>, item: unknown) { p.state.approve(item); }`,
      files: { 'src/types.ts': 'export interface Box<T> { state: T }\n' },
    },
  };
  for (const [name, { code, files }] of Object.entries(cases))
    it(`a conflict naming src/app.ts:7: ${name}`, () => expectAnswerConflict(approvalsApp(dirs, code, files)));

  it("no conflict: the Record's value is the app's own `RunState`", async () => {
    const files = {
      'src/types.ts': "import type { RunState } from './engine.js';\nexport type States = Record<string, RunState>;\n",
      'src/engine.ts': 'export interface RunState { approve(x: unknown): void }\n',
    };
    const code = "import type { States } from './types.js';\nexport function yes(states: States, id: string, item: unknown) { states[id].approve(item); }";
    const r = await cli(['codemod'], { cwd: approvalsApp(dirs, code, files) });
    expect(r.stdout).not.toContain('answered at src/app.ts');
    expect(r.stdout).toContain('0 conflicts');
  });
});
