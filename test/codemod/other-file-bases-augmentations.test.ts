import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * Session 24 (issue 40 item 4), through the real CLI: the app-approvals fixture with a server
 * answering close_account's interruptions through an interface whose `state` another file writes:
 * a base it extends, or a `declare module` augmentation. The SDK's state there leaves close_account
 * a conflict (a rewrite with "0 conflicts" is the silent break); the app's own, no conflict.
 */
const HEAD = [
  "import { Agent } from '@openai/agents';",
  "import { closeAccount, lookupCharge } from './tools.js';",
  '',
  "export const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: [closeAccount, lookupCharge] });",
  '',
];
const SDK = "import type { RunState } from '@openai/agents';\n";
const OWN = 'export interface RunState<A = unknown, B = unknown> { approve(x: unknown): void; a?: A; b?: B }\n';
const CODE = "import type { Pending } from './types.js';\nexport function yes(p: Pending, item: unknown) { p.state.approve(item); }";

function app(files: Record<string, string>): string {
  const root = makeTempDir('other-file-bases-');
  dirs.push(root);
  cpSync(path.join(FIXTURES, 'codemod/_shared'), root, { recursive: true });
  cpSync(path.join(FIXTURES, 'codemod/app-approvals/input'), root, { recursive: true });
  writeFileSync(path.join(root, 'src/app.ts'), [...HEAD, CODE, ''].join('\n'));
  for (const [rel, t] of Object.entries(files)) writeFileSync(path.join(root, rel), t);
  return root;
}

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
    it(`a conflict naming src/app.ts:7: ${name}`, async () => {
      const r = await cli(['codemod'], { cwd: app(files) });
      expect(r.stdout).toContain('answered at src/app.ts:7:');
      expect(r.stdout).toContain('1 conflicts');
      expect(r.code).toBe(1);
    });
});

describe("no conflict over the app's own RunState a base or an augmentation writes", () => {
  for (const [name, files] of Object.entries(layouts(OWN)))
    it(name, async () => {
      const r = await cli(['codemod'], { cwd: app(files) });
      expect(r.stdout).not.toContain('answered at src/app.ts');
      expect(r.stdout).toContain('0 conflicts');
    });
});
