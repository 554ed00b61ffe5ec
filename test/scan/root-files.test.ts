import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listRootFiles } from '../../src/fs/repo-files.js';
import { listRepo } from '../../src/scan/list.js';
import { workspaceManifests, workspaceManifestsListed } from '../../src/cli/workspace.js';

// check and the codemod list the manifest's folder to find the packages below it, then their scan
// listed the same folder again (issue 40, item 8). The scan now takes the first listing
// (`rootFiles`): the listing must be what the scan lists on its own, and another root's files are
// never taken for the scan's root.

const SDK = `import { tool } from '@openai/agents';\nexport const t = tool({ name: 'x' });\n`;
const MANIFEST = 'schema: ctrlrun.tools/v1\npolicy: ctrlrun.yaml\noutput: src/ctrlrun.generated.ts\ntools: []\n';

function write(root: string, rel: string, text: string): void {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
}

function tree(root: string, git: boolean): void {
  write(root, 'package.json', '{"name":"app"}\n');
  write(root, 'ctrlrun.tools.yaml', MANIFEST);
  write(root, '.gitignore', 'ignored/\n');
  write(root, 'src/a.ts', SDK);
  write(root, 'src/plain.ts', 'export const x = 1;\n');
  write(root, 'ignored/c.ts', SDK);
  write(root, 'tsconfig.json', '{}\n');
  write(root, 'examples/bot/package.json', '{"name":"bot"}\n');
  write(root, 'examples/bot/ctrlrun.tools.yaml', MANIFEST);
  write(root, 'examples/bot/src/b.ts', SDK);
  write(root, 'node_modules/dep/index.js', SDK);
  if (!git) return;
  const run = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  run('init', '-q');
  run('add', '-A');
  run('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'x');
  write(root, 'src/untracked.ts', SDK);
}

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

describe.each([false, true])('a root listed once (git: %s)', (git) => {
  // outside any work tree: git lists only the one made here
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'ctrlrun-root-files-')));
  roots.push(root);
  tree(root, git);

  it('gives the scan the listing it makes on its own, with and without paths and a generated module', () => {
    const rootFiles = listRootFiles(root);
    const own = listRepo({ root }).files.map((f) => path.relative(root, f).split(path.sep).join('/'));
    expect(own).toEqual(['examples/bot/src/b.ts', 'src/a.ts', 'src/plain.ts', ...(git ? ['src/untracked.ts'] : [])]);
    for (const options of [{}, { paths: ['src'] }, { paths: ['examples', 'src/a.ts'] }, { generatedModule: path.join(root, 'src/a.ts') }]) {
      expect(listRepo({ root, ...options, rootFiles })).toEqual(listRepo({ root, ...options }));
    }
  });

  it("keeps the folders the first listing could not read, and never takes another root's files", () => {
    const rootFiles = listRootFiles(root);
    const unreadable = [{ file: 'locked', message: 'the directory could not be listed (EACCES)' }];
    expect(listRepo({ root, rootFiles: { ...rootFiles, unreadable } }).unreadable).toEqual(unreadable);
    // a listing of a folder below the root, or of the root spelled another way, as the scan's own
    const below = listRootFiles(path.join(root, 'examples/bot'));
    expect(listRepo({ root, rootFiles: below })).toEqual(listRepo({ root }));
    expect(listRepo({ root: `${root}/src/..`, rootFiles })).toEqual(listRepo({ root }));
  });

  it("is the manifest folder's listing, with the manifests workspaceManifests finds", () => {
    const listed = workspaceManifestsListed(root);
    expect(listed.manifests).toEqual(workspaceManifests(root));
    expect(listed.manifests?.map((m) => path.relative(root, m))).toEqual(['ctrlrun.tools.yaml', path.join('examples', 'bot', 'ctrlrun.tools.yaml')]);
    expect(listed.rootFiles?.root).toBe(root);
    expect([...(listed.rootFiles?.files ?? [])].sort()).toEqual(listRootFiles(root).files.slice().sort());
    // from a folder inside the package: the manifest's folder is what is listed
    expect(workspaceManifestsListed(path.join(root, 'src')).rootFiles?.root).toBe(root);
  });
});
