import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * Session 23, the red team's findings (issue 40 item 4), through the real CLI: the app-approvals fixture with a
 * server answering close_account's interruptions through a type another file writes. Where the
 * state is the SDK's, the codemod must leave close_account as a conflict (a rewrite with "0
 * conflicts" is the silent break); where it is the app's own, no conflict (a false alarm keeps a
 * tool open for nothing).
 */
const HEAD = [
  "import { Agent } from '@openai/agents';",
  "import { closeAccount, lookupCharge } from './tools.js';",
  '',
  "export const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: [closeAccount, lookupCharge] });",
  '',
];
const SDK = "import type { RunState } from '@openai/agents';\n";

function app(text: string, files: Record<string, string>, tsconfig?: object): string {
  const root = makeTempDir('other-file-layout-');
  dirs.push(root);
  cpSync(path.join(FIXTURES, 'codemod/_shared'), root, { recursive: true });
  cpSync(path.join(FIXTURES, 'codemod/app-approvals/input'), root, { recursive: true });
  writeFileSync(path.join(root, 'src/app.ts'), [...HEAD, text, ''].join('\n'));
  for (const [rel, t] of Object.entries(files)) writeFileSync(path.join(root, rel), t);
  if (tsconfig) writeFileSync(path.join(root, 'tsconfig.json'), JSON.stringify(tsconfig));
  return root;
}

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
    it(`a conflict naming src/app.ts:7: ${name}`, async () => {
      const r = await cli(['codemod'], { cwd: app(code, files, tsconfig) });
      expect(r.stdout).toContain('answered at src/app.ts:7:');
      expect(r.stdout).toContain('1 conflicts');
      expect(r.code).toBe(1);
    });
});

describe("no conflict over the app's own RunState a barrel declares beside its `export *` of the SDK", () => {
  const owns: Record<string, string> = {
    'an interface': "export * from '@openai/agents';\nexport interface RunState { approve(x: unknown): void }\n",
    'a class, the state a parameter': "export * from '@openai/agents';\nexport class RunState { approve(x: unknown) {} }\n",
  };
  for (const [name, barrel] of Object.entries(owns))
    it(name, async () => {
      const code = "import type { RunState } from './sdk.js';\nexport function yes(s: RunState, item: unknown) { s.approve(item); }";
      const r = await cli(['codemod'], { cwd: app(code, { 'src/sdk.ts': barrel }) });
      expect(r.stdout).not.toContain('answered at src/app.ts');
      expect(r.stdout).toContain('0 conflicts');
    });
});
