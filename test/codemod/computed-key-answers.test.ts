import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * Session 27, gap A of the red team (issue 40 item 4): the app answers close_account's
 * interruptions with the method named by a key, `result.state[verdict](item)`. The codemod rewrote
 * the tool with "0 conflicts" and every approved call was then refused ApprovalMismatch; it now
 * keeps the tool and names the answer, with both of the Control's answers, since the key names either.
 */
const APP = [
  "import { Agent, run } from '@openai/agents';",
  "import { closeAccount, lookupCharge } from './tools.js';",
  "const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: [closeAccount, lookupCharge] });",
  'export async function handle(input: string, decide: (name: string) => Promise<boolean>) {',
  "  let result = await run(desk, input, { context: { user: 'ana' } });",
  '  while (result.interruptions.length > 0) {',
  '    for (const item of result.interruptions) {',
  "      const verdict = (await decide(item.name ?? '')) ? 'approve' : 'reject';",
  '      result.state[verdict](item);',
  '    }',
  "    result = await run(desk, result.state, { context: { user: 'ana' } });",
  '  }',
  '  return result.finalOutput;',
  '}',
  '',
].join('\n');

describe('the codemod keeps a pausing tool whose answers are named by a key', () => {
  it('a conflict naming the answer, and both of the Control answers', async () => {
    const root = makeTempDir('computed-key-');
    dirs.push(root);
    cpSync(path.join(FIXTURES, 'codemod/_shared'), root, { recursive: true });
    cpSync(path.join(FIXTURES, 'codemod/app-approvals/input'), root, { recursive: true });
    writeFileSync(path.join(root, 'src/app.ts'), APP);
    const r = await cli(['codemod'], { cwd: root });
    expect(r.stdout).toContain('1 conflicts');
    expect(r.stdout).toContain('answered at src/app.ts:9:');
    expect(r.stdout).toContain('result.state[verdict](item)');
    expect(r.stdout).toMatch(/control\.approve\(result\.state, item[^\n]*control\.reject\(result\.state, item/);
    expect(r.code).toBe(1);
  });
});
