import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/check/types.js';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * Issue 40 items 3 and 4 (a false alarm, was red21-inferred-callback-approve). Code shape: an app whose agent runs tools it
 * protects and never answers an interruption itself (src/app.ts runs the desk and returns its
 * output), and whose own domain has approvals, as the apps these rules gate often do: src/review.ts,
 * which imports nothing of the SDK, approves expense reviews with
 * `reviews.map((review) => review.approve(reviewer))` over `reviews: Review[]`. The arrow's
 * parameter carries no annotation, yet TypeScript types it from the array (`Review`); the scanner
 * takes any parameter without an annotation for a run's state (session 20, "plain JavaScript,
 * `any`, `unknown`"), so the codemod keeps close_account unprotected as a conflict ("the app answers
 * its approvals itself") and check reports `sdk-approval` errors on code that has nothing to do
 * with the SDK. Control: the same call with the parameter annotated `(review: Review)` is quiet.
 */
const NO_ANSWER = [
  "import { Agent, run } from '@openai/agents';",
  "import { closeAccount, lookupCharge } from './tools.js';",
  '',
  "const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: [closeAccount, lookupCharge] });",
  '',
  'export async function answer(text: string) {',
  "  return (await run(desk, text, { context: { user: 'ana' } })).finalOutput;",
  '}',
  '',
].join('\n');

const REVIEW = (param: string) =>
  [
    'export interface Review {',
    '  id: string;',
    '  approve(by: string): Promise<void>;',
    '}',
    '',
    '/** A manager approves a batch of expense reviews at once. */',
    'export async function approveAll(reviews: Review[], reviewer: string) {',
    `  await Promise.all(reviews.map((${param}) => review.approve(reviewer)));`,
    '}',
    '',
  ].join('\n');

function app(param: string): string {
  const root = makeTempDir('callback-param-');
  dirs.push(root);
  cpSync(path.join(FIXTURES, 'codemod/_shared'), root, { recursive: true });
  cpSync(path.join(FIXTURES, 'codemod/app-approvals/input'), root, { recursive: true });
  writeFileSync(path.join(root, 'src/app.ts'), NO_ANSWER);
  writeFileSync(path.join(root, 'src/review.ts'), REVIEW(param));
  return root;
}

const sdkApprovals = async (cwd: string) => {
  const c = await cli(['check', '--format', 'json'], { cwd });
  return (JSON.parse(c.stdout) as { findings: Finding[] }).findings.filter((f) => f.ruleId === 'sdk-approval').map((f) => `${f.file}:${f.line}`);
};

describe('an app’s own review.approve(reviewer) in a callback whose parameter TypeScript types from the array', () => {
  it('the codemod rewrites both tools with 0 conflicts (the app answers no interruption)', async () => {
    const r = await cli(['codemod'], { cwd: app('review') });
    expect(r.stdout).toContain('0 conflicts');
    expect(r.stdout).not.toContain('src/review.ts');
    expect(r.code).toBe(0);
  });

  it('check reports no sdk-approval on src/review.ts, before and after the codemod', async () => {
    const root = app('review');
    expect(await sdkApprovals(root)).toEqual([]);
    expect((await cli(['generate'], { cwd: root })).code).toBe(0);
    await cli(['codemod', '--write'], { cwd: root });
    expect(await sdkApprovals(root)).toEqual([]);
  });

  // control: the parameter annotated (passes on dep21)
  it('control: `(review: Review) => review.approve(reviewer)` is not taken for an SDK answer', async () => {
    const root = app('review: Review');
    const r = await cli(['codemod'], { cwd: root });
    expect(r.stdout).toContain('0 conflicts');
    expect(await sdkApprovals(root)).toEqual([]);
  });
});
