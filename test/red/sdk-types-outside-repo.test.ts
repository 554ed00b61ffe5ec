import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { renderGeneratedModule } from '../../src/generate/index.js';
import { loadProject } from '../../src/manifest/load.js';
import { FIXTURES, REPO_ROOT } from '../helpers/paths.js';

/**
 * Red team (session 17): the generated module's text is a function of the repository (§4:
 * byte-identical for the same inputs; check's stale-generated compares it). `sdkTypesPackage`
 * walks up from the module's folder to the file system's root, so a package.json *outside the
 * repository* (a parent folder the checkout happens to sit in, a stray one in a home folder) picks
 * the SDK type import when the repository's own package.json files list no SDK package (the SDK
 * comes through another dependency). The same repository then generates two texts.
 */
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** refund-desk as its own git repository at `<parent>/desk`, its package.json listing no SDK package. */
function deskUnder(parent: string): string {
  const desk = path.join(parent, 'desk');
  cpSync(path.join(FIXTURES, 'refund-desk'), desk, { recursive: true });
  const pkg = JSON.parse(readFileSync(path.join(desk, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  // the SDK arrives through a wrapper the company publishes (it depends on @openai/agents)
  pkg.dependencies = { '@acme/agent-kit': '1.0.0', zod: pkg.dependencies.zod! };
  writeFileSync(path.join(desk, 'package.json'), JSON.stringify(pkg, null, 2));
  mkdirSync(path.join(desk, 'node_modules'));
  symlinkSync(REPO_ROOT, path.join(desk, 'node_modules', 'ctrlrun-gen'), 'dir');
  spawnSync('git', ['init', '-q', '.'], { cwd: desk });
  return desk;
}

describe('red17: the generated module does not depend on folders outside the repository', () => {
  it('the same repository generates the same text wherever it is checked out', () => {
    const base = mkdtempSync(path.join(os.tmpdir(), 'red17-sdk-types-'));
    dirs.push(base);
    const plain = deskUnder(path.join(base, 'plain'));
    // a folder above the checkout (not part of the repository) that has a package.json of its own
    mkdirSync(path.join(base, 'outer'));
    writeFileSync(path.join(base, 'outer', 'package.json'), JSON.stringify({ dependencies: { '@openai/agents-core': '0.20.0' } }));
    const outer = deskUnder(path.join(base, 'outer'));

    const here = renderGeneratedModule(loadProject({ cwd: plain })).text;
    const there = renderGeneratedModule(loadProject({ cwd: outer })).text;
    expect(there).toBe(here);
  });
});
