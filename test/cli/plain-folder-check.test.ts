import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { plainFolderOfSiblings, REFUND_AGENT as AGENT, REFUND_MANIFEST as MANIFEST } from '../helpers/plain-folder.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';

/**
 * `check` in a plain folder (no package.json, no git work tree of its own, no manifest here or
 * above) that holds sibling projects, one with a manifest: the folder is no project, so its
 * siblings are not checked together; the refusal names the manifests below and how to check them,
 * instead of a `policy-invalid` finding saying there is no manifest at all.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const siblings = () => plainFolderOfSiblings(dirs);

describe('check in a plain folder of sibling projects', () => {
  it('refuses with exit 2, naming the manifests below and how to check them', async () => {
    const dir = siblings();
    const r = await cli(['check'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stdout).not.toContain('policy-invalid');
    expect(r.stderr).toContain('a/ctrlrun.tools.yaml');
    expect(r.stderr).toContain('--cwd a');
    expect(r.stderr).toMatch(/hint:/);
  });

  it('with --format json, refuses the same way (no report that says there is no manifest)', async () => {
    const dir = siblings();
    const r = await cli(['check', '--format', 'json'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain('a/ctrlrun.tools.yaml');
  });

  it('in the project with the manifest, checks as ever', async () => {
    const dir = siblings();
    const r = await cli(['check', '--cwd', 'a'], { cwd: dir });
    expect(r.stderr).not.toContain('a/ctrlrun.tools.yaml');
    expect(r.stdout).toContain('src/agent.ts');
  });

  it('a plain folder with no manifest anywhere below keeps the missing-manifest finding', async () => {
    const dir = makeTempDir('plain-');
    dirs.push(dir);
    writeFiles(dir, { 'b/src/agent.ts': AGENT });
    const r = await cli(['check'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('policy-invalid');
  });
});

describe('a folder with a package.json is a project, not a plain folder', () => {
  it('is checked as ever, with the missing-manifest finding (no refusal)', async () => {
    const dir = makeTempDir('project-');
    dirs.push(dir);
    writeFiles(dir, {
      'package.json': JSON.stringify({ name: 'app', private: true, type: 'module' }),
      'src/agent.ts': AGENT,
      'tools/ctrlrun.tools.yaml': MANIFEST,
    });
    const r = await cli(['check'], { cwd: dir });
    expect(r.stderr).not.toContain('tools/ctrlrun.tools.yaml');
    expect(r.stdout).toContain('policy-invalid');
  });
});
