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
 * Red team, session 20 ("no false green"): the manifest's `control:` file is not there (moved,
 * deleted, a manifest written by hand). `check --fix` rewrites the tools and writes the generated
 * module, which imports `./ctrlrun.control.js`, and says "2 tool(s) protected"; `check` then says
 * "no findings", exit 0. The app does not build or start: the generated module's import of the
 * control names no file (tsc TS2307, Node ERR_MODULE_NOT_FOUND).
 */
function repo(): string {
  const dir = makeTempDir('red20-control-');
  dirs.push(dir);
  cpSync(path.join(FIXTURES, 'codemod/_shared'), dir, { recursive: true });
  cpSync(path.join(FIXTURES, 'codemod/named/input'), dir, { recursive: true });
  rmSync(path.join(dir, 'src/ctrlrun.control.ts'));
  return dir;
}

describe('red20: the control file the generated module imports is missing', () => {
  it('check after check --fix reports the generated module’s unresolved import of the control', async () => {
    const dir = repo();
    await cli(['check', '--fix', '--allow-dirty'], { cwd: dir });
    expect(existsSync(path.join(dir, 'src/ctrlrun.generated.ts'))).toBe(true);
    expect(existsSync(path.join(dir, 'src/ctrlrun.control.ts'))).toBe(false);
    const c = await cli(['check', '--format', 'json'], { cwd: dir });
    const findings = (JSON.parse(c.stdout) as { findings: Finding[] }).findings;
    expect(findings.some((f) => `${f.message} ${f.hint ?? ''}`.includes('ctrlrun.control'))).toBe(true);
    expect(c.code).toBe(1);
  });

  it('check --fix does not report the tools protected while the module it writes cannot load', async () => {
    const f = await cli(['check', '--fix', '--allow-dirty'], { cwd: repo() });
    expect(f.stderr + f.stdout).not.toContain('tool(s) protected');
    expect(f.code).not.toBe(0);
  });
});
