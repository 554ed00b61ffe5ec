import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CLI_BIN, REPO_ROOT } from '../helpers/paths.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';
import { LOOSENINGS, POLICY, pullRequest } from './loosenings.js';

// The workflow template's policy gate, run as GitHub runs it (bash -eo pipefail) on a throwaway
// repository whose branch changes the policy: every loosening a reviewer tried fails the job (exit
// 1) with the report it would comment; a change that only tightens passes. `npx ctrlrun-gen` is
// this build's CLI (a shim on PATH), `origin/<base>` the base branch.

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const workflow = parse(readFileSync(path.join(REPO_ROOT, 'templates/github-workflow.yml'), 'utf8'));
const step: { run: string } = workflow.jobs.policy.steps.find((s: { run?: string }) => s.run?.includes('ctrlrun-gen diff'));
const script = step.run.replaceAll('${{ github.base_ref }}', 'main');

const shims = makeTempDir('npx-shim-');
dirs.push(shims);
writeFileSync(path.join(shims, 'npx'), `#!/bin/sh\n[ "$1" = ctrlrun-gen ] || exit 127\nshift\nexec "${process.execPath}" "${CLI_BIN}" "$@"\n`);
chmodSync(path.join(shims, 'npx'), 0o755);

function gate(dir: string): { code: number; report: string } {
  spawnSync('git', ['update-ref', 'refs/remotes/origin/main', 'main'], { cwd: dir });
  const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
    cwd: dir,
    env: { ...process.env, PATH: `${shims}${path.delimiter}${process.env.PATH}`, NO_COLOR: '1' },
    encoding: 'utf8',
  });
  return { code: r.status ?? -1, report: readFileSync(path.join(dir, 'policy-report.md'), 'utf8') };
}

describe("the workflow template's diff step as a pull request's gate", () => {
  for (const [name, change] of Object.entries(LOOSENINGS)) {
    it(`fails the job: ${name}`, () => {
      const { code, report } = gate(pullRequest(change, dirs));
      expect(code, report).toBe(1);
      expect(report).toContain('⚠️ ');
    });
  }

  it('passes a change that only tightens (an approve made a deny), with the report', () => {
    const dir = pullRequest(
      (d) => writeFileSync(path.join(d, 'ctrlrun.yaml'), POLICY.replace('      - decision: approve\n', '      - decision: deny\n')),
      dirs,
    );
    const { code, report } = gate(dir);
    expect(code, report).toBe(0);
    expect(report).toContain('tighter: approve → deny');
  });
});
