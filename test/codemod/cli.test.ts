import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function repo(): string {
  const dir = copyFixture('refund-desk', 'codemod-cli-');
  dirs.push(dir);
  return dir;
}

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, encoding: 'utf8' });
}

/** A committed copy of refund-desk with its generated module (codemod --write refuses without it). */
async function gitRepo(): Promise<string> {
  const dir = repo();
  expect((await cli(['generate'], { cwd: dir })).code).toBe(0);
  writeFileSync(path.join(dir, '.gitignore'), 'node_modules/\n');
  git(dir, 'init', '-q');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'init');
  return dir;
}

const UNMAPPED = `import { tool } from '@openai/agents';\nexport const t = tool({ name: 'translate', execute: async () => 'x' });\n`;

describe('ctrlrun-gen codemod', () => {
  it('names the runs that pass no context the identity reads (issue 21): in the summary and in --json; the exit code is the same', async () => {
    const dir = repo();
    writeFileSync(
      path.join(dir, 'src/main.ts'),
      "import { Agent, run } from '@openai/agents';\nimport { refund } from './tools.js';\nconst desk = new Agent({ name: 'desk', tools: [refund] });\nexport const a = await run(desk, 'refund pay_1');\nexport const b = await run(desk, 'hi', { context: { user: 'ana' } });\n",
    );
    const r = await cli(['codemod'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Runs that pass no context the control's identity reads (every protected call of them is refused, no_principal):");
    expect(r.stdout).toContain('src/main.ts:4:24: run() of desk passes no context; the identity reads runContext.context.user');
    expect(r.stdout).not.toContain('src/main.ts:5:');
    const json = JSON.parse((await cli(['codemod', '--json'], { cwd: dir })).stdout) as { runsWithoutContext?: unknown };
    expect(json.runsWithoutContext).toEqual([{ file: 'src/main.ts', line: 4, column: 24, missing: ['user'] }]);
  });

  it('dry run: a unified diff and a summary, nothing written, exit 0', async () => {
    const dir = repo();
    const before = readFileSync(path.join(dir, 'src/tools.ts'), 'utf8');
    const r = await cli(['codemod'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--- a/src/tools.ts');
    expect(r.stdout).toContain('+++ b/src/tools.ts');
    expect(r.stdout).toContain('-export const refund = tool({');
    expect(r.stdout).toContain("+export const refund = protectedTool('stripe.refund', {");
    expect(r.stdout).toContain("+import { protectedTool } from './ctrlrun.generated.js';");
    expect(r.stdout).toMatch(/3 tools to rewrite in 1 files/);
    expect(r.stdout).toContain('--write');
    expect(r.stdout).not.toContain('\x1b[');
    expect(readFileSync(path.join(dir, 'src/tools.ts'), 'utf8')).toBe(before);
  });

  it('prints paths relative to the working directory and colors on a terminal', async () => {
    const dir = repo();
    const r = await cli(['codemod', '--cwd', 'src'], { cwd: dir, env: {}, isTTY: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('a/tools.ts');
    expect(r.stdout).toContain('\x1b[32m+');
    expect(r.stdout).toContain('\x1b[31m-');
  });

  it('--write in a clean git tree writes the files; a second run changes nothing', async () => {
    const dir = await gitRepo();
    const r = await cli(['codemod', '--write'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('wrote src/tools.ts');
    const after = readFileSync(path.join(dir, 'src/tools.ts'), 'utf8');
    expect(after).toContain("protectedTool('accounts.close', {");
    expect(git(dir, 'status', '--porcelain')).toBe(' M src/tools.ts\n');
    const again = await cli(['codemod', '--write', '--allow-dirty'], { cwd: dir });
    expect(again.code).toBe(0);
    expect(again.stdout).not.toContain('wrote');
    expect(readFileSync(path.join(dir, 'src/tools.ts'), 'utf8')).toBe(after);
  });

  it('refuses a dirty tree with exit 2 unless --allow-dirty', async () => {
    const dir = await gitRepo();
    writeFileSync(path.join(dir, 'src/payments.ts'), '// edited\n', { flag: 'a' });
    const before = readFileSync(path.join(dir, 'src/tools.ts'), 'utf8');
    const refused = await cli(['codemod', '--write'], { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('src/payments.ts');
    expect(refused.stderr).toContain('--allow-dirty');
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(path.join(dir, 'src/tools.ts'), 'utf8')).toBe(before);
    const allowed = await cli(['codemod', '--write', '--allow-dirty'], { cwd: dir });
    expect(allowed.code).toBe(0);
    expect(readFileSync(path.join(dir, 'src/tools.ts'), 'utf8')).not.toBe(before);
  });

  it('untracked files do not make the tree dirty', async () => {
    const dir = await gitRepo();
    writeFileSync(path.join(dir, 'notes.txt'), 'x');
    expect((await cli(['codemod', '--write'], { cwd: dir })).code).toBe(0);
  });

  it('--json: summary and findings for tools; exit 1 with an unmapped tool', async () => {
    const dir = repo();
    writeFileSync(path.join(dir, 'src/translate.ts'), UNMAPPED);
    const r = await cli(['codemod', '--json'], { cwd: dir });
    expect(r.code).toBe(1);
    const json = JSON.parse(r.stdout);
    expect(json.summary).toMatchObject({ toolsRewritten: 3, unmapped: 1, filesRewritten: 1, conflicts: 0 });
    expect(json.exitCode).toBe(1);
    expect(json.files.map((f: { file: string }) => f.file)).toEqual(['src/tools.ts']);
    expect(json.findings).toContainEqual(expect.objectContaining({ kind: 'unmapped', tool: 'translate', file: 'src/translate.ts', line: 2 }));
  });

  it('a file that does not parse is reported with its location and skipped: exit 1', async () => {
    const dir = repo();
    writeFileSync(path.join(dir, 'src/broken.ts'), `import { tool } from '@openai/agents';\nexport const x = tool({ name: 'refund' ;\n`);
    const r = await cli(['codemod'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/src\/broken\.ts:2:\d+: does not parse: .*file skipped/);
    expect(r.stdout).toContain('+++ b/src/tools.ts');
  });

  it('a conflict is reported with both locations: exit 1, tool left unchanged', async () => {
    const dir = repo();
    const tools = path.join(dir, 'src/tools.ts');
    writeFileSync(tools, readFileSync(tools, 'utf8').replace("name: 'refund',", "name: 'refund',\n  needsApproval: true,"));
    const r = await cli(['codemod'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/src\/tools\.ts:21:3: conflict: tool 'refund' keeps its needsApproval/);
    expect(r.stdout).toMatch(/ctrlrun\.yaml:18:\d+: rules\[0\] of stripe\.refund allows without a human/);
    expect(r.stdout).not.toContain("protectedTool('stripe.refund'");
  });

  it('only the given paths are rewritten', async () => {
    const dir = repo();
    writeFileSync(path.join(dir, 'src/translate.ts'), UNMAPPED);
    const r = await cli(['codemod', 'src/translate.ts', '--json'], { cwd: dir });
    const json = JSON.parse(r.stdout);
    expect(json.summary.filesScanned).toBe(1);
    expect(json.files).toEqual([]);
  });

  it('usage and configuration errors exit 2', async () => {
    const dir = repo();
    expect((await cli(['codemod', 'no/such/dir'], { cwd: dir })).code).toBe(2);
    const noManifest = await cli(['codemod'], { cwd: '/' });
    expect(noManifest.code).toBe(2);
    expect(noManifest.stderr).not.toMatch(/\n\s+at /);
  });

  it('shows progress on a terminal when more than 300 files are scanned', async () => {
    const dir = repo();
    mkdirSync(path.join(dir, 'src/many'));
    for (let i = 0; i < 320; i++) writeFileSync(path.join(dir, `src/many/f${i}.ts`), `export const v${i} = ${i};\n`);
    const tty = await cli(['codemod'], { cwd: dir, env: {}, isTTY: true });
    expect(tty.stderr).toMatch(/scanning \d+\/324 files/);
    const piped = await cli(['codemod'], { cwd: dir });
    expect(piped.stderr).not.toContain('scanning');
  });
});

describe('codemod summary: what changes at run time for each rewritten tool (issue 10 item 7)', () => {
  it('lists, per tool, that body failures now stop the run and that approvals go through the control', async () => {
    const dir = repo();
    const r = await cli(['codemod'], { cwd: dir });
    expect(r.code).toBe(0);
    const block = r.stdout.slice(r.stdout.indexOf('What changes at run time for the rewritable tools:'));
    const section = (tool: string) => {
      const start = block.indexOf(`tool '${tool}' -> `);
      expect(start, tool).toBeGreaterThan(-1);
      const rest = block.slice(start);
      const end = rest.indexOf('\nsrc/', 1);
      return end === -1 ? rest.slice(0, rest.indexOf('\n\n')) : rest.slice(0, end);
    };
    const stops = '  - an exception thrown by its execute now stops the run (run() rejects with it)';
    const approvals =
      '  - calls the policy sends to a human pause the run and are filed in the store as they pause (`ctrlrun-gen approvals list`); answer them with control.approve(state, item, { approver })';
    const noSdkApprove = "the SDK's state.approve(item) no longer authorizes them (the call fails with ApprovalMismatch)";
    expect(block).toMatch(
      /^What changes at run time for the rewritable tools:\nsrc\/tools\.ts:\d+:\d+: tool 'lookup_charge' -> protectedTool\('stripe\.charge\.read'\)\n/,
    );
    // stripe.refund can be sent to a human (rule 2) and has an effect key
    expect(section('refund')).toContain(stops);
    expect(section('refund')).toContain(approvals);
    expect(section('refund')).toContain(noSdkApprove);
    expect(section('refund')).toContain('each effect key (refund:{payment_id}:{amount}) runs at most once');
    // a read the policy always allows: no approval line; a deny-only action neither
    expect(section('lookup_charge')).toContain(stops);
    expect(section('lookup_charge')).not.toContain('control.approve');
    expect(section('close_account')).toContain(stops);
    expect(section('close_account')).not.toContain('control.approve');
  });

  it("a tool with its own errorFunction keeps it (no 'stops the run' line); errorFunction: null changes nothing; --json carries the same list", async () => {
    const dir = repo();
    const file = path.join(dir, 'src/tools.ts');
    const text = readFileSync(file, 'utf8')
      .replace("  name: 'refund',\n", "  name: 'refund',\n  errorFunction: (_ctx, error) => `refund failed: ${String(error)}`,\n")
      .replace("  name: 'lookup_charge',\n", "  name: 'lookup_charge',\n  errorFunction: null,\n");
    writeFileSync(file, text);
    const r = await cli(['codemod', '--json'], { cwd: dir });
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { findings: Array<{ kind: string; tool?: string; changes?: Array<{ kind: string }> }> };
    const kinds = (tool: string) => report.findings.find((f) => f.kind === 'rewritten' && f.tool === tool)?.changes?.map((c) => c.kind);
    expect(kinds('refund')).toEqual(['error-function-kept', 'approve-through-control', 'effect-once']);
    expect(kinds('lookup_charge')).toEqual([]);
    expect(kinds('close_account')).toEqual(['body-failure-stops-run']);
  });
});

describe('an app that answers its interruptions itself (issue 40 item 4)', () => {
  it('the tools the policy can pause stay tool(), each a conflict naming the answer and its replacement; exit 1, never "0 conflicts"', async () => {
    const dir = repo();
    writeFileSync(
      path.join(dir, 'src/main.ts'),
      "import { Agent, run } from '@openai/agents';\nimport { refund, lookupCharge } from './tools.js';\nconst desk = new Agent({ name: 'desk', tools: [refund, lookupCharge] });\nexport async function go(user: string) {\n  const result = await run(desk, 'refund pay_1', { context: { user } });\n  for (const interruption of result.interruptions) result.state.reject(interruption);\n  return run(desk, result.state);\n}\n",
    );
    const r = await cli(['codemod'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      "src/tools.ts:19:23: conflict: tool 'refund' keeps tool() because the app answers its approvals itself (result.state.reject(interruption): once protected, each call of it the policy sends to a human would be refused with ApprovalMismatch); left unchanged\n    src/main.ts:6:52: answer through the control instead: await control.reject(result.state, interruption, { approver, message }), the approver being the person who answered (from your app's sign-in, never the model's arguments); then run the codemod again",
    );
    // the charge lookup is never paused (decision: allow): protected all the same
    expect(r.stdout).toContain("+export const lookupCharge = protectedTool('stripe.charge.read', {");
    expect(r.stdout).toMatch(/; 1 conflicts;/);
    expect(r.stdout).not.toContain('-export const refund = tool({');
  });
});

describe('the outcome a script reads (issue 40 item 7)', () => {
  it('every mapped tool rewritten, an unrelated file that does not parse: exit 1 (SPEC §6), and the JSON and the last line say that is the only reason', async () => {
    const dir = await gitRepo();
    writeFileSync(path.join(dir, 'src/broken.ts'), "import { tool } from '@openai/agents';\nexport const broken = (;\n");
    const r = await cli(['codemod', '--write', '--allow-dirty', '--format', 'json'], { cwd: dir });
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as { exitCode: number; outcome: Record<string, unknown> };
    expect(report.exitCode).toBe(1);
    expect(report.outcome).toEqual({
      exitReasons: ['unparseable'],
      rewritten: [
        { file: 'src/tools.ts', line: 6, column: 29, kind: 'rewritten', tool: 'lookup_charge', action: 'stripe.charge.read' },
        { file: 'src/tools.ts', line: 19, column: 23, kind: 'rewritten', tool: 'refund', action: 'stripe.refund' },
        { file: 'src/tools.ts', line: 34, column: 37, kind: 'rewritten', tool: 'close_account', action: 'accounts.close' },
      ],
      conflicts: [],
      unmapped: [],
      notRewritable: [],
      unparseable: [{ file: 'src/broken.ts', line: 2, column: 24, kind: 'parse-error', message: 'Expression expected.' }],
    });
    // the text mode's last line says the same to a person
    git(dir, 'checkout', '--', 'src/tools.ts');
    const text = await cli(['codemod', '--write', '--allow-dirty'], { cwd: dir });
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/\nExit 1: 1 file not parsed or read; every tool the manifest maps was rewritten\.\n$/);
  });

  it('--json is --format json; a conflict and an unmapped tool are their own reasons, each with file:line', async () => {
    const dir = repo();
    const tools = path.join(dir, 'src/tools.ts');
    // lookup_charge gates itself, its action allows everything; translate is in no manifest entry
    const unmapped = UNMAPPED.split('\n').slice(1).join('\n');
    writeFileSync(tools, `${readFileSync(tools, 'utf8').replace("name: 'lookup_charge',", "name: 'lookup_charge',\n  needsApproval: true,")}\n${unmapped}`);
    const json = await cli(['codemod', '--json'], { cwd: dir });
    const format = await cli(['codemod', '--format', 'json'], { cwd: dir });
    expect(format.stdout).toBe(json.stdout);
    const outcome = (JSON.parse(json.stdout) as { outcome: { exitReasons: string[]; conflicts: unknown[]; unmapped: unknown[] } }).outcome;
    expect(outcome.exitReasons).toEqual(['conflicts', 'unmapped']);
    expect(outcome.conflicts).toEqual([expect.objectContaining({ file: 'src/tools.ts', kind: 'conflict', tool: 'lookup_charge', cause: 'needs-approval' })]);
    expect(outcome.unmapped).toEqual([expect.objectContaining({ file: 'src/tools.ts', kind: 'unmapped', tool: 'translate' })]);
    expect(format.code).toBe(1);
    const text = await cli(['codemod'], { cwd: dir });
    expect(text.stdout).toMatch(/\nExit 1: 1 conflict, 1 unmapped tool\.\n$/);
  });
});
