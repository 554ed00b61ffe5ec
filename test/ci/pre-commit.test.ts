import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { FIXTURES, REPO_ROOT } from '../helpers/paths.js';

/**
 * The pre-commit hook (.pre-commit-hooks.yaml) as pre-commit runs it: its `files` pattern picks
 * the staged files, and its `entry` (a `language: script` hook: a path in this repository) runs at
 * the root of the user's repository with those file names as arguments.
 */
interface Hook {
  id: string;
  entry: string;
  language: string;
  files: string;
  pass_filenames: boolean;
}
const hooks = parse(readFileSync(path.join(REPO_ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as Hook[];
const hook = hooks.find((h) => h.id === 'ctrlrun-check')!;

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A monorepo: packages/desk (open doors), packages/broken (a policy that does not load), docs/ (no manifest). */
function monorepo(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'ctrlrun-precommit-'));
  dirs.push(root);
  cpSync(path.join(FIXTURES, 'check/open-doors/repo'), path.join(root, 'packages/desk'), { recursive: true });
  cpSync(path.join(FIXTURES, 'check/bad-policy/repo'), path.join(root, 'packages/broken'), { recursive: true });
  mkdirSync(path.join(root, 'docs'));
  writeFileSync(path.join(root, 'docs/example.ts'), "import { tool } from '@openai/agents';\n");
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'mono', private: true }));
  mkdirSync(path.join(root, 'node_modules/.bin'), { recursive: true });
  symlinkSync(REPO_ROOT, path.join(root, 'node_modules/ctrlrun-gen'));
  symlinkSync(path.join(REPO_ROOT, 'dist/bin/ctrlrun-gen.cjs'), path.join(root, 'node_modules/.bin/ctrlrun-gen'));
  return root;
}

/** pre-commit's run of the hook on these staged files: the `files` filter, then the entry. */
function runHook(root: string, staged: string[]) {
  // pre-commit matches `files` with Python's re.search; this pattern means the same in JavaScript
  const selected = staged.filter((f) => new RegExp(hook.files).test(f));
  const r = spawnSync(path.join(REPO_ROOT, hook.entry), hook.pass_filenames ? selected : [], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' },
    encoding: 'utf8',
    timeout: 180_000,
  });
  return { selected, code: r.status, out: r.stdout + r.stderr };
}

describe('the pre-commit hook', () => {
  it('is a script hook that takes the staged file names', () => {
    expect(hook.language).toBe('script');
    expect(hook.pass_filenames).toBe(true);
  });

  it("checks each staged file's package once, and fails with the worst exit code", () => {
    const root = monorepo();
    const r = runHook(root, ['packages/desk/src/tools.ts', 'packages/desk/src/agent.ts', 'packages/broken/ctrlrun.yaml', 'docs/example.ts', 'README.md']);
    expect(r.selected).toEqual(['packages/desk/src/tools.ts', 'packages/desk/src/agent.ts', 'packages/broken/ctrlrun.yaml', 'docs/example.ts']);
    expect(r.out.match(/ctrlrun-gen check in packages\/desk\n/g)).toHaveLength(1);
    expect(r.out).toContain('ctrlrun-gen check in packages/broken');
    expect(r.out).toContain('unmapped-tool');
    expect(r.out).toContain('policy-invalid');
    expect(r.code).toBe(2);
  });

  it('one package with findings: exit 1; files in no package: nothing runs, exit 0', () => {
    const root = monorepo();
    const desk = runHook(root, ['packages/desk/src/tools.ts']);
    expect(desk.code).toBe(1);
    expect(desk.out).not.toContain('packages/broken');
    const none = runHook(root, ['docs/example.ts']);
    expect(none.code).toBe(0);
    expect(none.out).toBe('');
  });

  it('says what to install when ctrlrun-gen is missing (exit 2)', () => {
    const root = monorepo();
    rmSync(path.join(root, 'node_modules'), { recursive: true });
    const r = runHook(root, ['packages/desk/src/tools.ts']);
    expect(r.code).toBe(2);
    expect(r.out).toContain('npm i -D ctrlrun-gen ctrlrun-gen-cli');
  });
});
