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
 * Session 22 (issue 40 item 4, "the app keeps working"). Code shape: one package (the app-approvals
 * fixture's tools and manifest) whose conversations a server keeps in a class, in the layouts
 * session 21 left unread: the paused runs in a field map without a written type (`private runs =
 * new Map<string, RunResult<…>>()`, answered `this.runs.get(id)!.state.approve(item)`), the last
 * result in `last?: RunResult<…>` (`this.last!.state.approve(item)`), the state in a base class of
 * the file. The codemod rewrote close_account with "0 conflicts" and check was green; every
 * approved call of close_account was then refused ApprovalMismatch. (conflict-lists-answers.test.ts:
 * the conflict lists every answer.)
 */
const SDK = "import { Agent, run, type RunResult, type RunState, type RunToolApprovalItem } from '@openai/agents';";
const HEAD = [
  SDK,
  "import { closeAccount, lookupCharge } from './tools.js';",
  '',
  "const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: [closeAccount, lookupCharge] });",
  '',
];

const layouts: Record<string, { code: string[]; line: number }> = {
  'a field map of run results, `this.runs.get(id)!.state.approve(item)`': {
    code: [
      'export class Desk {',
      '  private runs = new Map<string, RunResult<any, any>>();',
      '  async send(id: string, text: string) {',
      "    this.runs.set(id, await run(desk, text, { context: { user: 'ana' } }));",
      '  }',
      '  yes(id: string, item: unknown) {',
      '    this.runs.get(id)!.state.approve(item);',
      '  }',
      '}',
    ],
    line: 12,
  },
  '`this.last!.state.approve(item)` of `last?: RunResult`': {
    code: [
      'export class Desk {',
      '  private last?: RunResult<any, any>;',
      '  async send(text: string) {',
      "    this.last = await run(desk, text, { context: { user: 'ana' } });",
      '  }',
      '  yes(item: unknown) {',
      '    this.last!.state.approve(item);',
      '  }',
      '}',
    ],
    line: 12,
  },
  'a state field declared in a base class of the file': {
    code: [
      'class Base {',
      '  protected state?: RunState<any, any>;',
      '}',
      'export class Desk extends Base {',
      '  yes(item: unknown) {',
      '    this.state!.approve(item);',
      '  }',
      '}',
    ],
    line: 11,
  },
};

function app(text: string): string {
  const root = makeTempDir('class-layout-');
  dirs.push(root);
  cpSync(path.join(FIXTURES, 'codemod/_shared'), root, { recursive: true });
  cpSync(path.join(FIXTURES, 'codemod/app-approvals/input'), root, { recursive: true });
  writeFileSync(path.join(root, 'src/app.ts'), text);
  return root;
}

describe('the codemod keeps close_account where a class answers its interruptions', () => {
  for (const [name, { code, line }] of Object.entries(layouts)) {
    it(`a conflict naming src/app.ts:${line}: ${name}`, async () => {
      const r = await cli(['codemod'], { cwd: app([...HEAD, ...code, ''].join('\n')) });
      expect(r.stdout).toContain('1 conflicts');
      expect(r.stdout).toContain(`answered at src/app.ts:${line}:`);
      expect(r.code).toBe(1);
    });
  }

  it('after generate and codemod --write, check reports the answer (a field map of run results)', async () => {
    const { code, line } = layouts['a field map of run results, `this.runs.get(id)!.state.approve(item)`']!;
    const root = app([...HEAD, ...code, ''].join('\n'));
    expect((await cli(['generate'], { cwd: root })).code).toBe(0);
    await cli(['codemod', '--write'], { cwd: root });
    const c = await cli(['check', '--format', 'json'], { cwd: root });
    const findings = (JSON.parse(c.stdout) as { findings: Finding[] }).findings;
    expect(findings.filter((f) => f.ruleId === 'sdk-approval').map((f) => `${f.file}:${f.line}`)).toEqual([`src/app.ts:${line}`]);
    expect(c.code).toBe(1);
  });
});
