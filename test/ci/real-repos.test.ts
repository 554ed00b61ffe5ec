import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';

/** The real-repos script's pure parts (the script itself needs fetched repositories: docs/real-repos.md). */

const ROOT = path.resolve(import.meta.dirname, '../..');
// plain JavaScript modules of scripts/, outside the typed program: loaded by URL and typed here
const load = async <T>(rel: string): Promise<T> => (await import(pathToFileURL(path.join(ROOT, rel)).href)) as T;
type Check = { exit: number; tsErrors: number } | null;
const { detectPm, pmCommands, snapshotGitDir } = await load<{
  detectPm: (appDir: string, installDir: string) => string;
  pmCommands: (pm: string, workspaceRoot?: boolean) => { add: (specs: string[], dev: boolean) => [string, string[]]; runScript: (s: string) => string };
  snapshotGitDir: (snapshots: string, repo: string) => string | null;
}>('scripts/real-repos/app.mjs');
const { census, unseenKinds } = await load<{
  census: (root: string, files: string[]) => Record<string, number>;
  unseenKinds: (counts: Record<string, number>, entryKinds: Record<string, number>, rules: string[]) => string[];
}>('scripts/real-repos/census.mjs');
const { appChecks, verdict } = await load<{
  appChecks: (o: {
    appDir: string;
    dirs: string[];
    runScript: (s: string) => string;
    trackedFiles: (dir: string) => string[];
  }) => Array<{ name: string; cmd: string }>;
  verdict: (before: Check, after: Check) => string;
}>('scripts/real-repos/checks.mjs');
const { compareRuns, markdownTable } = await load<{ compareRuns: (a: unknown, b: unknown) => string; markdownTable: (r: unknown) => string }>(
  'scripts/real-repos/report.mjs',
);
const dirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = makeTempDir(prefix);
  dirs.push(dir);
  return dir;
};
const list = JSON.parse(readFileSync(path.join(ROOT, 'scripts/real-repos.json'), 'utf8')) as {
  repos: Array<{ id: string; repo: string; commit: string; layout: string[]; doors?: string[]; dir?: string; extract?: string[] }>;
};

afterAll(() => {
  for (const dir of dirs) removeDir(dir);
});

describe('the pinned list', () => {
  it('pins at least fifteen repositories, each once, at a full commit, with its layout', () => {
    expect(list.repos.length).toBeGreaterThanOrEqual(15);
    expect(new Set(list.repos.map((r) => r.id)).size).toBe(list.repos.length);
    for (const r of list.repos) {
      expect(r.repo, r.id).toMatch(/^[\w.-]+\/[\w.-]+$/);
      expect(r.commit, r.id).toMatch(/^[0-9a-f]{40}$/);
      expect(r.layout.length, r.id).toBeGreaterThan(0);
    }
  });

  it('holds at least five repositories with sandbox agents, handoffs or MCP servers (issue 35)', () => {
    const doorRich = list.repos.filter((r) => (r.doors ?? []).some((d) => /sandbox|handoff|mcp/i.test(d)));
    expect(new Set(doorRich.map((r) => `${r.repo}/${r.dir ?? ''}`)).size).toBeGreaterThanOrEqual(5);
  });
});

describe('verdict: whether the app stopped building', () => {
  const pass = { exit: 0, tsErrors: 0 };
  const fail = (tsErrors = 0) => ({ exit: 2, tsErrors });
  it.each([
    [pass, pass, 'ok'],
    [pass, fail(), 'BROKE'],
    [fail(3), pass, 'fixed'],
    [fail(3), fail(3), 'same-fail'],
    [fail(3), fail(4), 'WORSE'],
    [pass, null, 'n/a'],
  ])('%o → %o is %s', (before, after, expected) => {
    expect(verdict(before, after)).toBe(expected);
  });
});

describe("the app's own checks", () => {
  const checksFor = (scripts: Record<string, string>, files: string[] = []) => {
    const dir = tempDir('real-repos-checks-');
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ scripts }));
    writeFileSync(path.join(dir, 'tsconfig.json'), '{}');
    mkdirSync(path.join(dir, 'node_modules', 'typescript'), { recursive: true });
    writeFileSync(path.join(dir, 'node_modules', 'typescript', 'package.json'), '{}');
    return appChecks({ appDir: dir, dirs: ['.'], runScript: (s) => `npm run ${s}`, trackedFiles: () => files }).map((c) => c.cmd);
  };
  it('its type-check and build scripts, the type-check left out where the build type-checks already', () => {
    expect(checksFor({ typecheck: 'tsc --noEmit', build: 'vite build' })).toEqual(['npm run typecheck', 'npm run build']);
    expect(checksFor({ typecheck: 'tsc --noEmit', build: 'tsc' })).toEqual(['npm run build']);
    expect(checksFor({ typecheck: 'tsc --noEmit', build: 'tsc --noEmit && vite build' })).toEqual(['npm run build']);
  });
  it('else tsc over its tsconfig; a script that only echoes is no check', () => {
    expect(checksFor({ test: 'vitest' })).toEqual(['npx --no-install tsc --noEmit -p tsconfig.json']);
    expect(checksFor({ typecheck: 'echo none' })).toEqual(['npx --no-install tsc --noEmit -p tsconfig.json']);
  });
});

