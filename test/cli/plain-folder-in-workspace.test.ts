import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { REFUND_AGENT, REFUND_MANIFEST } from '../helpers/plain-folder.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';

/**
 * Red team, session 23: `apps/` of a workspace (the root's package.json lists `apps/*`, or a
 * pnpm-workspace.yaml does; no git) holds `apps/a/` with a manifest. A command run in `apps/` is
 * refused (right: nobody grouped the packages there), but the message said the folder is "no
 * project (no package.json, no workspace, no git work tree)" and to "make this folder their
 * project (a package.json or `git init` here)": either advice nests a second project in the
 * workspace. The message names the workspace's root and sends the user there or to each package.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const PACKAGE_A = {
  'apps/a/package.json': JSON.stringify({ name: 'a', private: true, type: 'module' }),
  'apps/a/src/agent.ts': REFUND_AGENT,
  'apps/a/ctrlrun.tools.yaml': REFUND_MANIFEST,
  'apps/a/ctrlrun.yaml': 'version: 1\nrules: []\n',
};

const WORKSPACES: Record<string, Record<string, string>> = {
  'npm workspaces': { 'package.json': JSON.stringify({ name: 'root', private: true, workspaces: ['apps/*'] }) },
  'pnpm-workspace.yaml': { 'package.json': JSON.stringify({ name: 'root', private: true }), 'pnpm-workspace.yaml': "packages:\n  - 'apps/*'\n" },
};

function workspace(files: Record<string, string>): string {
  const dir = makeTempDir('plain-ws-');
  dirs.push(dir);
  writeFiles(dir, { ...files, ...PACKAGE_A });
  return dir;
}

describe("a workspace's packages folder is refused as a folder of the workspace, not a plain folder", () => {
  for (const [kind, files] of Object.entries(WORKSPACES))
    for (const command of ['check', 'generate'])
      it(`${kind}: ${command}`, async () => {
        const root = workspace(files);
        const r = await cli([command, '--cwd', 'apps'], { cwd: root });
        expect(r.code, r.stdout + r.stderr).toBe(2);
        expect(r.stderr).not.toContain('no workspace');
        expect(r.stderr).not.toContain('`git init` here');
        expect(r.stderr).not.toContain('package.json here');
        expect(r.stderr).toContain(`a folder inside the workspace at ${root}, not its root`);
        expect(r.stderr).toContain('the manifests below it: a/ctrlrun.tools.yaml');
        expect(r.stderr).toContain(`\`npx ctrlrun-gen ${command} --cwd a\``);
        expect(r.stderr).toContain(`at the workspace root (\`npx ctrlrun-gen ${command} --cwd ..\`)`);
      });
});
