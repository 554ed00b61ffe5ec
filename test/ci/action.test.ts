import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import AjvDraft04 from 'ajv-draft-04';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { FIXTURES, REPO_ROOT } from '../helpers/paths.js';

/**
 * The composite action (action.yml) run as the runner runs it, without act: each `run:` step's
 * script through `bash --noprofile --norc -eo pipefail` (the runner's shell for `shell: bash`) with
 * the step's `env` and `working-directory`, its `${{ }}` expressions evaluated from the inputs,
 * `runner.temp` and the outputs earlier steps wrote to $GITHUB_OUTPUT. `uses:` steps are checked,
 * not run: setup-node gets the input's Node version, and upload-sarif gets a SARIF file that the
 * official 2.1.0 schema accepts (what code scanning validates).
 */
interface Step {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
  'working-directory'?: string;
}
interface Action {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}
const action = parse(readFileSync(path.join(REPO_ROOT, 'action.yml'), 'utf8')) as Action;
const schema = JSON.parse(readFileSync(path.join(REPO_ROOT, 'test/data/sarif-schema-2.1.0.json'), 'utf8'));
const validateSarif = new AjvDraft04.default({ strict: false, validateFormats: false, unicodeRegExp: false }).compile(schema);

interface Context {
  inputs: Record<string, string>;
  runner: { temp: string };
  steps: Record<string, { outputs: Record<string, string> }>;
}

/** The value of one `${{ }}` operand: a context path, or a quoted literal. */
function operand(text: string, ctx: Context): string {
  const t = text.trim();
  if (/^'.*'$/.test(t)) return t.slice(1, -1);
  const parts = t.split('.');
  let value: unknown = ctx;
  for (const p of parts) value = value === undefined || value === null ? undefined : (value as Record<string, unknown>)[p];
  return value === undefined ? '' : String(value);
}

/** The expression forms action.yml uses: operands, `==`, `!=`, `&&`, `always()`. */
function evaluate(expression: string, ctx: Context): string {
  const e = expression.trim();
  if (e.includes('&&')) return e.split('&&').every((p) => evaluate(p, ctx) === 'true') ? 'true' : 'false';
  if (e === 'always()') return 'true';
  const cmp = /^(.*?)(==|!=)(.*)$/.exec(e);
  if (cmp) return (operand(cmp[1]!, ctx) === operand(cmp[3]!, ctx)) === (cmp[2] === '==') ? 'true' : 'false';
  return operand(e, ctx);
}

const substitute = (text: string, ctx: Context) => text.replace(/\$\{\{(.*?)\}\}/g, (_m, e: string) => evaluate(e, ctx));

interface Run {
  code: number;
  log: string;
  outputs: Record<string, string>;
  uploaded?: { sarif: unknown; category: string };
  nodeVersion?: string;
}

/** Runs the action's steps in `repo` with these inputs (defaults from action.yml), stopping at the first failing step, as the runner does. */
function runAction(repo: string, given: Record<string, string>): Run {
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, given[k] ?? v.default ?? '']));
  const temp = mkdtempSync(path.join(tmpdir(), 'ctrlrun-runner-'));
  const ctx: Context = { inputs, runner: { temp }, steps: {} };
  const run: Run = { code: 0, log: '', outputs: {} };
  for (const step of action.runs.steps) {
    if (step.if !== undefined && evaluate(step.if.replace(/^\$\{\{|\}\}$/g, ''), ctx) !== 'true') continue;
    if (step.uses?.startsWith('actions/setup-node@')) {
      run.nodeVersion = substitute(step.with!['node-version']!, ctx);
      continue;
    }
    if (step.uses?.startsWith('github/codeql-action/upload-sarif@')) {
      const file = substitute(step.with!.sarif_file!, ctx);
      run.uploaded = { sarif: JSON.parse(readFileSync(file, 'utf8')), category: substitute(step.with!.category!, ctx) };
      continue;
    }
    expect(step.shell).toBe('bash');
    const output = path.join(temp, `output-${step.id ?? 'step'}`);
    writeFileSync(output, '');
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(v, ctx)]));
    const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run!], {
      cwd: path.resolve(repo, substitute(step['working-directory'] ?? '.', ctx)),
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', GITHUB_OUTPUT: output, RUNNER_TEMP: temp, ...env },
      encoding: 'utf8',
      timeout: 120_000,
    });
    run.log += r.stdout + r.stderr;
    const outputs = Object.fromEntries(
      readFileSync(output, 'utf8')
        .split('\n')
        .filter((l) => l.includes('='))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    if (step.id) ctx.steps[step.id] = { outputs };
    if (r.status !== 0) {
      run.code = r.status ?? -1;
      break;
    }
  }
  run.outputs = Object.fromEntries(Object.entries(action.outputs).map(([k, v]) => [k, substitute(v.value, ctx)]));
  rmSync(temp, { recursive: true, force: true });
  return run;
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A copy of a check fixture with ctrlrun-gen installed as a user's repo has it (linked to this build). */
function repoWithCtrlrun(fixture: string, installed = true): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-action-'));
  dirs.push(dir);
  cpSync(path.join(FIXTURES, 'check', fixture, 'repo'), dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'agent-app', private: true, devDependencies: { 'ctrlrun-gen': '*' } }));
  if (installed) {
    mkdirSync(path.join(dir, 'node_modules/.bin'), { recursive: true });
    symlinkSync(REPO_ROOT, path.join(dir, 'node_modules/ctrlrun-gen'));
    symlinkSync(path.join(REPO_ROOT, 'dist/bin/ctrlrun-gen.cjs'), path.join(dir, 'node_modules/.bin/ctrlrun-gen'));
  }
  return dir;
}

