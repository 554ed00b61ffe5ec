import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';

/**
 * Red team (session 22, manifest/plain-folder.ts): the refusal asks only whether `cwd` itself is a
 * project's root. A folder of a git work tree below its top (`repo/services`, holding
 * `services/billing/ctrlrun.tools.yaml`, no manifest at the top) is refused with a message saying
 * there is "no git work tree" and a hint to `git init` there, which would nest a second repository
 * in the user's own. The refusal may stand; what it says must be true of the folder.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const MANIFEST = 'policy: ./ctrlrun.yaml\ntools:\n  refund:\n    action: refund\n';

describe('check in a folder of a git work tree below its top', () => {
  it('does not say there is no git work tree, nor advise `git init` inside the repository', async () => {
    const repo = makeTempDir('plain-in-git-');
    dirs.push(repo);
    writeFiles(repo, {
      'services/billing/package.json': JSON.stringify({ name: 'billing', private: true, type: 'module' }),
      'services/billing/ctrlrun.tools.yaml': MANIFEST,
      'services/billing/ctrlrun.yaml': 'version: 1\nrules: []\n',
      'services/billing/src/agent.ts': 'export const x = 1;\n',
    });
    execFileSync('git', ['init', '-q', repo]);
    const r = await cli(['check'], { cwd: path.join(repo, 'services') });
    expect(r.stderr).not.toContain('no git work tree');
    expect(r.stderr).not.toContain('git init');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('git work tree at');
    expect(r.stderr).toContain('--cwd billing');
  });
});

describe('check in a folder of a git clone kept inside another repository’s workspace', () => {
  it('names the clone’s own work tree, not the outer workspace', async () => {
    const outer = makeTempDir('plain-clone-in-ws-');
    dirs.push(outer);
    writeFiles(outer, {
      'package.json': JSON.stringify({ name: 'outer', private: true, workspaces: ['packages/*'] }),
      'vendor/clone/services/billing/package.json': JSON.stringify({ name: 'billing', private: true, type: 'module' }),
      'vendor/clone/services/billing/ctrlrun.tools.yaml': MANIFEST,
      'vendor/clone/services/billing/ctrlrun.yaml': 'version: 1\nrules: []\n',
      'vendor/clone/services/billing/src/agent.ts': 'export const x = 1;\n',
    });
    execFileSync('git', ['init', '-q', outer]);
    const clone = path.join(outer, 'vendor', 'clone');
    execFileSync('git', ['init', '-q', clone]);
    const r = await cli(['check'], { cwd: path.join(clone, 'services') });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).not.toContain('inside the workspace');
    expect(r.stderr).toContain(`a folder of the git work tree at ${clone}, not its top`);
    expect(r.stderr).toContain('--cwd billing');
  });
});
