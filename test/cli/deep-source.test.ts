import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { copyFixture, removeDir, writeFiles } from '../helpers/temp-repo.js';

// Issue 14.7: a 20,000-deep array in a source file overflowed the compiler's recursive parser:
// "internal error" from check, codemod, init and generate. It is now a located parse error.

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const DEEP = `import { tool } from '@openai/agents';\nexport const t = tool({ name: 'deep', description: 'd', parameters: {} as never, execute: async () => 'x' });\nexport const x = ${'['.repeat(20_000)}${']'.repeat(20_000)};\n`;

function repoWithDeepFile(): string {
  const dir = copyFixture('refund-desk', 'deep-');
  dirs.push(dir);
  execFileSync('git', ['init', '-q'], { cwd: dir });
  writeFiles(dir, { 'src/deep.ts': DEEP });
  return dir;
}

describe('a 20,000-deep array in a source file (issue 14.7)', () => {
  it('check reports it as a located parse-error finding and checks the other files', async () => {
    const dir = repoWithDeepFile();
    const r = await cli(['check', '--format', 'json'], { cwd: dir });
    expect(r.stderr).not.toMatch(/internal error|Maximum call stack/);
    expect(r.code).toBe(1);
    const findings = JSON.parse(r.stdout) as
      | { findings?: Array<{ ruleId: string; file: string; line: number; column: number; message: string }> }
      | Array<{ ruleId: string; file: string; line: number; column: number }>;
    const list = Array.isArray(findings) ? findings : (findings.findings ?? []);
    expect(list).toContainEqual(expect.objectContaining({ ruleId: 'parse-error', file: 'src/deep.ts', line: 3, column: 20_017 }));
    expect(list.some((f) => f.ruleId === 'unprotected-tool' && f.file === 'src/tools.ts')).toBe(true);
  });

  it('codemod (naming it unparseable), generate and init go on without it', async () => {
    const dir = repoWithDeepFile();
    const codemod = await cli(['codemod'], { cwd: dir });
    expect(`${codemod.stdout}${codemod.stderr}`).not.toMatch(/internal error|Maximum call stack/);
    expect(codemod.stdout).toMatch(/1 unparseable/);
    const generate = await cli(['generate'], { cwd: dir });
    expect(generate.stderr).not.toMatch(/internal error|Maximum call stack/);
    expect(generate.code, generate.stderr).toBe(0);
    rmSync(`${dir}/ctrlrun.yaml`);
    rmSync(`${dir}/ctrlrun.tools.yaml`);
    const init = await cli(['init'], { cwd: dir });
    expect(`${init.stdout}${init.stderr}`).not.toMatch(/internal error|Maximum call stack/);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toMatch(/Found 3 new tool names/);
  });
});
