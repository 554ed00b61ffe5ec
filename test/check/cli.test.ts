import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exitCode } from '../../src/cli/commands/check.js';
import type { Finding } from '../../src/check/types.js';
import { cli, cliProcess } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';

const OPEN_DOORS = path.join(FIXTURES, 'check/open-doors/repo');
interface JsonReport {
  findings: Finding[];
  summary: { errors: number; warnings: number; total: number; omitted: number; filesConsidered: number; filesParsed: number };
}
const json = (stdout: string): JsonReport => JSON.parse(stdout);

describe('exit codes', () => {
  const f = (severity: 'error' | 'warning'): Finding => ({ ruleId: 'x', severity, file: 'a', line: 1, column: 1, message: '', hint: '' });
  it('0 below fail-on, 1 at or above, 2 on a config error', () => {
    expect(exitCode([], false, 'error')).toBe(0);
    expect(exitCode([f('warning')], false, 'error')).toBe(0);
    expect(exitCode([f('warning')], false, 'warning')).toBe(1);
    expect(exitCode([f('error')], false, 'error')).toBe(1);
    expect(exitCode([], true, 'error')).toBe(2);
  });
});

describe('ctrlrun-gen check (in-process)', () => {
  const temps: string[] = [];
  afterAll(() => temps.forEach(removeDir));

  it('paths limit the scan, relative to the working directory', async () => {
    const r = await cli(['check', 'src/agent.ts', '--format', 'json'], { cwd: OPEN_DOORS });
    const files = new Set(json(r.stdout).findings.map((x) => x.file));
    expect([...files].sort()).toEqual(['src/agent.ts', 'src/ctrlrun.generated.ts']);
    const fromSrc = await cli(['check', 'agent.ts', '--format', 'json'], { cwd: path.join(OPEN_DOORS, 'src') });
    expect(json(fromSrc.stdout).findings.map((x) => x.file)).toContain('agent.ts');
    expect(json(fromSrc.stdout).findings.map((x) => x.file)).toContain('ctrlrun.generated.ts');
  });

  it('--fail-on warning turns warnings into a failing exit', async () => {
    const dir = copyFixture(path.join(FIXTURES, 'check/open-doors/repo'), 'check-failon-');
    temps.push(dir);
    // Keep only warnings: drop the files with errors and regenerate the module.
    writeFileSync(path.join(dir, 'src/tools.ts'), readFileSync(path.join(dir, 'src/tools.ts'), 'utf8').split('// Mapped, but still')[0]!);
    writeFileSync(path.join(dir, 'src/agent.ts'), "import { Agent } from '@openai/agents';\nexport const agent = new Agent({ name: 'a', mcpServers: [] });\n");
    for (const f of ['src/broken.ts', 'src/suppressed.ts']) writeFileSync(path.join(dir, f), 'export {};\n');
    const manifest = path.join(dir, 'ctrlrun.tools.yaml');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('  - tool: send_receipt\n    action: mail.send\n', ''));
    // The fixture's module is hand-written (a stale one for other cases); generate never overwrites such a file.
    rmSync(path.join(dir, 'src/ctrlrun.generated.ts'));
    const gen = await cli(['generate'], { cwd: dir });
    expect(gen.stderr).toBe('');
    expect(gen.code).toBe(0);
    const r = await cli(['check', '--format', 'json'], { cwd: dir });
    expect(json(r.stdout).findings.map((x) => `${x.severity}:${x.ruleId}`)).toEqual([
      // the fixture's policy has a condition its tool's schema makes always true, and one it makes impossible
      'warning:always-true-condition',
      'warning:impossible-condition',
      'warning:tracing-sensitive-data',
      'warning:error-function-without-effect',
    ]);
    expect(r.code).toBe(0);
    expect((await cli(['check', '--fail-on', 'warning'], { cwd: dir })).code).toBe(1);
  });

  it('--max-findings caps the output, not the exit code or the counts', async () => {
    const r = await cli(['check', '--format', 'json', '--max-findings', '2'], { cwd: OPEN_DOORS });
    const out = json(r.stdout);
    expect(r.code).toBe(1);
    expect(out.findings).toHaveLength(2);
    expect(out.summary.total).toBeGreaterThan(2);
    expect(out.summary.omitted).toBe(out.summary.total - 2);
    const text = await cli(['check', '--max-findings', '0'], { cwd: OPEN_DOORS });
    expect(text.stdout).toMatch(/not shown \(--max-findings\)/);
  });

  it('usage errors exit 2 with a message', async () => {
    const bad = await cli(['check', '--format', 'xml'], { cwd: OPEN_DOORS });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/format/);
    const missing = await cli(['check', 'no/such/dir'], { cwd: OPEN_DOORS });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file or directory: no/such/dir');
    const negative = await cli(['check', '--max-findings', '-1'], { cwd: OPEN_DOORS });
    expect(negative.code).toBe(2);
    expect(negative.stderr).toContain('--max-findings');
  });

  it('colors on a terminal, none with NO_COLOR', async () => {
    const tty = await cli(['check'], { cwd: OPEN_DOORS, isTTY: true, env: {} });
    expect(tty.stdout).toMatch(/\x1b\[/);
    const noColor = await cli(['check'], { cwd: OPEN_DOORS, isTTY: true, env: { NO_COLOR: '1' } });
    expect(noColor.stdout).not.toMatch(/\x1b\[/);
  });

  it('--manifest points at a manifest elsewhere; a missing one is a config error', async () => {
    const r = await cli(['check', '--manifest', 'repo/ctrlrun.tools.yaml', '--format', 'json'], { cwd: path.dirname(OPEN_DOORS) });
    expect(r.code).toBe(1);
    expect(json(r.stdout).findings.some((x) => x.file === 'repo/src/tools.ts' && x.ruleId === 'unknown-action')).toBe(true);
    const none = await cli(['check', '--manifest', 'nope.yaml', '--format', 'json'], { cwd: OPEN_DOORS });
    expect(none.code).toBe(2);
    expect(json(none.stdout).findings[0]).toMatchObject({ ruleId: 'policy-invalid' });
  });

  it('--fix protects the mapped tools and writes the generated module; check then passes', async () => {
    const dir = copyFixture('refund-desk', 'check-fix-');
    temps.push(dir);
    const before = await cli(['check', '--format', 'json'], { cwd: dir });
    expect(before.code).toBe(1);
    const rules = new Set(json(before.stdout).findings.map((x) => x.ruleId));
    expect(rules.has('unprotected-tool')).toBe(true);
    expect(rules.has('stale-generated')).toBe(true);

    const fixed = await cli(['check', '--fix', '--allow-dirty', '--format', 'json'], { cwd: dir });
    expect(fixed.stderr).toMatch(/check --fix: 3 tool\(s\) protected in 1 file\(s\); wrote src\/ctrlrun\.generated\.ts/);
    expect(fixed.code).toBe(0);
    expect(existsSync(path.join(dir, 'src/ctrlrun.generated.ts'))).toBe(true);
    expect(readFileSync(path.join(dir, 'src/tools.ts'), 'utf8')).toContain("protectedTool('stripe.refund'");
    const errors = json(fixed.stdout).findings.filter((x) => x.severity === 'error');
    expect(errors).toEqual([]);

    const again = await cli(['check'], { cwd: dir });
    expect(again.code).toBe(0);
  });

  it("--fix creates the generated module's directory when the manifest names a new one", async () => {
    const dir = copyFixture('refund-desk', 'check-fix-dir-');
    temps.push(dir);
    const manifest = path.join(dir, 'ctrlrun.tools.yaml');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('output: src/ctrlrun.generated.ts', 'output: src/generated/ctrlrun.ts'));
    const fixed = await cli(['check', '--fix', '--allow-dirty', '--format', 'json'], { cwd: dir });
    expect(fixed.stderr).toContain('wrote src/generated/ctrlrun.ts');
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(existsSync(path.join(dir, 'src/generated/ctrlrun.ts'))).toBe(true);
  });

  it('--fix refuses a dirty git tree without --allow-dirty', async () => {
    const dir = copyFixture('refund-desk', 'check-dirty-');
    temps.push(dir);
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd: dir,
        stdio: 'pipe',
        env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e' },
      });
    git('init', '-q');
    git('add', 'src', 'ctrlrun.yaml', 'ctrlrun.tools.yaml');
    git('commit', '-qm', 'init');
    writeFileSync(path.join(dir, 'src/agent.ts'), `${readFileSync(path.join(dir, 'src/agent.ts'), 'utf8')}// edited\n`);
    const r = await cli(['check', '--fix'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('uncommitted changes');
    expect(readFileSync(path.join(dir, 'src/tools.ts'), 'utf8')).not.toContain('protectedTool');
  });
});

