import { cpSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/paths.js';
import { eslintWith } from './helpers.js';

/**
 * Red team, session 23: the answer's type is read through a chain of the app's files
 * (helper.ts -> index.ts -> types.ts). When types.ts, two files away, is edited in an editor
 * session so that its `Pending` now holds the SDK's RunState, the helper's answer must be reported
 * (as `check` would); the module one hop away is re-read (own-type-module-edited.test.ts).
 */
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const HELPER = [
  "import { protectedTool } from './ctrlrun.generated.js';",
  "import type { Pending } from './index.js';",
  'export function go(p: Pending, step: unknown) { p.state.approve(step); }',
  '',
].join('\n');
const INDEX = "export type { Pending } from './types.js';\n";
const OWN = 'export interface RunState { approve(step: unknown): void }\nexport interface Pending { state: RunState }\n';
const SDK = "import type { RunState } from '@openai/agents';\nexport interface Pending { state: RunState<any, any> }\n";

const approvals = (messages: Array<{ ruleId: string | null }>) => messages.filter((m) => m.ruleId === 'ctrlrun/sdk-approval');

function repo(typesText: string) {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-eslint-red23-chain-'));
  dirs.push(dir);
  cpSync(path.join(FIXTURES, 'check', 'open-doors', 'repo'), dir, { recursive: true });
  const types = path.join(dir, 'src/types.ts');
  const helper = path.join(dir, 'src/helper.ts');
  writeFileSync(types, typesText);
  writeFileSync(path.join(dir, 'src/index.ts'), INDEX);
  writeFileSync(helper, HELPER);
  return { dir, types, helper };
}

describe('a types file two imports away edited during an editor session', () => {
  it('control: a session begun with the SDK state reports the answer', async () => {
    const { dir, helper } = repo(SDK);
    const [result] = await eslintWith(dir).lintText(HELPER, { filePath: helper });
    expect(approvals(result!.messages)).toHaveLength(1);
  });

  it("reports the answer once types.ts holds the SDK's RunState", async () => {
    const { dir, types, helper } = repo(OWN);
    const eslint = eslintWith(dir);
    const [before] = await eslint.lintText(HELPER, { filePath: helper });
    expect(approvals(before!.messages)).toEqual([]);
    await eslint.lintText(SDK, { filePath: types });
    writeFileSync(types, SDK);
    const t = new Date(Date.now() + 5000);
    utimesSync(types, t, t);
    const [after] = await eslint.lintText(readFileSync(helper, 'utf8'), { filePath: helper });
    expect(approvals(after!.messages)).toHaveLength(1);
  });
});
