import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, expect, it } from 'vitest';
import { createPlugin } from '../../src/eslint/index.js';
import { UNTYPED_DECIDE, writeHelperAnswersApp } from '../helpers/helper-answers-app.js';
import { SOURCE_FILES } from './helpers.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/**
 * Issue 40 ("no false green"), ESLint's side of test/codemod/helper-answers: the app answers its
 * interruptions through `decide(result.state, item, yes)`, a helper with untyped parameters.
 * `eslint --fix` removed close_account's `needsApproval: true` and rewrote it, and every approved
 * call was then refused ApprovalMismatch; the untyped parameter is now taken for a run's state.
 */
describe('eslint --fix in an app that answers through a helper', () => {
  it('leaves close_account as it is, needsApproval kept', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'eslint-helper-answers-'));
    dirs.push(dir);
    writeHelperAnswersApp(dir, UNTYPED_DECIDE);
    const plugin = createPlugin();
    const eslint = new ESLint({
      cwd: dir,
      fix: true,
      overrideConfigFile: true,
      overrideConfig: [{ files: SOURCE_FILES }, { files: SOURCE_FILES, languageOptions: { parser: tseslint.parser as never } }, plugin.configs.recommended],
    });
    const [result] = await eslint.lintFiles([path.join(dir, 'src/tools.ts')]);
    expect(result!.output).toContain("export const lookupCharge = protectedTool('stripe.charge.read', {");
    expect(result!.output).toContain('export const closeAccount = tool({');
    expect(result!.output).toContain('needsApproval: true,');
  });
});
