import { cpSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/paths.js';
import { eslintWith } from './helpers.js';

/**
 * Red team (session 22, scan/repo.ts `moduleReaders().ownType`): the app's own RunState is decided
 * from the imported module as the repo scan parsed it when the session began. An editor session
 * that sees the module change (linted with its new text, and saved) so that it now re-exports the
 * SDK's RunState still takes the helper's parameter for the app's own type: no sdk-approval in the
 * editor, where `check` reports it. The session's stated contract: other files are seen "as ESLint
 * last linted them".
 */
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const HELPER = [
  "import { protectedTool } from './ctrlrun.generated.js';",
  "import type { RunState } from './workflow.js';",
  'export function go(state: RunState, step: unknown) { state.approve(step); }',
  '',
].join('\n');

const approvals = (messages: Array<{ ruleId: string | null }>) => messages.filter((m) => m.ruleId === 'ctrlrun/sdk-approval');

function repo(workflowText: string): { dir: string; workflow: string; helper: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-eslint-own-type-'));
  dirs.push(dir);
  cpSync(path.join(FIXTURES, 'check', 'open-doors', 'repo'), dir, { recursive: true });
  const workflow = path.join(dir, 'src/workflow.ts');
  const helper = path.join(dir, 'src/helper.ts');
  writeFileSync(workflow, workflowText);
  writeFileSync(helper, HELPER);
  return { dir, workflow, helper };
}

const SDK_REEXPORT = "export type { RunState } from '@openai/agents';\n";

describe("a helper's RunState module edited during an editor session", () => {
  it('control: a session begun with the re-export reports the answer', async () => {
    const { dir, helper } = repo(SDK_REEXPORT);
    const [result] = await eslintWith(dir).lintText(HELPER, { filePath: helper });
    expect(approvals(result!.messages)).toHaveLength(1);
  });

  it("reports the answer once the module re-exports the SDK's RunState", async () => {
    const { dir, workflow, helper } = repo('export interface RunState { approve(step: unknown): void }\n');
    const eslint = eslintWith(dir);
    const [before] = await eslint.lintText(HELPER, { filePath: helper });
    expect(approvals(before!.messages)).toEqual([]);

    // the module now hands out the SDK's RunState: linted with its new text, and saved
    await eslint.lintText(SDK_REEXPORT, { filePath: workflow });
    writeFileSync(workflow, SDK_REEXPORT);
    const t = new Date(Date.now() + 5000);
    utimesSync(workflow, t, t);
    const [after] = await eslint.lintText(readFileSync(helper, 'utf8'), { filePath: helper });
    expect(approvals(after!.messages)).toHaveLength(1);
  });

  it('reads the latest text when the module is edited twice: back to its own interface, no answer', async () => {
    const OWN = 'export interface RunState { approve(step: unknown): void }\n';
    const { dir, workflow, helper } = repo(OWN);
    const eslint = eslintWith(dir);
    await eslint.lintText(SDK_REEXPORT, { filePath: workflow });
    const [between] = await eslint.lintText(HELPER, { filePath: helper });
    expect(approvals(between!.messages)).toHaveLength(1);
    await eslint.lintText(OWN, { filePath: workflow });
    const [after] = await eslint.lintText(HELPER, { filePath: helper });
    expect(approvals(after!.messages)).toEqual([]);
  });
});
