import { cpSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/check/types.js';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * Issue 40 item 4 (was red21-deeper-file-dependency). Layout: a project folder with no workspace root and no git work tree
 * (a fresh download, a folder not yet `git init`-ed), grouped as `libs/agents` (the tools and the
 * manifest) and `apps/server`, which depends on it by path, `"agents": "file:../../libs/agents"`
 * (the same `file:` form session 21 reads for siblings, with the apps/libs grouping most monorepo
 * templates use), and answers the interruptions with `result.state.approve(item)`. Path dependents were
 * looked for only among `libs/agents`' own siblings (its parent's folders), so the codemod
 * rewrites close_account with "0 conflicts" and check in `libs/agents` is green, while check in
 * `apps/server` does report the answers (it reads its own `file:` dependency wherever it points): the
 * two checks disagree, and every approved call of close_account is refused ApprovalMismatch.
 * Session 21 names this layout as left; the test pins it. Control: the same server as a sibling.
 */
function project(serverAt: 'apps/server' | 'libs/server'): string {
  const root = makeTempDir('grouped-dep-');
  dirs.push(root);
  const input = path.join(FIXTURES, 'codemod/app-approvals/input');
  const agents = path.join(root, 'libs/agents');
  cpSync(path.join(FIXTURES, 'codemod/_shared'), agents, { recursive: true });
  cpSync(path.join(input, 'ctrlrun.tools.yaml'), path.join(agents, 'ctrlrun.tools.yaml'));
  cpSync(path.join(input, 'src/tools.ts'), path.join(agents, 'src/tools.ts'));
  const spec = serverAt === 'apps/server' ? 'file:../../libs/agents' : 'file:../agents';
  writeFiles(root, {
    'libs/agents/package.json': JSON.stringify({ name: 'agents', private: true, type: 'module' }),
    [`${serverAt}/package.json`]: JSON.stringify({ name: 'server', private: true, type: 'module', dependencies: { agents: spec } }),
    [`${serverAt}/src/app.ts`]: readFileSync(path.join(input, 'src/app.ts'), 'utf8').replace("'./tools.js'", "'agents/src/tools.js'"),
  });
  return root;
}

const sdkAnswers = async (cwd: string) => {
  const c = await cli(['check', '--format', 'json'], { cwd });
  const findings = (JSON.parse(c.stdout) as { findings: Finding[] }).findings;
  return { code: c.code, answers: findings.filter((f) => f.ruleId === 'sdk-approval').map((f) => `${f.file}:${f.line}`) };
};

describe('apps/server depends on libs/agents by `file:../../libs/agents`, no workspace, no git', () => {
  it('the codemod keeps close_account as a conflict naming apps/server/src/app.ts', async () => {
    const r = await cli(['codemod'], { cwd: path.join(project('apps/server'), 'libs/agents') });
    expect(r.stdout).toContain('1 conflicts');
    expect(r.stdout).toContain('../../apps/server/src/app.ts:11');
    expect(r.code).toBe(1);
  });

  it('after generate and codemod --write, check in libs/agents reports what check in apps/server reports', async () => {
    const root = project('apps/server');
    const agents = path.join(root, 'libs/agents');
    expect((await cli(['generate'], { cwd: agents })).code).toBe(0);
    await cli(['codemod', '--write'], { cwd: agents });
    // check in the server sees them ...
    expect((await sdkAnswers(path.join(root, 'apps/server'))).answers).toEqual(['src/app.ts:11', 'src/app.ts:12']);
    // ... check in the package whose tools they break does not
    const inAgents = await sdkAnswers(agents);
    expect(inAgents.answers).toEqual(['../../apps/server/src/app.ts:11', '../../apps/server/src/app.ts:12']);
    expect(inAgents.code).toBe(1);
  });

  it('the bound: a server inside another package, or three levels away, is not read (0 conflicts)', async () => {
    const inPackage = project('libs/server');
    const app = readFileSync(path.join(inPackage, 'libs/server/src/app.ts'), 'utf8');
    writeFiles(inPackage, {
      'tools/package.json': JSON.stringify({ name: 'tools', private: true }),
      'tools/server/package.json': JSON.stringify({ name: 'server2', type: 'module', dependencies: { agents: 'file:../../libs/agents' } }),
      'tools/server/src/app.ts': app,
      'libs/server/package.json': JSON.stringify({ name: 'server', type: 'module' }),
    });
    expect((await cli(['codemod'], { cwd: path.join(inPackage, 'libs/agents') })).stdout).toContain('0 conflicts');
    const far = project('libs/server');
    writeFiles(far, {
      'apps/web/server/package.json': JSON.stringify({ name: 'server2', type: 'module', dependencies: { agents: 'file:../../../libs/agents' } }),
      'apps/web/server/src/app.ts': app,
      'libs/server/package.json': JSON.stringify({ name: 'server', type: 'module' }),
    });
    expect((await cli(['codemod'], { cwd: path.join(far, 'libs/agents') })).stdout).toContain('0 conflicts');
  });

  // control: the same server beside libs/agents (`file:../agents`) is read
  it('control: a sibling server is kept as a conflict', async () => {
    const r = await cli(['codemod'], { cwd: path.join(project('libs/server'), 'libs/agents') });
    expect(r.stdout).toContain('1 conflicts');
    expect(r.stdout).toContain('../server/src/app.ts:11');
  });
});