describe('the GitHub Action (action.yml)', () => {
  it('is a composite action on Node 22 or 24', () => {
    expect(action.runs.using).toBe('composite');
    expect(existsSync(path.join(REPO_ROOT, 'dist/bin/ctrlrun-gen.cjs'))).toBe(true);
  });

  it('annotates, uploads SARIF and fails the job on error findings', () => {
    const repo = repoWithCtrlrun('open-doors');
    const run = runAction(repo, {});
    expect(run.code).toBe(1);
    expect(run.nodeVersion).toBe('22');
    expect(run.outputs['exit-code']).toBe('1');
    expect(run.log).toContain('::error file=src/tools.ts,line=31,col=27,title=unmapped-tool::');
    expect(run.uploaded?.category).toBe('ctrlrun-gen');
    expect(validateSarif(run.uploaded?.sarif), JSON.stringify(validateSarif.errors)).toBe(true);
    const results = (run.uploaded!.sarif as { runs: Array<{ results: Array<{ ruleId: string }> }> }).runs[0]!.results;
    expect(results.map((r) => r.ruleId)).toContain('unmapped-tool');
  });

  it('passes `fail-on`, `paths` and `node-version` through; no upload when told not to', () => {
    const repo = repoWithCtrlrun('open-doors');
    const run = runAction(repo, { 'fail-on': 'warning', paths: 'src/agent.ts', 'node-version': '24', 'upload-sarif': 'false' });
    expect(run.nodeVersion).toBe('24');
    expect(run.code).toBe(1);
    expect(run.log).toContain('::warning file=src/agent.ts,line=1,col=28,title=tracing-sensitive-data::');
    expect(run.log).not.toContain('file=src/tools.ts');
    expect(run.uploaded).toBeUndefined();
  });

  it('a configuration error is exit 2, with its findings still uploaded', () => {
    const run = runAction(repoWithCtrlrun('bad-policy'), {});
    expect(run.code).toBe(2);
    expect(run.outputs['exit-code']).toBe('2');
    expect(run.log).toContain('title=policy-invalid::');
    expect(validateSarif(run.uploaded?.sarif)).toBe(true);
  });

  it('refuses a bad input or a repo without ctrlrun-gen, with a message (exit 2)', () => {
    const repo = repoWithCtrlrun('open-doors');
    const badNode = runAction(repo, { 'node-version': '20' });
    expect(badNode.code).toBe(2);
    expect(badNode.log).toContain("node-version must be 22 or 24, got '20'");
    const badFailOn = runAction(repo, { 'fail-on': 'fatal' });
    expect(badFailOn.code).toBe(2);
    expect(badFailOn.log).toContain("fail-on must be error or warning, got 'fatal'");
    const missing = runAction(repoWithCtrlrun('open-doors', false), {});
    expect(missing.code).toBe(2);
    expect(missing.log).toContain('ctrlrun-gen is not installed here');
    expect(missing.uploaded).toBeUndefined();
  });
});
