import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script, no declarations
import { NEEDED, nodeProblem } from '../../scripts/check-node.mjs';
import { REPO_ROOT } from '../helpers/paths.js';

// Issue 40 item 7: `npm test` on a Node the tests do not support stops at once, with one line
// naming the Node found and the one needed (package.json's `pretest`).
const SCRIPT = path.join(REPO_ROOT, 'scripts/check-node.mjs');
const version = (node: string) => spawnSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();

describe('the Node check before npm test', () => {
  it("is npm test's first step", () => {
    const scripts = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.pretest).toBe('node scripts/check-node.mjs');
  });

  it('names the Node found and the one needed below 22.13; nothing from 22.13 on', () => {
    expect(NEEDED).toBe('22.13.0');
    expect(nodeProblem('20.20.2')).toBe(
      'npm test needs Node 22.13.0 or later (24 for development: .nvmrc); this is Node 20.20.2. Switch Node (nvm use) and run it again; the package itself runs on Node 20.19+.',
    );
    for (const old of ['v22.12.9', '22.0.0', '18.20.4', '21.99.0']) expect(nodeProblem(old), old).toContain(`this is Node ${old.replace(/^v/, '')}.`);
    for (const fine of ['22.13.0', '22.13.1', '22.20.0', '23.0.0', '24.11.1', 'v26.0.0']) expect(nodeProblem(fine), fine).toBeNull();
  });

  it('as a process: exit 0 on this Node (the tests run), exit 1 and one line on every older Node at hand', () => {
    const here = spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8' });
    expect(here.status).toBe(nodeProblem(process.versions.node) === null ? 0 : 1);
    // CI lists its Node 20 and 22 binaries (.ci/run); the test may itself run on an old one
    const nodes = [process.execPath, ...(process.env.CTRLRUN_TEST_NODES ?? '').split(path.delimiter).filter(Boolean)];
    const old = nodes.filter((n) => nodeProblem(version(n)) !== null);
    if (old.length === 0) console.warn('no Node older than 22.13 at hand (CTRLRUN_TEST_NODES): the check ran on this Node only');
    for (const node of old) {
      const r = spawnSync(node, [SCRIPT], { encoding: 'utf8' });
      expect(r.status).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`${nodeProblem(version(node))}\n`);
    }
  });
});
