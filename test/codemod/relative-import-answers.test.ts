import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { answersAfterWrite, writeAgentsPackage, writeAnsweringApp } from '../helpers/answering-workspace.js';
import { cli } from '../helpers/cli.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * Issue 40 item 4 ("no false green", found by a red team): the server of a workspace imports `agents`' tools by a
 * relative path (`../../agents/src/tools.js`, as many monorepos do, or through a tsconfig `paths`
 * alias) and declares no dependency on `agents` in its package.json. Dependents are found only by
 * the name in package.json (manifest/workspace-dependencies.ts), so the codemod removes
 * `needsApproval` with "0 conflicts" and check is then green, while the server's
 * `result.state.approve(item)` authorizes nothing (every approved call refused ApprovalMismatch).
 */
function workspace(): string {
  const root = makeTempDir('relative-');
  dirs.push(root);
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'ws', private: true, workspaces: ['packages/*'] }));
  writeAgentsPackage(path.join(root, 'packages/agents'));
  // no core: the server imports the tools by a relative path and declares no dependency
  writeAnsweringApp(path.join(root, 'packages/server'), '../../agents/src/tools.js', { name: 'server', private: true, type: 'module', scripts: {} });
  return root;
}

describe('a workspace package importing the tools by a relative path answers the tools’ interruptions', () => {
  it('the codemod keeps close_account as a conflict', async () => {
    const root = workspace();
    const r = await cli(['codemod'], { cwd: path.join(root, 'packages/agents') });
    expect(r.stdout).toContain('1 conflicts');
    expect(r.stdout).toContain('server/src/app.ts:');
  });

  it('after generate and codemod --write, check at the root reports the server’s answers', async () => {
    const root = workspace();
    const r = await answersAfterWrite(root, path.join(root, 'packages/agents'));
    expect(r.generated).toBe(0);
    expect(r.answers).toEqual(['packages/server/src/app.ts:11', 'packages/server/src/app.ts:12']);
    expect(r.code).toBe(1);
  });
});
