import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/check/engine.js';
import { eslintMessage, NAMESPACE } from '../../src/eslint/index.js';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';
import { eslintWith, reported } from './helpers.js';

/**
 * Found on a public repo (juustesout/agent-server, at its init commit): the generator refused a zod
 * `.default()` (now a `.transform()` a rule reads) with `policy-invalid` located in the tool's own file. check reports it there, at
 * the schema's line; the plugin reported it at line 1 of that file, as if it were elsewhere.
 * A project finding located in a linted file is that file's, at check's line and column; only the
 * other files that use the SDK hear of it at line 1.
 */
describe('a generator refusal located in a linted file', () => {
  const cwd = copyFixture('check/open-doors/repo', 'eslint-located-');
  afterAll(() => removeDir(cwd));

  it('is reported in that file at check’s line, and at line 1 of the others', async () => {
    const tools = path.join(cwd, 'src/tools.ts');
    // a step the policy's `amount_*` rules cannot be checked against (a literal .default() no longer is one: issue 40)
    writeFileSync(tools, readFileSync(tools, 'utf8').replace('amount: z.number().int()', 'amount: z.number().int().transform((n) => n * 100)'));
    const check = await runCheck({ cwd });
    const refusal = check.findings.find((f) => f.ruleId === 'policy-invalid');
    expect(refusal?.file).toBe('src/tools.ts');
    expect(refusal!.line).toBeGreaterThan(1);

    const eslint = reported(await eslintWith(cwd).lintFiles(['src/tools.ts', 'src/agent.ts']), cwd).filter((m) => m.ruleId === `${NAMESPACE}/policy-invalid`);
    expect(eslint.filter((m) => m.file === 'src/tools.ts')).toEqual([
      {
        file: 'src/tools.ts',
        line: refusal!.line,
        column: refusal!.column,
        ruleId: `${NAMESPACE}/policy-invalid`,
        message: eslintMessage(refusal!),
        severity: 2,
      },
    ]);
    const other = eslint.filter((m) => m.file === 'src/agent.ts');
    expect(other.map((m) => `${m.line}:${m.column}`)).toEqual(['1:1']);
    expect(other[0]!.message).toContain(`(src/tools.ts:${refusal!.line}:${refusal!.column})`);
  });
});
