import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe } from 'vitest';
import { serverAnswersTests, writeAgentsWorkspace, writeAnsweringApp } from '../helpers/answering-workspace.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * Issue 40 item 4 ("no false green", found by a red team): the server answers the interruptions of `agents`' tools
 * (`result.state.approve(item)`), but reaches them through `core`, a package of the workspace that
 * depends on `agents` and re-exports its tools. The server's package.json names `core`, not
 * `agents`: only direct dependents are read (manifest/workspace-dependencies.ts), so the codemod
 * removes `needsApproval` with "0 conflicts" and check is then green, while every approved call of
 * close_account is refused ApprovalMismatch.
 */
function workspace(): string {
  const root = makeTempDir('transitive-');
  dirs.push(root);
  writeAgentsWorkspace(root);
  const core = path.join(root, 'packages/core');
  mkdirSync(path.join(core, 'src'), { recursive: true });
  writeFileSync(path.join(core, 'package.json'), JSON.stringify({ name: 'core', private: true, type: 'module', dependencies: { agents: '*' } }));
  writeFileSync(path.join(core, 'src/index.ts'), "export * from 'agents/src/tools.js';\n");
  writeAnsweringApp(path.join(root, 'packages/server'), 'core/src/index.js', { name: 'server', private: true, type: 'module', dependencies: { core: '*' } });
  return root;
}

describe('a dependent of a dependent answers the tools’ interruptions', () => {
  serverAnswersTests(workspace);
});
