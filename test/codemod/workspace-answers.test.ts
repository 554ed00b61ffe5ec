import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * Issue 40 item 4 across packages: an npm workspace whose `agents` package holds the tools (and the
 * manifest) and whose `server` package, depending on it, answers their interruptions with
 * `result.state.approve(item)`. Once `close_account` is protected those answers authorize nothing
 * (SPEC §5.4): the codemod, from the package and from the root, keeps it as a conflict naming
 * packages/server/src/app.ts (the answers of the packages that depend on this one count), where it
 * read only the manifest's package and said "0 conflicts", exit 0. A package that does not depend
 * on it is not read.
 */
function workspace(): string {
  const root = makeTempDir('codemod-ws-answers-');
  dirs.push(root);
  const agents = path.join(root, 'packages/agents');
  cpSync(path.join(FIXTURES, 'codemod/_shared'), agents, { recursive: true });
  cpSync(path.join(FIXTURES, 'codemod/app-approvals/input/ctrlrun.tools.yaml'), path.join(agents, 'ctrlrun.tools.yaml'));
  cpSync(path.join(FIXTURES, 'codemod/app-approvals/input/src/tools.ts'), path.join(agents, 'src/tools.ts'));
  writeFileSync(path.join(agents, 'package.json'), JSON.stringify({ name: 'agents', private: true, type: 'module' }));
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'ws', private: true, workspaces: ['packages/*'] }));
  const server = path.join(root, 'packages/server');
  mkdirSync(path.join(server, 'src'), { recursive: true });
  writeFileSync(path.join(server, 'package.json'), JSON.stringify({ name: 'server', private: true, type: 'module', dependencies: { agents: '*' } }));
  const app = readFileSync(path.join(FIXTURES, 'codemod/app-approvals/input/src/app.ts'), 'utf8').replace("'./tools.js'", "'agents/src/tools.js'");
  writeFileSync(path.join(server, 'src/app.ts'), app);
  return root;
}

describe('codemod in a workspace: another package answers the interruptions of this one', () => {
  it('keeps close_account as a conflict, from the package and from the root', async () => {
    const root = workspace();
    for (const cwd of [path.join(root, 'packages/agents'), root]) {
      const r = await cli(['codemod'], { cwd });
      expect(r.stdout).toContain('1 conflicts');
      expect(r.stdout).toContain('server/src/app.ts:');
      expect(r.code).toBe(1);
    }
  });

  it('a package that does not depend on this one answers its own tools: not read, the tool is rewritten', async () => {
    const root = workspace();
    writeFileSync(path.join(root, 'packages/server/package.json'), JSON.stringify({ name: 'server', private: true, type: 'module' }));
    // its own tools (a copy): importing agents' tools, even without the dependency, reaches them (sibling-answers.test.ts)
    cpSync(path.join(FIXTURES, 'codemod/app-approvals/input/src/tools.ts'), path.join(root, 'packages/server/src/tools.ts'));
    writeFileSync(path.join(root, 'packages/server/src/app.ts'), readFileSync(path.join(FIXTURES, 'codemod/app-approvals/input/src/app.ts'), 'utf8'));
    const r = await cli(['codemod'], { cwd: path.join(root, 'packages/agents') });
    expect(r.stdout).toContain('0 conflicts');
    expect(r.code).toBe(0);
  });
});
