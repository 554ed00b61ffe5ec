import { cpSync, existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/check/types.js';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * Issue 40 ("no false green"): the manifest's `control:` file is not there (moved, deleted, a
 * manifest written by hand). `check --fix` rewrote the tools, wrote the generated module (which
 * imports `./ctrlrun.control.js`) and said "2 tool(s) protected"; `check` then said "no findings".
 * The app does not build or start: the generated module's import of the control names no file.
 */
function repo(): string {
  const dir = makeTempDir('control-missing-');
  dirs.push(dir);
  cpSync(path.join(FIXTURES, 'codemod/_shared'), dir, { recursive: true });
  cpSync(path.join(FIXTURES, 'codemod/named/input'), dir, { recursive: true });
  rmSync(path.join(dir, 'src/ctrlrun.control.ts'));
  return dir;
}

describe('control-missing: the control file the generated module imports is missing', () => {
  it('check after check --fix reports the generated module’s unresolved import of the control', async () => {
    const dir = repo();
    await cli(['check', '--fix', '--allow-dirty'], { cwd: dir });
    expect(existsSync(path.join(dir, 'src/ctrlrun.generated.ts'))).toBe(true);
    expect(existsSync(path.join(dir, 'src/ctrlrun.control.ts'))).toBe(false);
    const c = await cli(['check', '--format', 'json'], { cwd: dir });
    const findings = (JSON.parse(c.stdout) as { findings: Finding[] }).findings;
    expect(findings.some((f) => `${f.message} ${f.hint ?? ''}`.includes('ctrlrun.control'))).toBe(true);
    expect(findings.map((f) => f.ruleId)).toContain('control-missing');
    expect(c.code).toBe(1);
  });

  it('check --fix does not report the tools protected while the module it writes cannot load', async () => {
    const f = await cli(['check', '--fix', '--allow-dirty'], { cwd: repo() });
    expect(f.stderr + f.stdout).not.toContain('tool(s) protected');
    expect(f.stderr).toContain('2 tool(s) rewritten, not protected yet');
    expect(f.stderr).toContain('the control module src/ctrlrun.control.ts does not exist');
    expect(f.code).not.toBe(0);
  });

  it('generate writes the module, says the control is missing and exits 1; with the control, 0', async () => {
    const dir = repo();
    const g = await cli(['generate'], { cwd: dir });
    expect(existsSync(path.join(dir, 'src/ctrlrun.generated.ts'))).toBe(true);
    expect(g.stderr).toContain('The control module src/ctrlrun.control.ts does not exist');
    expect(g.code).toBe(1);
    cpSync(path.join(FIXTURES, 'codemod/_shared/src/ctrlrun.control.ts'), path.join(dir, 'src/ctrlrun.control.ts'));
    const again = await cli(['generate'], { cwd: dir });
    expect(again.stderr).not.toContain('does not exist');
    expect(again.code).toBe(0);
  });
});
