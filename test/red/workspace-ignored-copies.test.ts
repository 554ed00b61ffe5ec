import { cpSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';
import { git } from '../layouts/loop-helpers.js';

/**
 * Red team (session 17): at a workspace root, `packagesBelow` now takes every folder with a
 * package.json (depth 6) from the file system, git-ignored ones included. A pruned copy of the
 * workspace that git ignores (`turbo prune --docker` writes `out/full/<package>`, a copy of each
 * package with its manifest) is then gone through as one more package: check at the root fails on
 * files git does not list, and `generate` at the root writes into the ignored copy. Before, only the
 * packages the workspace patterns list were (and the scan itself honours .gitignore). Needs `npm run build`.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const OPEN_TOOL = `import { Agent, tool } from '@openai/agents';
import { z } from 'zod';
export const wipe = tool({ name: 'wipe_db', description: 'x', parameters: z.object({}), execute: async () => 'ok' });
export const agent = new Agent({ name: 'ops', tools: [wipe] });
`;

describe('red17: a git-ignored copy of a workspace package is no package of the repository', () => {
  it('check at the root says nothing of files git ignores (a pruned copy under out/)', async () => {
    const dir = makeTempDir('red17-ws-ignored-');
    dirs.push(dir);
    cpSync(path.join(FIXTURES, 'refund-desk'), path.join(dir, 'packages/a'), { recursive: true });
    writeFiles(dir, {
      'package.json': JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'] }),
      '.gitignore': 'node_modules\nout/\n',
    });
    const generate = await cli(['generate'], { cwd: path.join(dir, 'packages/a') });
    expect(generate.code, generate.stdout + generate.stderr).toBe(0);
    const codemod = await cli(['codemod', '--write', '--allow-dirty'], { cwd: path.join(dir, 'packages/a') });
    expect(codemod.code, codemod.stdout + codemod.stderr).toBe(0);
    git(dir, 'init', '-q', '.');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'the workspace');
    const clean = await cli(['check'], { cwd: dir });
    expect(clean.code, clean.stdout + clean.stderr).toBe(0);

    // `turbo prune a --docker`: the pruned workspace, copied under the ignored out/ (here with a
    // file the copy picked up that the repository does not have)
    cpSync(path.join(dir, 'packages/a'), path.join(dir, 'out/full/packages/a'), { recursive: true });
    writeFiles(dir, { 'out/full/packages/a/src/scratch.ts': OPEN_TOOL });
    expect(readFileSync(path.join(dir, '.gitignore'), 'utf8')).toContain('out/');

    const after = await cli(['check'], { cwd: dir });
    expect(after.stdout).not.toContain('out/full');
    expect(after.code, after.stdout + after.stderr).toBe(0);
  });
});
