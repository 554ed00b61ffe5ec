import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/check/types.js';
import { ANSWERS_LISTED } from '../../src/codemod/app-approvals.js';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * Session 22 (issue 40 item 4, "never a silent break"). Code shape: one package (the app-approvals
 * fixture's tools and manifest) whose app answers close_account's interruptions in several places
 * (`state.approve(item)`, `state.reject(item)`, one a line). check listed each answer as an
 * `sdk-approval` finding, but the codemod's conflict named only the first ("and 2 more"): a person
 * fixing the first came back to the same conflict, one answer at a time. The conflict now lists each
 * place (file:line) in its text and its JSON outcome, the first ANSWERS_LISTED, then how many more.
 */
const SDK = "import { type RunState } from '@openai/agents';";

function app(text: string): string {
  const root = makeTempDir('conflict-answers-');
  dirs.push(root);
  cpSync(path.join(FIXTURES, 'codemod/_shared'), root, { recursive: true });
  cpSync(path.join(FIXTURES, 'codemod/app-approvals/input'), root, { recursive: true });
  writeFileSync(path.join(root, 'src/app.ts'), text);
  return root;
}

/** An app answering in `n` places, one a line from line 6 on. */
const answering = (n: number) =>
  [
    SDK,
    "import { closeAccount } from './tools.js';",
    'export const tools = [closeAccount];',
    '',
    'export function answer(state: RunState<any, any>, item: unknown) {',
    ...Array.from({ length: n }, (_, i) => (i % 2 === 0 ? '  state.approve(item);' : '  state.reject(item);')),
    '}',
    '',
  ].join('\n');

describe("the codemod's conflict lists every answer, as check does", () => {
  it('each answer by file:line in the text and in the JSON outcome, the same places check reports', async () => {
    const root = app(answering(3));
    const text = await cli(['codemod'], { cwd: root });
    for (const line of [6, 7, 8]) expect(text.stdout).toContain(`answered at src/app.ts:${line}:3: state.${line === 7 ? 'reject' : 'approve'}(item)`);
    const json = JSON.parse((await cli(['codemod', '--format', 'json'], { cwd: root })).stdout) as {
      outcome: { conflicts: Array<{ tool: string; answers?: string[]; moreAnswers?: number }> };
    };
    const conflict = json.outcome.conflicts.find((c) => c.tool === 'close_account');
    const check = JSON.parse((await cli(['check', '--format', 'json'], { cwd: root })).stdout) as { findings: Finding[] };
    const reported = check.findings.filter((f) => f.ruleId === 'sdk-approval').map((f) => `${f.file}:${f.line}`);
    expect(conflict?.answers).toEqual(reported);
    expect(conflict?.moreAnswers).toBeUndefined();
  });

  it('the first ANSWERS_LISTED, then how many more', async () => {
    const extra = 3;
    const root = app(answering(ANSWERS_LISTED + extra));
    const text = (await cli(['codemod'], { cwd: root })).stdout;
    // the answers are one a line from line 6
    expect(text).toContain(`answered at src/app.ts:${5 + ANSWERS_LISTED}:`);
    expect(text).not.toContain(`answered at src/app.ts:${6 + ANSWERS_LISTED}:`);
    expect(text).toContain(`and ${extra} more answers`);
    const json = JSON.parse((await cli(['codemod', '--format', 'json'], { cwd: root })).stdout) as {
      outcome: { conflicts: Array<{ tool: string; answers?: string[]; moreAnswers?: number }> };
    };
    const conflict = json.outcome.conflicts.find((c) => c.tool === 'close_account');
    expect(conflict?.answers).toHaveLength(ANSWERS_LISTED);
    expect(conflict?.moreAnswers).toBe(extra);
  });
});
