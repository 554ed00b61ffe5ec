import { cpSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/paths.js';
import { AUG, HELPER, NO_AUG, OWN_STATE, SDK_STATE, TYPES } from './augmentation-app.js';
import { eslintWith } from './helpers.js';

/**
 * Session 24 (issue 40 item 4): the answer's `Pending` (types.ts) gets its `state` from another
 * file's `declare module './types.js'` augmentation (aug.ts). An editor's edit of aug.ts, or of the
 * module aug.ts takes its RunState from, changes what the helper's answer is: the session must
 * scan the helper again, as `check` would read the repo afresh.
 */
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const approvals = (messages: Array<{ ruleId: string | null }>) => messages.filter((m) => m.ruleId === 'ctrlrun/sdk-approval');

function repo(aug: string, state: string) {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-eslint-augmentation-'));
  dirs.push(dir);
  cpSync(path.join(FIXTURES, 'check', 'open-doors', 'repo'), dir, { recursive: true });
  const file = (rel: string, text: string) => {
    const abs = path.join(dir, rel);
    writeFileSync(abs, text);
    return abs;
  };
  file('src/types.ts', TYPES);
  return { dir, aug: file('src/aug.ts', aug), state: file('src/state.ts', state), helper: file('src/helper.ts', HELPER) };
}

/** Lints `text` as the new `abs` in the session and saves it, as an editor does. */
async function edit(eslint: ReturnType<typeof eslintWith>, abs: string, text: string) {
  await eslint.lintText(text, { filePath: abs });
  writeFileSync(abs, text);
  const t = new Date(Date.now() + 5000);
  utimesSync(abs, t, t);
}

async function helperApprovals(eslint: ReturnType<typeof eslintWith>, helper: string) {
  const [result] = await eslint.lintText(HELPER, { filePath: helper });
  return approvals(result!.messages).length;
}

describe('an augmentation edited during an editor session', () => {
  it("control: a session begun with the augmentation of the SDK's state reports the answer", async () => {
    const { dir, helper } = repo(AUG, SDK_STATE);
    expect(await helperApprovals(eslintWith(dir), helper)).toBe(1);
  });

  it('reports the answer once the augmentation is written', async () => {
    const { dir, aug, helper } = repo(NO_AUG, SDK_STATE);
    const eslint = eslintWith(dir);
    expect(await helperApprovals(eslint, helper)).toBe(0);
    await edit(eslint, aug, AUG);
    expect(await helperApprovals(eslint, helper)).toBe(1);
  });

  it('reports no answer once the augmentation is taken out', async () => {
    const { dir, aug, helper } = repo(AUG, SDK_STATE);
    const eslint = eslintWith(dir);
    expect(await helperApprovals(eslint, helper)).toBe(1);
    await edit(eslint, aug, NO_AUG);
    expect(await helperApprovals(eslint, helper)).toBe(0);
  });

  it("reports the answer once the module the augmentation reads hands out the SDK's RunState", async () => {
    const { dir, state, helper } = repo(AUG, OWN_STATE);
    const eslint = eslintWith(dir);
    expect(await helperApprovals(eslint, helper)).toBe(0);
    await edit(eslint, state, SDK_STATE);
    expect(await helperApprovals(eslint, helper)).toBe(1);
  });
});