describe('ctrlrun-gen check (the built binary)', () => {
  it('prints workflow commands and exits 1 on findings, as a CI shell sees it', () => {
    const r = cliProcess(['check', '--format', 'github'], { cwd: OPEN_DOORS });
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n').filter((l) => l.startsWith('::error ')).length).toBeGreaterThan(0);
    expect(r.stderr).toBe('');
  });

  it('exits 2 with no manifest, and still prints the SARIF', () => {
    const r = cliProcess(['check', '--format', 'sarif'], { cwd: path.join(FIXTURES, 'check/no-manifest/repo') });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).runs[0].results[0].ruleId).toBe('policy-invalid');
  });
});

describe('a tool generate leaves unprotected (issue 40)', () => {
  const temps: string[] = [];
  afterAll(() => temps.forEach(removeDir));

  it("check still says why, at the policy's line (policy-invalid), besides the door left open", async () => {
    const dir = copyFixture('refund-desk', 'check-leftout-');
    temps.push(dir);
    const policy = path.join(dir, 'ctrlrun.yaml');
    writeFileSync(policy, readFileSync(policy, 'utf8').replace('amount_gte: 1, amount_lte: 10000', 'amount_gte: 1, amount_cents_lte: 10000'));
    expect((await cli(['generate'], { cwd: dir })).code).toBe(1);
    const r = await cli(['check', '--format', 'json'], { cwd: dir });
    // a policy-invalid finding is a configuration error, as when it stopped generate
    expect(r.code).toBe(2);
    const findings = json(r.stdout).findings;
    expect(findings).toContainEqual(
      expect.objectContaining({
        ruleId: 'policy-invalid',
        file: 'ctrlrun.yaml',
        message: expect.stringContaining('`amount_cents_lte` tests the argument `amount_cents`, which tool `refund` does not have'),
      }),
    );
    expect(findings.filter((x) => x.ruleId === 'unprotected-tool').map((x) => x.message)).toContainEqual(expect.stringContaining("SDK tool 'refund'"));
    expect(findings.some((x) => x.ruleId === 'stale-generated')).toBe(false);
  });
});
