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
  writeFileSync(
    path.join(root, 'package.json'),
    JSON.stringify({ name: 'app', private: true, type: 'module', workspaces: ['packages/*'], dependencies: { agents: '*' } }),
  );
  const agents = path.join(root, 'packages/agents');
  cpSync(path.join(FIXTURES, 'codemod/_shared'), agents, { recursive: true });
  cpSync(path.join(FIXTURES, 'codemod/app-approvals/input/ctrlrun.tools.yaml'), path.join(agents, 'ctrlrun.tools.yaml'));
  cpSync(path.join(FIXTURES, 'codemod/app-approvals/input/src/tools.ts'), path.join(agents, 'src/tools.ts'));
  writeFileSync(path.join(agents, 'package.json'), JSON.stringify({ name: 'agents', private: true, type: 'module' }));
  mkdirSync(path.join(root, 'src'), { recursive: true });
  const app = readFileSync(path.join(FIXTURES, 'codemod/app-approvals/input/src/app.ts'), 'utf8').replace("'./tools.js'", "'agents/src/tools.js'");
  writeFileSync(path.join(root, 'src/app.ts'), app);
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
    const agents = path.join(root, 'packages/agents');
    expect((await cli(['generate'], { cwd: agents })).code).toBe(0);
    await cli(['codemod', '--write'], { cwd: agents });
    const c = await cli(['check', '--format', 'json'], { cwd: root });
    const findings = (JSON.parse(c.stdout) as { findings: Finding[] }).findings;
    expect(findings.filter((f) => f.ruleId === 'sdk-approval').map((f) => `${f.file}:${f.line}`)).toEqual(['src/app.ts:11', 'src/app.ts:12']);
    expect(c.code).toBe(1);
  });
});
