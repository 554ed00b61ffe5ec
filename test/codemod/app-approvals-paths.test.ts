import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { copyFixture, makeTempDir, removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/** The app-approvals fixture (its tools in src/tools.ts, its own answers in src/app.ts) as a repo. */
function appRepo(): string {
  const dir = makeTempDir('codemod-answers-');
  dirs.push(dir);
  cpSync(path.join(FIXTURES, 'codemod/_shared'), dir, { recursive: true });
  cpSync(path.join(FIXTURES, 'codemod/app-approvals/input'), dir, { recursive: true });
  return dir;
}

/**
 * Issue 40 item 4: an app that answers its interruptions with `state.approve(item)` keeps a tool the
 * policy can pause as it is (a conflict). Given paths (`codemod src/tools.ts`, the usual way to go
 * a folder at a time), the answers in the files outside them still authorize nothing once the tool
 * is protected: the codemod must still see them, not say "0 conflicts" and exit 0.
 */
describe('codemod with paths: the app answers its interruptions in a file outside them', () => {
  it('keeps close_account as a conflict naming src/app.ts, as the whole-repo run does (text and json)', async () => {
    const dir = appRepo();
    const whole = await cli(['codemod', '--format', 'json'], { cwd: dir });
    const scoped = await cli(['codemod', 'src/tools.ts', '--format', 'json'], { cwd: dir });
    const conflicts = (r: { stdout: string }) =>
      (JSON.parse(r.stdout) as { outcome: { conflicts: Array<{ tool: string; cause: string }> } }).outcome.conflicts.map((c) => [c.tool, c.cause]);
    expect(whole.code).toBe(1);
    expect(conflicts(whole)).toEqual([['close_account', 'app-approvals']]);
    expect(scoped.code, scoped.stdout).toBe(1);
    expect(conflicts(scoped)).toEqual([['close_account', 'app-approvals']]);
    const text = await cli(['codemod', 'src/tools.ts'], { cwd: dir });
    expect(text.stdout).toContain('1 conflicts');
    expect(text.stdout).toContain('src/app.ts:');
    expect(text.stdout).not.toContain("protectedTool('accounts.close'");
  });
});

/**
 * `generate` reads every declaration of a tool: one it cannot protect (a rule reads an argument
 * another declaration of the same name transforms) leaves the action out of the module, and the
 * codemod keeps every declaration of it as a conflict. Given paths, the declaration outside them
 * still counts: the codemod must not rewrite the one inside to an action the module lacks.
 */
describe('codemod with paths: a declaration of the same tool outside them that generate leaves out', () => {
  it('keeps refund in src/tools.ts as a conflict, as the whole-repo run does', async () => {
    const dir = copyFixture('refund-desk', 'codemod-declared-');
    dirs.push(dir);
    writeFileSync(
      path.join(dir, 'src/legacy.ts'),
      "import { tool } from '@openai/agents';\nimport { z } from 'zod';\n\nexport const legacyRefund = tool({\n  name: 'refund',\n  description: 'Refund a charge.',\n  parameters: z.object({ payment_id: z.string(), amount: z.string().transform(Number) }),\n  execute: async () => 'refunded',\n});\n",
    );
    const conflicts = (r: { stdout: string }) =>
      (JSON.parse(r.stdout) as { outcome: { conflicts: Array<{ file: string; tool: string }> } }).outcome.conflicts.map((c) => [path.basename(c.file), c.tool]);
    const whole = await cli(['codemod', '--format', 'json'], { cwd: dir });
    expect(conflicts(whole)).toEqual([
      ['legacy.ts', 'refund'],
      ['tools.ts', 'refund'],
    ]);
    const scoped = await cli(['codemod', 'src/tools.ts', '--format', 'json'], { cwd: dir });
    expect(scoped.code, scoped.stdout).toBe(1);
    expect(conflicts(scoped)).toEqual([['tools.ts', 'refund']]);
  });
});
