import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * Red team 21b, "no false alarm" (issue 40 items 3 and 4), through the CLI. Code shape: the
 * app-approvals fixture's tools (close_account has `needsApproval: true`), with a chat session
 * class that never answers an interruption through the SDK: it keeps a Promise's `{ resolve,
 * reject }` so that a caller can wait for the paused run's state (`private resume?: { resolve: (s:
 * RunState<…>) => void; reject: (e: Error) => void }`), and on close fails it with
 * `this.resume?.reject(err)`. Session 21's this-fields.ts tests the field's whole written type
 * against /RunState/, so `this.resume` is taken for a RunState and its Promise rejection for the
 * SDK's answer: the codemod keeps close_account unprotected as a conflict (exit 1) in an app that
 * has nothing to migrate. Control: the same deferred resolving with a `string` gives 0 conflicts.
 */
const APP = (resolved: string) =>
  [
    "import { Agent, run, type RunState } from '@openai/agents';",
    "import { closeAccount, lookupCharge } from './tools.js';",
    '',
    "const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: [closeAccount, lookupCharge] });",
    '',
    'export class DeskSession {',
    `  private resume?: { resolve: (s: ${resolved}) => void; reject: (e: Error) => void };`,
    '',
    '  async send(text: string) {',
    "    return run(desk, text, { context: { user: 'ana' } });",
    '  }',
    '',
    '  wait() {',
    `    return new Promise<${resolved}>((resolve, reject) => {`,
    '      this.resume = { resolve, reject };',
    '    });',
    '  }',
    '',
    '  close(err: Error) {',
    '    this.resume?.reject(err);',
    '  }',
    '}',
    '',
    'export type Unused = RunState<any, any>;',
    '',
  ].join('\n');

function app(text: string): string {
  const root = makeTempDir('deferred-state-');
  dirs.push(root);
  cpSync(path.join(FIXTURES, 'codemod/_shared'), root, { recursive: true });
  cpSync(path.join(FIXTURES, 'codemod/app-approvals/input'), root, { recursive: true });
  writeFileSync(path.join(root, 'src/app.ts'), text);
  return root;
}

describe("a deferred of the run's state rejected on close is not an answer", () => {
  it('the codemod rewrites close_account with 0 conflicts', async () => {
    const r = await cli(['codemod'], { cwd: app(APP('RunState<any, any>')) });
    expect(r.stdout).toContain('0 conflicts');
    expect(r.code).toBe(0);
  });

  it('control: the same deferred of a string gives 0 conflicts', async () => {
    const r = await cli(['codemod'], { cwd: app(APP('string')) });
    expect(r.stdout).toContain('0 conflicts');
    expect(r.code).toBe(0);
  });
});
