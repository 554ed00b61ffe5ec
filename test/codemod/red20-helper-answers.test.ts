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
 * Red team, session 20 ("no false green"): the app answers its interruptions through a helper,
 * `decide(result.state, item, yes)`, whose parameters are untyped (`any`, or a plain JS file) or
 * typed through an import alias (`RunState as S`). The scanner takes `state.approve(item)` for the
 * SDK's only when it can follow the receiver or the item to a run (scan/approvals.ts), and it does
 * not follow a parameter to its call sites, nor an aliased type. So the codemod removes
 * `needsApproval: true` with "0 conflicts" and check is then green, while every approved call of
 * close_account is refused ApprovalMismatch: issue 40 item 4, in one package.
 */
const APP = [
  "import { Agent, run } from '@openai/agents';",
  "import { closeAccount, lookupCharge } from './tools.js';",
  "import { decide } from './decide.js';",
  '',
  "const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: [closeAccount, lookupCharge] });",
  '',
  'export async function answer(text: string, ok: (tool: string) => Promise<boolean>) {',
  "  let result = await run(desk, text, { context: { user: 'ana' } });",
  '  while (result.interruptions.length > 0) {',
  "    for (const item of result.interruptions) decide(result.state, item, await ok(item.name ?? ''));",
  '    result = await run(desk, result.state);',
  '  }',
  '  return result.finalOutput;',
  '}',
  '',
].join('\n');

const UNTYPED = [
  'export function decide(state: any, item: any, yes: boolean): void {',
  '  if (yes) state.approve(item);',
  '  else state.reject(item);',
  '}',
  '',
].join('\n');

const ALIASED = [
  "import type { RunState as S, RunToolApprovalItem as I } from '@openai/agents';",
  'export function decide(state: S<any, any>, item: I, yes: boolean): void {',
  '  if (yes) state.approve(item);',
  '  else state.reject(item);',
  '}',
  '',
].join('\n');

function app(decide: string): string {
  const root = makeTempDir('red20-helper-');
  dirs.push(root);
  cpSync(path.join(FIXTURES, 'codemod/_shared'), root, { recursive: true });
  cpSync(path.join(FIXTURES, 'codemod/app-approvals/input/ctrlrun.tools.yaml'), path.join(root, 'ctrlrun.tools.yaml'));
  cpSync(path.join(FIXTURES, 'codemod/app-approvals/input/src/tools.ts'), path.join(root, 'src/tools.ts'));
  writeFileSync(path.join(root, 'src/app.ts'), APP);
  writeFileSync(path.join(root, 'src/decide.ts'), decide);
  return root;
}

describe('red20: the app answers its interruptions through a helper function', () => {
  for (const [name, decide] of [
    ['untyped parameters', UNTYPED],
    ['types imported under another name', ALIASED],
  ] as const) {
    it(`${name}: the codemod keeps close_account as a conflict naming the helper’s answer`, async () => {
      const root = app(decide);
      const r = await cli(['codemod'], { cwd: root });
      expect(r.stdout).toContain('1 conflicts');
      expect(r.stdout).toContain('src/decide.ts:');
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
