import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { plainFolderOfSiblings } from '../helpers/plain-folder.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';

/**
 * An operator command (approvals, receipts) in a plain folder of sibling projects: the folder is no
 * project, so its default store is nobody's. The refusal names the projects below (or their stores,
 * once their runs made them) rather than saying runs here would create one.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

describe('an operator command in a plain folder of sibling projects', () => {
  it('no store below yet: exit 2, the projects below named, the hint runs it in one', async () => {
    const dir = plainFolderOfSiblings(dirs);
    for (const argv of [
      ['approvals', 'list'],
      ['receipts', 'log'],
    ]) {
      const r = await cli(argv, { cwd: dir });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain('sqlite:.ctrlrun/state.db: no store here yet (the file does not exist).');
      expect(r.stderr).toContain(
        "hint: this folder is no project; the projects below it (a) keep their own stores, which their runs create: run it in a project's folder (--cwd a)",
      );
      expect(r.stderr).not.toContain('runs create it on first use');
    }
  });

  it("a project's store below: the hint names it and how to read it", async () => {
    const dir = plainFolderOfSiblings(dirs);
    mkdirSync(path.join(dir, 'a', '.ctrlrun'), { recursive: true });
    writeFileSync(path.join(dir, 'a', '.ctrlrun', 'state.db'), '');
    const r = await cli(['approvals', 'list'], { cwd: dir });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      'hint: the projects below this folder have a/.ctrlrun/state.db: run it in that project (--cwd a) or pass --store sqlite:a/.ctrlrun/state.db',
    );
  });

  it('control: a folder with no project below keeps the first-use hint', async () => {
    const dir = makeTempDir('no-projects-');
    dirs.push(dir);
    const r = await cli(['approvals', 'list'], { cwd: dir });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('hint: runs create it on first use');
  });
});
