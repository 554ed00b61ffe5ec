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
 * Red team, session 20 ("no false green"): two sibling packages without a workspace root, the
 * server depending on the agents package by `"agents": "file:../agents"` (a layout the npm docs
 * show for local packages) and answering its tools' interruptions with `result.state.approve(item)`.
 * Dependents are looked for only inside a workspace (manifest/workspace-dependencies.ts
 * `workspaceRootAbove`), so the codemod removes `needsApproval` with "0 conflicts" and check in
 * the server is then green, while every approved call of close_account is refused ApprovalMismatch.
 */
function workspace(): string {
  const root = makeTempDir('red20-filedep-');
  dirs.push(root);
  const agents = path.join(root, 'agents');
  cpSync(path.join(FIXTURES, 'codemod/_shared'), agents, { recursive: true });
  cpSync(path.join(FIXTURES, 'codemod/app-approvals/input/ctrlrun.tools.yaml'), path.join(agents, 'ctrlrun.tools.yaml'));
  cpSync(path.join(FIXTURES, 'codemod/app-approvals/input/src/tools.ts'), path.join(agents, 'src/tools.ts'));
  writeFileSync(path.join(agents, 'package.json'), JSON.stringify({ name: 'agents', private: true, type: 'module' }));
  const server = path.join(root, 'server');
  mkdirSync(path.join(server, 'src'), { recursive: true });
  writeFileSync(
    path.join(server, 'package.json'),
    JSON.stringify({ name: 'server', private: true, type: 'module', dependencies: { agents: 'file:../agents' } }),
  );
  const app = readFileSync(path.join(FIXTURES, 'codemod/app-approvals/input/src/app.ts'), 'utf8').replace("'./tools.js'", "'agents/src/tools.js'");
  writeFileSync(path.join(server, 'src/app.ts'), app);
  return root;
}

describe('red20: a `file:` dependent outside any workspace answers the tools’ interruptions', () => {
  it('the codemod keeps close_account as a conflict', async () => {
    const root = workspace();
    const r = await cli(['codemod'], { cwd: path.join(root, 'agents') });
    expect(r.stdout).toContain('1 conflicts');
    expect(r.stdout).toContain('server/src/app.ts:');
  });

  it('after generate and codemod --write, check in the server reports its answers', async () => {
    const root = workspace();
    const agents = path.join(root, 'agents');
    expect((await cli(['generate'], { cwd: agents })).code).toBe(0);
    await cli(['codemod', '--write'], { cwd: agents });
    const c = await cli(['check', '--format', 'json'], { cwd: path.join(root, 'server') });
    const findings = (JSON.parse(c.stdout) as { findings: Finding[] }).findings;
    expect(findings.filter((f) => f.ruleId === 'sdk-approval').map((f) => `${f.file}:${f.line}`)).toEqual(['src/app.ts:11', 'src/app.ts:12']);
    expect(c.code).toBe(1);
  });
});
