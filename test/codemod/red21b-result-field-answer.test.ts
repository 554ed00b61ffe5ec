import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * Red team 21b, "no false green" (issue 40 item 4), through the CLI. Code shape: the
 * app-approvals fixture's tools with a chat session class that keeps the paused run's RESULT in a
 * typed field (`private last?: RunResult<…>`) and the items by call id in a map made in the field's
 * initialiser (`private pending = new Map<string, RunToolApprovalItem>()`, no written field type),
 * and answers one call when the person clicks: `this.last!.state.approve(this.pending.get(callId)!)`.
 * Session 21 reads a field's written type only when the answer's receiver IS the field
 * (`this.state`), not a member of it (`this.last!.state`), and never a field's initialiser or a
 * map's `get`, so the codemod rewrites close_account with "0 conflicts": every approved
 * close_account is then refused ApprovalMismatch. Control: the state kept in a typed field,
 * `this.state!.approve(...)`, is a conflict.
 */
const APP = (fields: string, answer: string) =>
  [
    "import { Agent, run, type RunResult, type RunState, type RunToolApprovalItem } from '@openai/agents';",
    "import { closeAccount, lookupCharge } from './tools.js';",
    '',
    "const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: [closeAccount, lookupCharge] });",
    '',
    'export class DeskSession {',
    fields,
    '  private pending = new Map<string, RunToolApprovalItem>();',
    '',
    '  async send(text: string) {',
    "    const result = await run(desk, text, { context: { user: 'ana' } });",
    '    this.keep(result);',
    '    for (const item of result.interruptions) this.pending.set(item.rawItem.id ?? item.name ?? "", item);',
    '    return [...this.pending.keys()];',
    '  }',
    '',
    '  async yes(callId: string) {',
    answer,
    '  }',
    '',
    '  private keep(result: RunResult<any, any>) {',
    '    this.last = result;',
    '  }',
    '}',
    '',
    'export type Unused = RunState<any, any>;',
    '',
  ].join('\n');

function app(text: string): string {
  const root = makeTempDir('red21b-result-field-');
  dirs.push(root);
  cpSync(path.join(FIXTURES, 'codemod/_shared'), root, { recursive: true });
  cpSync(path.join(FIXTURES, 'codemod/app-approvals/input'), root, { recursive: true });
  writeFileSync(path.join(root, 'src/app.ts'), text);
  return root;
}

describe("an answer through a field holding the run's result", () => {
  it('the codemod keeps close_account as a conflict naming src/app.ts:18', async () => {
    const r = await cli(['codemod'], {
      cwd: app(APP('  private last?: RunResult<any, any>;', '    this.last!.state.approve(this.pending.get(callId)!);')),
    });
    expect(r.stdout).toContain('1 conflicts');
    expect(r.stdout).toContain('src/app.ts:18');
    expect(r.code).toBe(1);
  });

  it('control: the state in a typed field, this.state!.approve(...), is a conflict', async () => {
    const r = await cli(['codemod'], {
      cwd: app(
        APP(
          '  private last?: RunResult<any, any>;\n  private state?: RunState<any, any>;',
          '    this.state = this.last!.state;\n    this.state!.approve(this.pending.get(callId)!);',
        ),
      ),
    });
    expect(r.stdout).toContain('1 conflicts');
    expect(r.code).toBe(1);
  });
});
