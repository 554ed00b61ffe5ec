import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeAgentsPackage, writeAnsweringApp } from '../helpers/answering-workspace.js';
import { cliProcess } from '../helpers/cli.js';
import { requireBuilt } from '../helpers/paths.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/**
 * Red team (session 22, manifest/grouping-folder.ts): the path dependents' search stops reading the
 * grandparent when the package's parent is a project of its own. A package kept in a folder of a
 * git repository (`code/.git`, `code/agents`) with an app in another grouping beside that
 * repository (`other/server`, `"agents": "file:../../code/agents"`) is the same dependent the search
 * found before this session; neither the workspace nor the git search reaches it (it is outside the
 * repository), so the codemod reports 0 conflicts and its rewrite breaks the app's approvals.
 */
function tree(): { base: string; agents: string } {
  const base = mkdtempSync(path.join(tmpdir(), 'project-parent-grouping-'));
  dirs.push(base);
  const agents = path.join(base, 'code/agents');
  writeAgentsPackage(agents);
  execFileSync('git', ['init', '-q', path.join(base, 'code')]);
  writeAnsweringApp(path.join(base, 'other/server'), 'agents/src/tools.js', {
    name: 'server',
    private: true,
    type: 'module',
    dependencies: { agents: 'file:../../code/agents' },
  });
  return { base, agents };
}

describe('a package whose parent folder is the top of a git work tree', () => {
  it('the app beside the repository that names it by path still answers it: 1 conflict', () => {
    requireBuilt('the CLI runs with HOME set', 'dist/bin/ctrlrun-gen.cjs');
    const { base, agents } = tree();
    const r = cliProcess(['codemod'], { cwd: agents, env: { HOME: path.join(base, 'elsewhere') } });
    expect(r.stdout, r.stderr).toContain('1 conflicts');
    expect(r.stdout).toContain('other/server/src/app.ts:11');
  });
});