describe('the package manager a user of the folder runs', () => {
  const folder = (files: Record<string, string>) => {
    const dir = tempDir('real-repos-pm-');
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
    return dir;
  };
  it('packageManager first, then the lockfile, then npm', () => {
    expect(detectPm(folder({ 'package.json': '{"packageManager":"yarn@1.22.22+sha512.abc"}', 'package-lock.json': '{}' }), '.')).toBe('yarn@1.22.22');
    const pnpm = folder({ 'package.json': '{}', 'pnpm-lock.yaml': "lockfileVersion: '6.0'\n" });
    expect(detectPm(pnpm, pnpm)).toBe('pnpm@8');
    const workspace = folder({ 'package.json': '{}', 'pnpm-workspace.yaml': 'packages: []\n' });
    expect(detectPm(workspace, workspace)).toBe('pnpm@9');
    const plain = folder({ 'package.json': '{}' });
    expect(detectPm(plain, plain)).toBe('npm');
  });
  it('adds at a pnpm workspace root with -w, and runs pnpm through npx at its version', () => {
    const [cmd, args] = pmCommands('pnpm@9', true).add(['/x/a.tgz'], true);
    expect([cmd, ...args]).toEqual(['npx', '-y', 'pnpm@9', 'add', '-w', '-D', '/x/a.tgz']);
    expect(pmCommands('npm').runScript('build')).toBe('npm run build');
  });
  it('finds a fetched snapshot in the layouts a fetch leaves', () => {
    const snapshots = tempDir('real-repos-snap-');
    const gitDir = path.join(snapshots, 'octo+app', 'repo');
    mkdirSync(path.join(gitDir, 'objects'), { recursive: true });
    writeFileSync(path.join(gitDir, 'HEAD'), 'ref: refs/heads/main\n');
    expect(snapshotGitDir(snapshots, 'octo/app')).toBe(gitDir);
    expect(snapshotGitDir(snapshots, 'octo/other')).toBeNull();
  });
});

describe('the census of doors by text', () => {
  it('counts each kind in SDK files only, and names the kinds nothing answers', () => {
    const dir = tempDir('real-repos-census-');
    writeFileSync(
      path.join(dir, 'a.ts'),
      "import { tool } from '@openai/agents';\nimport { SandboxAgent } from '@openai/agents/sandbox';\nconst t = tool({ name: 'x' });\nconst s = new SandboxAgent({ name: 's' });\n",
    );
    writeFileSync(path.join(dir, 'b.ts'), "const t = tool({ name: 'not the SDK' });\n");
    const counts = census(dir, ['a.ts', 'b.ts']);
    expect(counts.tool).toBe(1);
    expect(counts.sandbox).toBe(1);
    expect(unseenKinds(counts, { tool: 1 }, ['run-without-context'])).toEqual(['sandbox']);
    expect(unseenKinds(counts, { tool: 1 }, ['unprotected-sandbox-agent'])).toEqual([]);
  });
});

describe('the table and the comparison', () => {
  const run = (checkExit: number, rules: Record<string, number>, after = 0) => ({
    node: '24.1.0',
    steps: ['init', 'generate', 'codemod', 'codemod-write', 'check'].map((name) => ({ name, exit: name === 'check' ? checkExit : 0 })),
    census: { tool: 2 },
    init: { entryKinds: { tool: 2 }, notes: [] },
    codemodWrite: { toolsRewritten: 2, doorsRewritten: 0, alreadyProtected: 0 },
    check: { byRule: rules },
    checks: [{ name: 'build', dir: '.', before: { exit: 0, tsErrors: 0 }, after: { exit: after, tsErrors: 0 }, verdict: after ? 'BROKE' : 'ok' }],
    flags: after ? ['build BROKE'] : [],
    unseen: [],
  });
  const results = (sha: string, r: ReturnType<typeof run>) => ({
    ref: sha,
    sha,
    nodes: ['24.1.0'],
    repos: [{ id: 'app', layout: ['Vite'], install: [{ pm: 'npm', exit: 0 }], runs: [r] }],
  });
  it('prints a row a repository and Node, with the steps, the doors and the checks', () => {
    const table = markdownTable(results('a'.repeat(40), run(1, { 'run-without-context': 2 })));
    expect(table).toContain('| app | Vite | 24.1.0 | npm 0 | 0, 0, 0, 0, 1 | tool 2 | tool 2 | 2 |');
    expect(table).toContain('run-without-context 2');
  });
  it('says what changed between two runs, and "the same" where nothing did', () => {
    const a = results('a'.repeat(40), run(1, { 'run-without-context': 2 }));
    expect(compareRuns(a, a)).toContain('| app | 24.1.0 | the same |');
    const b = results('b'.repeat(40), run(0, {}, 2));
    const diff = compareRuns(a, b);
    expect(diff).toContain('check exit 1 → 0');
    expect(diff).toContain('run-without-context 2 → 0');
    expect(diff).toContain('build ok → BROKE');
  });
});
