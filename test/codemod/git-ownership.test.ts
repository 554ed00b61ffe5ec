import { afterEach, describe, expect, it } from 'vitest';
import { refuseDirtyTree, treeState } from '../../src/codemod/git.js';
import { UserError } from '../../src/diagnostics.js';
import { git } from '../layouts/loop-helpers.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';

/**
 * Issue 21 item 9: run as a user other than the repo's owner (CI containers), git refuses the
 * repository ("dubious ownership"). That is reported as such and `--write` is refused: it is not
 * "not a git work tree", which skipped the dirty-tree guard. Git's own test switch makes it refuse here.
 */
const dirs: string[] = [];
const saved = process.env.GIT_TEST_ASSUME_DIFFERENT_OWNER;
afterEach(() => {
  dirs.splice(0).forEach(removeDir);
  if (saved === undefined) delete process.env.GIT_TEST_ASSUME_DIFFERENT_OWNER;
  else process.env.GIT_TEST_ASSUME_DIFFERENT_OWNER = saved;
});

describe('git refusing a repository another user owns', () => {
  it('is dubious ownership, not "not a repo", and the guard refuses with the fix', () => {
    const dir = makeTempDir('git-owner-');
    dirs.push(dir);
    writeFiles(dir, { 'a.ts': 'export {};\n' });
    git(dir, 'init', '-q', '.');
    process.env.GIT_TEST_ASSUME_DIFFERENT_OWNER = '1';
    expect(treeState(dir).kind).toBe('dubious-ownership');
    let thrown: unknown;
    try {
      refuseDirtyTree(dir, 'codemod', 'rewrite');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UserError);
    expect((thrown as Error).message).toContain('git refuses to read this repository');
    expect((thrown as Error).message).toContain('safe.directory');
    delete process.env.GIT_TEST_ASSUME_DIFFERENT_OWNER;
    expect(treeState(dir).kind).toBe('clean');
  });
});
