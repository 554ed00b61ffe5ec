import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';
import { TS_AGENT } from '../layouts/loop-helpers.js';

/**
 * The `yaml-language-server` line of init's three files names a schema the editor can open. In an
 * npm workspace ctrlrun-gen is hoisted to the root's node_modules, so the line points there.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));
const FILES = ['ctrlrun.yaml', 'ctrlrun.tools.yaml', 'ctrlrun.test.yaml'];
const schemaOf = (file: string) => /^# yaml-language-server: \$schema=(.+)$/m.exec(readFileSync(file, 'utf8'))?.[1];

function workspace(installed: boolean): string {
  // makeTempDir links ctrlrun-gen into the root's node_modules, as npm hoists it in a workspace
  const dir = makeTempDir('schema-line-');
  dirs.push(dir);
  if (!installed) rmSync(path.join(dir, 'node_modules', 'ctrlrun-gen'));
  writeFiles(dir, {
    'package.json': JSON.stringify({ name: 'mono', private: true, workspaces: ['apps/*'] }),
    'apps/web/package.json': JSON.stringify({ name: 'web', private: true, type: 'module' }),
    'apps/web/src/agent.ts': TS_AGENT,
  });
  return dir;
}

describe("init's schema lines (issue 25 item 1, workspace layout)", () => {
  it('point at the copy hoisted to the workspace root, and each resolves from the file', async () => {
    const dir = workspace(true);
    const r = await cli(['init'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    for (const name of FILES) {
      const file = path.join(dir, 'apps/web', name);
      const schema = schemaOf(file);
      expect(schema, name).toMatch(/^\.\.\/\.\.\/node_modules\/ctrlrun-gen\/[a-z-]+\.schema\.json$/);
      expect(existsSync(path.resolve(path.dirname(file), schema!)), `${name}: ${schema}`).toBe(true);
    }
  });

  it('point beside the package when ctrlrun-gen is not installed yet', async () => {
    const dir = workspace(false);
    expect((await cli(['init'], { cwd: dir })).code).toBe(0);
    expect(FILES.map((name) => schemaOf(path.join(dir, 'apps/web', name)))).toEqual([
      './node_modules/ctrlrun-gen/policy.schema.json',
      './node_modules/ctrlrun-gen/manifest.schema.json',
      './node_modules/ctrlrun-gen/policy-test.schema.json',
    ]);
  });
});
