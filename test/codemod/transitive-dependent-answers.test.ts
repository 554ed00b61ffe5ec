import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/check/types.js';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
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
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'ws', private: true, workspaces: ['packages/*'] }));
  const agents = path.join(root, 'packages/agents');
  cpSync(path.join(FIXTURES, 'codemod/_shared'), agents, { recursive: true });
  cpSync(path.join(FIXTURES, 'codemod/app-approvals/input/ctrlrun.tools.yaml'), path.join(agents, 'ctrlrun.tools.yaml'));
  cpSync(path.join(FIXTURES, 'codemod/app-approvals/input/src/tools.ts'), path.join(agents, 'src/tools.ts'));
  writeFileSync(path.join(agents, 'package.json'), JSON.stringify({ name: 'agents', private: true, type: 'module' }));
  const core = path.join(root, 'packages/core');
  mkdirSync(path.join(core, 'src'), { recursive: true });
  writeFileSync(path.join(core, 'package.json'), JSON.stringify({ name: 'core', private: true, type: 'module', dependencies: { agents: '*' } }));
  writeFileSync(path.join(core, 'src/index.ts'), "export * from 'agents/src/tools.js';\n");
  const server = path.join(root, 'packages/server');
  mkdirSync(path.join(server, 'src'), { recursive: true });
  writeFileSync(path.join(server, 'package.json'), JSON.stringify({ name: 'server', private: true, type: 'module', dependencies: { core: '*' } }));
  const app = readFileSync(path.join(FIXTURES, 'codemod/app-approvals/input/src/app.ts'), 'utf8').replace("'./tools.js'", "'core/src/index.js'");
  writeFileSync(path.join(server, 'src/app.ts'), app);
  return root;
}

describe('a dependent of a dependent answers the tools’ interruptions', () => {
  it('the codemod keeps close_account as a conflict', async () => {
    const root = workspace();
    const r = await cli(['codemod'], { cwd: path.join(root, 'packages/agents') });
    expect(r.stdout).toContain('1 conflicts');
    expect(r.stdout).toContain('server/src/app.ts:');
  });

  it('after generate and codemod --write, check at the root reports the server’s answers', async () => {
    const root = workspace();
    const agents = path.join(root, 'packages/agents');
    expect((await cli(['generate'], { cwd: agents })).code).toBe(0);
    await cli(['codemod', '--write'], { cwd: agents });
    const c = await cli(['check', '--format', 'json'], { cwd: root });
    const findings = (JSON.parse(c.stdout) as { findings: Finding[] }).findings;
    expect(findings.filter((f) => f.ruleId === 'sdk-approval').map((f) => `${f.file}:${f.line}`)).toEqual([
      'packages/server/src/app.ts:11',
      'packages/server/src/app.ts:12',
    ]);
    expect(c.code).toBe(1);
  });
});
