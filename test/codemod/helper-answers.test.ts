import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/check/types.js';
import { cli } from '../helpers/cli.js';
import { UNTYPED_DECIDE, writeHelperAnswersApp } from '../helpers/helper-answers-app.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * Issue 40 ("no false green"): the app answers its interruptions through a helper,
 * `decide(result.state, item, yes)`, whose parameters are untyped (`any`, or a plain JS file) or
 * typed through an import alias (`RunState as S`). The scanner followed a receiver or an item to a
 * run only within the function, so the codemod removed `needsApproval: true` with "0 conflicts"
 * and check was green, while every approved call of close_account was refused ApprovalMismatch.
 * Now the aliased SDK type is read as the SDK's, and an untyped parameter is taken for a run's
 * state (fail closed), the message saying why.
 */
const ALIASED = [
  "import type { RunState as S, RunToolApprovalItem as I } from '@openai/agents';",
  'export function decide(state: S<any, any>, item: I, yes: boolean): void {',
  '  if (yes) state.approve(item);',
  '  else state.reject(item);',
  '}',
  '',
].join('\n');

function app(decide: string): string {
  const root = makeTempDir('helper-answers-');
  dirs.push(root);
  writeHelperAnswersApp(root, decide);
  return root;
}

describe('the app answers its interruptions through a helper function', () => {
  for (const [name, decide, why] of [
    ['untyped parameters', UNTYPED_DECIDE, '`state` is a parameter typed `any`'],
    ['types imported under another name', ALIASED, undefined],
  ] as const) {
    it(`${name}: the codemod keeps close_account as a conflict naming the helper’s answer`, async () => {
      const root = app(decide);
      const r = await cli(['codemod'], { cwd: root });
      expect(r.stdout).toContain('1 conflicts');
      expect(r.stdout).toContain('src/decide.ts:');
      // the untyped answer says why it is taken for the SDK's; the aliased one is the SDK's exactly
      if (why) expect(r.stdout).toContain(why);
      else expect(r.stdout).not.toContain('is a parameter');
    });

    it(`${name}: after generate and codemod --write, check reports the helper’s answers`, async () => {
      const root = app(decide);
      expect((await cli(['generate'], { cwd: root })).code).toBe(0);
      await cli(['codemod', '--write'], { cwd: root });
      const c = await cli(['check', '--format', 'json'], { cwd: root });
      const findings = (JSON.parse(c.stdout) as { findings: Finding[] }).findings;
      expect(findings.filter((f) => f.ruleId === 'sdk-approval').map((f) => f.file)).toEqual(['src/decide.ts', 'src/decide.ts']);
      expect(c.code).toBe(1);
    });
  }
});
