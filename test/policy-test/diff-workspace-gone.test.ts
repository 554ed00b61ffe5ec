import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';
import { MANIFEST, POLICY, TOOLS } from './loosenings.js';

// The red team's workspace case: a pull request deletes one package's manifest and policy (its
// tools back to the SDK's own), and `diff main` at the root listed only the other package, "no
// change", exit 0. The package gone at the head is found at the base and reported looser.

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function workspace(): string {
  const dir = makeTempDir('diff-gone-');
  dirs.push(dir);
  const files: Record<string, string> = { 'package.json': JSON.stringify({ name: 'ws', private: true, workspaces: ['packages/*'] }) };
  for (const p of ['pay', 'desk']) {
    files[`packages/${p}/package.json`] = JSON.stringify({ name: p, private: true, type: 'module' });
    files[`packages/${p}/ctrlrun.tools.yaml`] = MANIFEST;
    files[`packages/${p}/ctrlrun.yaml`] = POLICY;
    files[`packages/${p}/src/tools.ts`] = TOOLS;
  }
  // a project that is no package of the workspace (an example, a fixture): there at both revisions
  files['fixtures/app/ctrlrun.tools.yaml'] = MANIFEST;
  files['fixtures/app/ctrlrun.yaml'] = POLICY;
  writeFiles(dir, files);
  const git = (...args: string[]) => {
    const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  };
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-qm', 'base');
  git('checkout', '-qb', 'change');
  for (const f of ['ctrlrun.tools.yaml', 'ctrlrun.yaml']) rmSync(path.join(dir, 'packages/pay', f));
  // a package moved in the same change is followed, not reported gone
  git('mv', 'packages/desk', 'packages/helpdesk');
  git('add', '-A');
  git('commit', '-qm', 'pay drops its policy');
  return dir;
}

describe('a workspace package that deletes its manifest and policy', () => {
  it('is reported at the root as a policy gone: looser, exit 1, beside a package moved and one outside the workspace', async () => {
    const dir = workspace();
    const text = await cli(['diff', 'main'], { cwd: dir });
    expect(text.code, text.stderr).toBe(1);
    expect(text.stdout).toContain('policy diff: main:packages/desk/ctrlrun.yaml (sha256:');
    expect(text.stdout).not.toContain('fixtures/app');
    expect(text.stdout).toContain("policy: 3 actions → no manifest  (looser: the project's manifest is gone: no policy decides its tools' calls)");
    const json = JSON.parse((await cli(['diff', 'main', '--format', 'json'], { cwd: dir })).stdout) as {
      packages: Array<{ base: { label: string }; summary: { looserSettings: number } }>;
    };
    expect(json.packages.map((p) => [p.base.label, p.summary.looserSettings])).toEqual([
      ['main:packages/desk/ctrlrun.yaml', 0],
      ['main:packages/pay/ctrlrun.tools.yaml', 1],
    ]);
  });
});
