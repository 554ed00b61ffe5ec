import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { answersAfterWrite, writeAgentsPackage, writeAnsweringApp } from '../helpers/answering-workspace.js';
import { cli } from '../helpers/cli.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * Issue 40 item 4 ("no false green", found by a red team): the workspace root is itself the app. Its package.json
 * declares the workspaces and depends on `agents` (packages/agents, the tools and the manifest), and
 * its src/app.ts answers their interruptions with `result.state.approve(item)`. The dependents are
 * read among the workspace's packages, the root left out (manifest/workspace.ts `packageDirs`), so
 * the codemod in packages/agents removes `needsApproval` with "0 conflicts" and check is then
 * green, while every approved call of close_account is refused ApprovalMismatch.
 */
function workspace(): string {
  const root = makeTempDir('rootapp-');
  dirs.push(root);
  writeAgentsPackage(path.join(root, 'packages/agents'));
  writeAnsweringApp(root, 'agents/src/tools.js', { name: 'app', private: true, type: 'module', workspaces: ['packages/*'], dependencies: { agents: '*' } });
  return root;
}

describe('the workspace root’s own app answers the tools’ interruptions', () => {
  it('the codemod keeps close_account as a conflict', async () => {
    const root = workspace();
    const r = await cli(['codemod'], { cwd: path.join(root, 'packages/agents') });
    expect(r.stdout).toContain('1 conflicts');
    expect(r.stdout).toContain('src/app.ts:');
  });

  it('after generate and codemod --write, check at the root reports the root app’s answers', async () => {
    const root = workspace();
    const r = await answersAfterWrite(root, path.join(root, 'packages/agents'));
    expect(r.generated).toBe(0);
    expect(r.answers).toEqual(['src/app.ts:11', 'src/app.ts:12']);
    expect(r.code).toBe(1);
  });
});
