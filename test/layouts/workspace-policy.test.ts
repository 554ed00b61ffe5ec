import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cli } from '../helpers/cli.js';
import { CLI_BIN, REPO_ROOT } from '../helpers/paths.js';
import { removeDir } from '../helpers/temp-repo.js';
import { committedRepo, git, TS_AGENT } from './loop-helpers.js';

/**
 * Issue 25 at a monorepo root (the layout of issue 21 item 3): CI runs `test`, `validate`, `diff`
 * and `replay` at the root, which has no manifest of its own. Each goes through the packages'
 * projects, as `generate` and `check` do, and the workflow template's policy job works there.
 * The template test spawns the built CLI (`npm run build`).
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const pkg = (name: string) => JSON.stringify({ name, private: true, type: 'module' });
let dir = '';
const at = (...p: string[]) => path.join(dir, ...p);
const edit = (file: string, from: string, to: string) => {
  // the line itself, not the starter's comments that show it
  const line = new RegExp(`^${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm');
  const text = readFileSync(at(file), 'utf8');
  expect(text).toMatch(line);
  writeFileSync(at(file), text.replace(line, to));
};

beforeAll(async () => {
  dir = committedRepo(dirs, 'ws-policy-', {
    'package.json': JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'] }),
    'packages/billing/package.json': pkg('billing'),
    'packages/billing/src/agent.ts': TS_AGENT,
    'packages/desk/package.json': pkg('desk'),
    'packages/desk/src/agent.ts': TS_AGENT,
  });
  git(dir, 'branch', '-M', 'main');
  const init = await cli(['init'], { cwd: dir });
  expect(init.code, init.stdout + init.stderr).toBe(0);
}, 60_000);

describe('the policy commands at a workspace root (issue 25, monorepo layout)', () => {
  it('diff against a revision without the policies: each package is compared with "every call denied", so what it lets through is looser', async () => {
    const r = await cli(['diff', 'main'], { cwd: dir });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain('policy diff: main:packages/billing/ctrlrun.yaml (no policy: every call denied) → packages/billing/ctrlrun.yaml');
    expect(r.stdout).toContain('policy diff: main:packages/desk/ctrlrun.yaml (no policy: every call denied) → packages/desk/ctrlrun.yaml');
    expect(r.stdout.match(/\+ refund \(added\): 1 region of calls change \(1 looser, 0 tighter, 0 other\)/g)).toHaveLength(2);
    const json = JSON.parse((await cli(['diff', 'main', '--format', 'json'], { cwd: dir })).stdout) as { packages: Array<{ base: { none?: string } }> };
    expect(json.packages.map((p) => p.base.none)).toEqual(['no policy: every call denied', 'no policy: every call denied']);
    // a revision git does not know stays an error
    const unknown = await cli(['diff', 'no-such-branch'], { cwd: dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('git has no ctrlrun.yaml at revision `no-such-branch`');
  });

  it('test, validate, diff and replay go through each package; reports name the package; the worst exit code wins', async () => {
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'ctrlrun-gen init');
    // desk loosens refund (approve → allow); billing gains a wrong expectation
    edit('packages/desk/ctrlrun.yaml', '    decision: approve', '    decision: allow');
    edit('packages/desk/ctrlrun.test.yaml', '    expect: { decision: approve, reason: "decision" }', '    expect: { decision: allow, reason: "decision" }');
    edit('packages/billing/ctrlrun.test.yaml', '    expect: { decision: approve, reason: "decision" }', '    expect: { decision: deny, reason: "decision" }');

    const junit = await cli(['test', '--coverage', '--format', 'junit', '--output', 'policy-tests.xml'], { cwd: dir });
    expect(junit.code).toBe(1);
    expect(junit.stdout).toBe(
      'packages/billing/ctrlrun.test.yaml: 1 case: 0 passed, 1 failed; coverage 100% (report: policy-tests.xml)\n' +
        'packages/desk/ctrlrun.test.yaml: 1 case: 1 passed, 0 failed; coverage 100% (report: policy-tests.xml)\n',
    );
    const xml = readFileSync(at('policy-tests.xml'), 'utf8');
    expect(xml).toContain('<testsuites name="ctrlrun-gen test" tests="2" failures="1">');
    expect([...xml.matchAll(/<testsuite name="([^"]+)" tests="(\d)" failures="(\d)"/g)].map((m) => m.slice(1))).toEqual([
      ['packages/billing/ctrlrun.test.yaml', '1', '1'],
      ['packages/desk/ctrlrun.test.yaml', '1', '0'],
    ]);
    expect(xml.match(/<\/testsuite>/g)).toHaveLength(2);
    const json = JSON.parse((await cli(['test', '--format', 'json'], { cwd: dir })).stdout) as {
      packages: Array<{ file: string; summary: { failed: number } }>;
      summary: unknown;
    };
    expect(json.packages.map((p) => [p.file, p.summary.failed])).toEqual([
      ['packages/billing/ctrlrun.test.yaml', 1],
      ['packages/desk/ctrlrun.test.yaml', 0],
    ]);
    expect(json.summary).toEqual({ cases: 2, passed: 1, failed: 1 });
    // one package alone, as before
    expect((await cli(['test', '--cwd', 'packages/desk'], { cwd: dir })).code).toBe(0);

    const md = await cli(['diff', 'main', '--format', 'markdown'], { cwd: dir });
    expect(md.code, md.stderr).toBe(1);
    expect(md.stdout).toContain('### Policy diff: `main:packages/billing/ctrlrun.yaml` → `packages/billing/ctrlrun.yaml`\n\nNo change');
    expect(md.stdout).toContain('### Policy diff: `main:packages/desk/ctrlrun.yaml` → `packages/desk/ctrlrun.yaml`');
    expect(md.stdout).toContain('| ⚠️ looser: approve → allow | every call | `{"payment_id":"x","amount":0}` | approve (decision) | allow (decision) |');

    // calls recorded without their decision: the baseline is the policy of the candidate's package
    writeFileSync(at('calls.jsonl'), `${JSON.stringify({ action: 'refund', args: { payment_id: 'p1', amount: 5 } })}\n`);
    const replay = await cli(['replay', '--policy', 'packages/desk/ctrlrun.next.yaml', '--calls', 'calls.jsonl'], { cwd: dir });
    expect(replay.code, replay.stderr).toBe(2); // no such candidate yet
    writeFileSync(
      at('packages/desk/ctrlrun.next.yaml'),
      readFileSync(at('packages/desk/ctrlrun.yaml'), 'utf8').replace(/^ {4}decision: allow$/m, '    decision: deny'),
    );
    const tighter = await cli(['replay', '--policy', 'packages/desk/ctrlrun.next.yaml', '--calls', 'calls.jsonl', '--format', 'json'], { cwd: dir });
    expect(tighter.code, tighter.stderr).toBe(0);
    expect((JSON.parse(tighter.stdout) as { summary: { changed: number; tighter: number } }).summary).toMatchObject({ changed: 1, tighter: 1 });
    // the store is the package's own, where its app writes it
    const store = await cli(['replay', '--policy', 'packages/desk/ctrlrun.next.yaml'], { cwd: dir, env: { NO_COLOR: '1' } });
    expect(store.code).toBe(2);
    expect(store.stderr).toContain('sqlite:packages/desk/.ctrlrun/state.db: no store here yet');
  });

  it("an operator command at the root names the packages' stores when the root has none", async () => {
    const none = await cli(['receipts', 'log'], { cwd: dir });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('hint: runs create it on first use');
    mkdirSync(at('packages/desk/.ctrlrun'), { recursive: true });
    writeFileSync(at('packages/desk/.ctrlrun/state.db'), '');
    try {
      const r = await cli(['approvals', 'list'], { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        "sqlite:.ctrlrun/state.db: no store here yet (the file does not exist).\nhint: the workspace's packages have packages/desk/.ctrlrun/state.db: " +
          'run it in that package (--cwd packages/desk) or pass --store sqlite:packages/desk/.ctrlrun/state.db',
      );
    } finally {
      rmSync(at('packages/desk/.ctrlrun'), { recursive: true });
    }
  });

  it("a root with a store of its own: the operator commands read it, and a line on stderr names the packages' stores (session 14)", async () => {
    for (const d of ['.ctrlrun', 'packages/desk/.ctrlrun', 'packages/billing/.ctrlrun']) {
      mkdirSync(at(d), { recursive: true });
      writeFileSync(at(d, 'state.db'), '');
    }
    try {
      const note =
        'note: this reads sqlite:.ctrlrun/state.db; packages here have stores of their own: packages/billing/.ctrlrun/state.db, packages/desk/.ctrlrun/state.db. ' +
        'To read one, pass --store sqlite:packages/billing/.ctrlrun/state.db, or run the command in its package (--cwd packages/billing)\n';
      const plain = await cli(['approvals', 'list', '--json', '--store', 'sqlite:.ctrlrun/state.db'], { cwd: dir });
      expect(plain.code, plain.stderr).toBe(0);
      expect(plain.stderr).toBe('');
      // the default store: the same stdout and exit code, and the note on stderr
      const root = await cli(['approvals', 'list', '--json'], { cwd: dir });
      expect([root.code, root.stdout, root.stderr]).toEqual([0, plain.stdout, note]);
      // every operator command that reads the default store says it (the shared withStore)
      const log = await cli(['receipts', 'log'], { cwd: dir });
      expect([log.code, log.stderr]).toEqual([0, note]);
      expect(log.stdout).toBe('No decision log entries in sqlite:.ctrlrun/state.db.\n');
      // in a package, its own store and nothing else to say; CTRLRUN_STORE picks one too
      const desk = await cli(['approvals', 'list'], { cwd: at('packages/desk') });
      expect([desk.code, desk.stderr]).toEqual([0, '']);
      const env = await cli(['approvals', 'list'], { cwd: dir, env: { CTRLRUN_STORE: 'sqlite:.ctrlrun/state.db' } });
      expect([env.code, env.stderr]).toEqual([0, '']);
    } finally {
      for (const d of ['.ctrlrun', 'packages/desk/.ctrlrun', 'packages/billing/.ctrlrun']) rmSync(at(d), { recursive: true });
    }
  });

  it("a library root with a manifest and a store of its own: the note names the example's store, not its own", async () => {
    const MANIFEST = 'schema: ctrlrun.tools/v1\npolicy: ctrlrun.yaml\noutput: src/ctrlrun.generated.ts\ntools: []\n';
    const lib = committedRepo(dirs, 'lib-stores-', {
      'package.json': pkg('lib'),
      'src/index.ts': 'export {};\n',
      'ctrlrun.tools.yaml': MANIFEST,
      '.ctrlrun/state.db': '',
      'examples/agent/package.json': pkg('example'),
      'examples/agent/ctrlrun.tools.yaml': MANIFEST,
      'examples/agent/.ctrlrun/state.db': '',
    });
    const r = await cli(['approvals', 'list', '--pending'], { cwd: path.join(lib, 'src') });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('No pending approval requests in sqlite:../.ctrlrun/state.db.\n');
    expect(r.stderr).toBe(
      'note: this reads sqlite:../.ctrlrun/state.db; packages here have stores of their own: ../examples/agent/.ctrlrun/state.db. ' +
        'To read one, pass --store sqlite:../examples/agent/.ctrlrun/state.db, or run the command in its package (--cwd ../examples/agent)\n',
    );
  });

  it('validate prints every package, and every package error, before its exit code', async () => {
    const ok = await cli(['validate'], { cwd: dir });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^ok: packages\/billing\/ctrlrun.yaml .*\nok: packages\/desk\/ctrlrun.yaml /);
    const good = readFileSync(at('packages/billing/ctrlrun.yaml'), 'utf8');
    writeFileSync(at('packages/billing/ctrlrun.yaml'), good.replace(/^ {4}decision: approve$/m, '    decision: aprove'));
    try {
      const bad = await cli(['validate'], { cwd: dir });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('packages/billing/ctrlrun.yaml:');
      expect(bad.stdout).toContain('ok: packages/desk/ctrlrun.yaml');
    } finally {
      writeFileSync(at('packages/billing/ctrlrun.yaml'), good);
    }
  });

  it("the workflow template's policy job runs at the root: one JUnit file, one comment with each package's diff and replay", () => {
    const wf = parse(readFileSync(path.join(REPO_ROOT, 'templates/github-workflow.yml'), 'utf8')) as {
      jobs: { policy: { steps: Array<{ name?: string; run?: string }> } };
    };
    const steps = wf.jobs.policy.steps.filter((s) => s.name === 'ctrlrun-gen test' || s.name === 'ctrlrun-gen diff');
    expect(steps).toHaveLength(2);
    git(dir, 'update-ref', 'refs/remotes/origin/main', 'main');
    writeFileSync(
      at('packages/desk/ctrlrun.calls.jsonl'),
      `${JSON.stringify({ action: 'refund', args: { payment_id: 'p1', amount: 5 }, decision: 'approve' })}\n`,
    );
    const codes = steps.map((s) => {
      const script = s.run!.replaceAll('npx ctrlrun-gen', `"${process.execPath}" "${CLI_BIN}"`).replaceAll('${{ github.base_ref }}', 'main');
      // as GitHub runs a `run:` step
      const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      });
      expect(r.stderr).not.toContain('ctrlrun-gen: ');
      return r.status;
    });
    // billing's failing case; desk's looser refund
    expect(codes).toEqual([1, 1]);
    expect(readFileSync(at('policy-tests.xml'), 'utf8').match(/<testsuite /g)).toHaveLength(2);
    const comment = readFileSync(at('policy-report.md'), 'utf8');
    expect(comment).toContain('`origin/main:packages/billing/ctrlrun.yaml`');
    expect(comment).toContain('`origin/main:packages/desk/ctrlrun.yaml`');
    expect(comment).toContain('packages/desk/ctrlrun.calls.jsonl');
  }, 60_000);
});

describe('the policy commands at a package with a nested package (a library and its examples/agent)', () => {
  it('diff, test and validate at the library root see the nested policy too; replay uses the candidate package', async () => {
    const lib = committedRepo(dirs, 'nested-policy-', {
      'package.json': pkg('lib'),
      'src/agent.ts': TS_AGENT,
      'examples/agent/package.json': pkg('example'),
      'examples/agent/src/agent.ts': TS_AGENT,
    });
    expect((await cli(['init'], { cwd: lib })).code).toBe(0);
    git(lib, 'add', '-A');
    git(lib, 'commit', '-qm', 'init');
    const file = path.join(lib, 'examples/agent/ctrlrun.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^ {4}decision: approve$/m, '    decision: allow'));
    // the example's loosening fails the root's CI job, as check's open doors there do
    const diff = await cli(['diff', 'HEAD'], { cwd: lib });
    expect(diff.code, diff.stdout + diff.stderr).toBe(1);
    expect(diff.stdout).toMatch(/^policy diff: HEAD:ctrlrun.yaml \(sha256:\w+\) → ctrlrun.yaml /m);
    expect(diff.stdout).toContain('no change: every call is decided as before');
    expect(diff.stdout).toMatch(/^policy diff: HEAD:examples\/agent\/ctrlrun.yaml \(sha256:\w+\) → examples\/agent\/ctrlrun.yaml /m);
    expect(diff.stdout).toContain('looser  approve → allow  where every call');
    const test = await cli(['test'], { cwd: lib });
    expect(test.code).toBe(1);
    expect(test.stdout).toContain('== examples/agent/ctrlrun.test.yaml');
    expect((await cli(['validate'], { cwd: lib })).stdout.match(/^ok: /gm)).toHaveLength(2);
    // --manifest picks one project again
    expect((await cli(['diff', 'HEAD', '--manifest', 'ctrlrun.tools.yaml'], { cwd: lib })).code).toBe(0);
    const replay = await cli(['replay', '--policy', 'examples/agent/ctrlrun.yaml'], { cwd: lib });
    expect(replay.code).toBe(2);
    expect(replay.stderr).toContain('sqlite:examples/agent/.ctrlrun/state.db: no store here yet');
  }, 60_000);
});
