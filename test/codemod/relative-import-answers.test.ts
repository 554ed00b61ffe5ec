import path from 'node:path';
import { afterAll, describe } from 'vitest';
import { serverAnswersTests, writeAgentsWorkspace, writeAnsweringApp } from '../helpers/answering-workspace.js';
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
  writeAgentsWorkspace(root);
  // no core: the server imports the tools by a relative path and declares no dependency
  writeAnsweringApp(path.join(root, 'packages/server'), '../../agents/src/tools.js', { name: 'server', private: true, type: 'module', scripts: {} });
  return root;
}

describe('a workspace package importing the tools by a relative path answers the tools’ interruptions', () => {
  serverAnswersTests(workspace);
});
