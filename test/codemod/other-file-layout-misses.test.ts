import { afterAll, describe, it } from 'vitest';
import { approvalsApp, expectAnswerConflict, expectNoAnswerConflict } from '../helpers/approvals-app.js';
import { removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * Session 23, the red team's findings (issue 40 item 4), through the real CLI: the app-approvals fixture with a
 * server answering close_account's interruptions through a type another file writes. Where the
 * state is the SDK's, the codemod must leave close_account as a conflict (a rewrite with "0
 * conflicts" is the silent break); where it is the app's own, no conflict (a false alarm keeps a
 * tool open for nothing).
 */
const SDK = "import type { RunState } from '@openai/agents';\n";

const PENDING = (from: string, form = '{ Pending }') =>
  `import type ${form} from '${from}';\nexport function yes(p: Pending, item: unknown) { p.state.approve(item); }`;

describe("the codemod keeps close_account answered through the SDK's state in another file", () => {
  const cases: Record<string, { code: string; files: Record<string, string>; tsconfig?: object }> = {
    'a declaration file `types.d.ts`': {
      code: PENDING('./types.js'),
      files: { 'src/types.d.ts': `${SDK}export interface Pending { state: RunState<any, any> }\n` },
    },
    'a default-exported interface': {
      code: PENDING('./types.js', 'Pending'),
      files: { 'src/types.ts': `${SDK}export default interface Pending { state: RunState<any, any> }\n` },
    },
    'a tsconfig `paths` alias to the types file (`@app/types`)': {
      code: PENDING('@app/types'),
      files: { 'src/types.ts': `${SDK}export interface Pending { state: RunState<any, any> }\n` },
      tsconfig: {
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          types: [],
          paths: { '@app/*': ['./src/*'] },
        },
        include: ['src'],
      },
    },
  };
  for (const [name, { code, files, tsconfig }] of Object.entries(cases))
    it(`a conflict naming src/app.ts:7: ${name}`, () => expectAnswerConflict(approvalsApp(dirs, code, files, tsconfig)));
});

describe("no conflict over the app's own RunState a barrel declares beside its `export *` of the SDK", () => {
  const owns: Record<string, string> = {
    'an interface': "export * from '@openai/agents';\nexport interface RunState { approve(x: unknown): void }\n",
    'a class, the state a parameter': "export * from '@openai/agents';\nexport class RunState { approve(x: unknown) {} }\n",
  };
  for (const [name, barrel] of Object.entries(owns))
    it(name, async () => {
      const code = "import type { RunState } from './sdk.js';\nexport function yes(s: RunState, item: unknown) { s.approve(item); }";
      await expectNoAnswerConflict(approvalsApp(dirs, code, { 'src/sdk.ts': barrel }));
    });
});
