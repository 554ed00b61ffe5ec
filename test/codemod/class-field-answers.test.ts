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
 * Issue 40 item 4 (was red21-class-field-answers). Code shape: one package (the app-approvals fixture's tools and
 * manifest) whose chat session is a class, as a server keeping one conversation per user writes
 * it: `send()` stores the paused run's `result.state` and `result.interruptions` in typed fields
 * (`private state?: RunState<…>`, `private pending: RunToolApprovalItem[]`), and `approveAll()`, called
 * when the person clicks "approve", answers with `this.state!.approve(item)` over `this.pending`.
 * The scanner followed a receiver or an item to a run only through locals and parameters, not a
 * class's fields, whatever their declared type, so the codemod rewrites close_account with
 * "0 conflicts" and check is then green; at run time every approved call of close_account is
 * refused ApprovalMismatch. Control: the same method reading the field into a local typed
 * `RunState` is seen.
 */
const CLASS = (approve: string) =>
  [
    "import { Agent, run, type RunState, type RunToolApprovalItem } from '@openai/agents';",
    "import { closeAccount, lookupCharge } from './tools.js';",
    '',
    "const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: [closeAccount, lookupCharge] });",
    '',
    '/** One conversation: a paused run waits here until the person answers. */',
    'export class DeskSession {',
    '  private state?: RunState<any, any>;',
    '  private pending: RunToolApprovalItem[] = [];',
    '',
    '  async send(text: string) {',
    "    const result = await run(desk, text, { context: { user: 'ana' } });",
    '    this.state = result.state;',
    '    this.pending = result.interruptions;',
    '    return this.pending.map((item) => item.name);',
    '  }',
    '',
    '  async approveAll() {',
    approve,
    '    return run(desk, this.state!);',
    '  }',
    '}',
    '',
  ].join('\n');

function app(text: string): string {
  const root = makeTempDir('class-field-');
  dirs.push(root);
  cpSync(path.join(FIXTURES, 'codemod/_shared'), root, { recursive: true });
  cpSync(path.join(FIXTURES, 'codemod/app-approvals/input'), root, { recursive: true });
  writeFileSync(path.join(root, 'src/app.ts'), text);
  return root;
}

describe('a class answers with this.state.approve(item) over a field of interruptions', () => {
  it('the codemod keeps close_account as a conflict naming src/app.ts', async () => {
    const r = await cli(['codemod'], { cwd: app(CLASS('    for (const item of this.pending) this.state!.approve(item);')) });
    expect(r.stdout).toContain('1 conflicts');
    expect(r.stdout).toContain('src/app.ts:19');
    expect(r.code).toBe(1);
  });

  it('after generate and codemod --write, check is not green', async () => {
    const root = app(CLASS('    for (const item of this.pending) this.state!.approve(item);'));
    expect((await cli(['generate'], { cwd: root })).code).toBe(0);
    await cli(['codemod', '--write'], { cwd: root });
    const c = await cli(['check', '--format', 'json'], { cwd: root });
    const findings = (JSON.parse(c.stdout) as { findings: Finding[] }).findings;
    expect(findings.filter((f) => f.ruleId === 'sdk-approval').map((f) => `${f.file}:${f.line}`)).toEqual(['src/app.ts:19']);
    expect(c.code).toBe(1);
  });

  // control: the field read into a local typed RunState is the SDK's
  it('control: `const state: RunState<any, any> = this.state!` then state.approve(item) is kept as a conflict', async () => {
    const r = await cli(['codemod'], {
      cwd: app(CLASS('    const state: RunState<any, any> = this.state!;\n    for (const item of this.pending) state.approve(item);')),
    });
    expect(r.stdout).toContain('1 conflicts');
    expect(r.stdout).toContain('src/app.ts:20');
  });
});
