import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
 * The search for path dependents (no git, no workspace) reads the package's parent's folders and,
 * one grouping further, its grandparent's (`apps/server` beside `libs/agents`). For a package at
 * `~/code/agents` the grandparent is the home folder: its folders are no grouping of anyone's
 * packages and are not read. Outside any git work tree (the OS temp folder), HOME the grandparent.
 */
function tree(): { home: string; agents: string } {
  const home = mkdtempSync(path.join(tmpdir(), 'home-grouping-'));
  dirs.push(home);
  const agents = path.join(home, 'code/agents');
  writeAgentsPackage(agents);
  writeAnsweringApp(path.join(home, 'other/server'), 'agents/src/tools.js', {
    name: 'server',
    private: true,
    type: 'module',
    dependencies: { agents: 'file:../../code/agents' },
  });
  return { home, agents };
}

describe("a package whose grandparent is the user's home folder", () => {
  it('the home folder is no grouping: a folder of another home folder is not read, 0 conflicts', () => {
    requireBuilt('the CLI runs with HOME set', 'dist/bin/ctrlrun-gen.cjs');
    const { home, agents } = tree();
    const r = cliProcess(['codemod'], { cwd: agents, env: { HOME: home } });
    expect(r.stdout, r.stderr).toContain('0 conflicts');
  });

  it('control: the same tree with HOME elsewhere reads the grouping, 1 conflict', () => {
    const { home, agents } = tree();
    const r = cliProcess(['codemod'], { cwd: agents, env: { HOME: path.join(home, 'elsewhere') } });
    expect(r.stdout, r.stderr).toContain('1 conflicts');
    expect(r.stdout).toContain('other/server/src/app.ts:11');
  });

  it('a parent that is a project of its own (a package.json) still has its grouping read, 1 conflict', () => {
    const { home, agents } = tree();
    writeFileSync(path.join(home, 'code/package.json'), JSON.stringify({ name: 'code', private: true }));
    const r = cliProcess(['codemod'], { cwd: agents, env: { HOME: path.join(home, 'elsewhere') } });
    expect(r.stdout, r.stderr).toContain('1 conflicts');
    expect(r.stdout).toContain('other/server/src/app.ts:11');
  });
});
