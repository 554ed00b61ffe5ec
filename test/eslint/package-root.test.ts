import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/check/types.js';
import { elsewhereMessage, eslintMessage, NAMESPACE } from '../../src/eslint/index.js';
import { CLI_BIN, FIXTURES } from '../helpers/paths.js';
import { writeFiles } from '../helpers/temp-repo.js';
import { eslintWith, reported } from './helpers.js';

/**
 * ESLint run at a root of packages (seen on a public repo: sibling packages, init wrote manifests
 * in the four with tools): `check` there goes through the packages' manifests and says nothing of
 * a package with none; ESLint from the same root reports what check reports, not "no manifest"
 * for the files of that package.
 */
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const PLAIN = `import { Agent, run } from '@openai/agents';

const agent = new Agent({ name: 'hello', instructions: 'Say hello.' });
export const answer = run(agent, 'hi');
`;

const OPEN = `import { Agent, run, tool } from '@openai/agents';
import { z } from 'zod';

const wipe = tool({ name: 'wipe', description: 'Wipe', parameters: z.object({}), execute: async () => 'gone' });
export const agent = new Agent({ name: 'ops', tools: [wipe] });
`;

/**
 * A root of packages: the open-doors fixture (a manifest, open doors) as the package at `desk`,
 * `hello` (the SDK, no tool, no manifest), and `more`.
 */
function rootOfPackages(prefix: string, desk: string, more: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(root);
  cpSync(path.join(FIXTURES, 'check/open-doors/repo'), path.join(root, desk), { recursive: true });
  writeFiles(root, {
    'package.json': JSON.stringify({ name: 'root', private: true }),
    [`${desk}/package.json`]: JSON.stringify({ name: 'desk', private: true, type: 'module' }),
    'hello/package.json': JSON.stringify({ name: 'hello', private: true, type: 'module' }),
    'hello/index.ts': PLAIN,
    ...more,
  });
  return root;
}

describe('ESLint at a root of packages', () => {
  it('reports what check at that root reports: the package with a manifest, nothing of the one without', async () => {
    const root = rootOfPackages('ctrlrun-eslint-root-', 'desk', {});
    const r = spawnSync(process.execPath, [CLI_BIN, 'check', '--format', 'json'], { cwd: root, encoding: 'utf8' });
    const check = (JSON.parse(r.stdout) as { findings: Finding[] }).findings;
    expect(check.length).toBeGreaterThan(0);
    expect(
      check.every((f) => f.file.startsWith('desk/')),
      r.stdout,
    ).toBe(true);

    const results = await eslintWith(root).lintFiles(['.']);
    const key = (f: { file: string; line: number; ruleId: string | null }) => `${f.file}:${f.line} ${f.ruleId}`;
    const linted = new Set(results.map((x) => x.filePath.slice(root.length + 1)));
    const messages = reported(results, root);
    expect(messages.filter((m) => m.file.startsWith('hello/'))).toEqual([]);
    // each finding check places in a linted file is ESLint's there, with check's message and hint
    // (a file that does not parse is ESLint's own fatal error there)
    const expected = check
      .filter((f) => linted.has(f.file) && f.ruleId !== 'parse-error')
      .map((f) => `${key({ ...f, ruleId: `${NAMESPACE}/${f.ruleId}` })} ${eslintMessage(f)}`);
    const got = messages.map((m) => `${key(m)} ${m.message}`);
    expect(expected.filter((e) => !got.includes(e))).toEqual([]);
  }, 60_000);

  it('a package without a manifest that has an open door: ESLint reports what check reports there', async () => {
    const root = rootOfPackages('ctrlrun-eslint-uncovered-', 'desk', {
      'open/package.json': JSON.stringify({ name: 'open', private: true, type: 'module' }),
      'open/index.ts': OPEN,
    });
    const r = spawnSync(process.execPath, [CLI_BIN, 'check', '--format', 'json'], { cwd: root, encoding: 'utf8' });
    const check = (JSON.parse(r.stdout) as { findings: Finding[] }).findings;
    const inOpen = check.filter((f) => f.file === 'open/index.ts');
    expect(inOpen.map((f) => f.ruleId)).toContain('unprotected-tool');
    const messages = reported(await eslintWith(root).lintFiles(['.']), root);
    expect(messages.filter((m) => m.file.startsWith('hello/'))).toEqual([]);
    const got = messages.filter((m) => m.file === 'open/index.ts').map((m) => `${m.line} ${m.ruleId} ${m.message}`);
    for (const f of inOpen) expect(got).toContain(`${f.line} ${NAMESPACE}/${f.ruleId} ${eslintMessage(f)}`);
  }, 60_000);

  it('at a workspace root, a package its patterns do not list: ESLint reports what check reports there', async () => {
    const root = rootOfPackages('ctrlrun-eslint-unlisted-', 'desk', {
      'package.json': JSON.stringify({ name: 'root', private: true, workspaces: ['desk'] }),
      'examples/open/package.json': JSON.stringify({ name: 'open', private: true, type: 'module' }),
      'examples/open/index.ts': OPEN,
    });
    const r = spawnSync(process.execPath, [CLI_BIN, 'check', '--format', 'json'], { cwd: root, encoding: 'utf8' });
    const check = (JSON.parse(r.stdout) as { findings: Finding[] }).findings;
    const inOpen = check.filter((f) => f.file === 'examples/open/index.ts');
    expect(inOpen.map((f) => f.ruleId)).toContain('unprotected-tool');
    expect(check.map((f) => f.file)).toContain('examples/open/ctrlrun.tools.yaml');
    const messages = reported(await eslintWith(root).lintFiles(['examples']), root);
    const got = messages.map((m) => `${m.file}:${m.line} ${m.ruleId} ${m.message}`);
    expect(got.length).toBeGreaterThan(0);
    for (const f of inOpen) expect(got).toContain(`${f.file}:${f.line} ${NAMESPACE}/${f.ruleId} ${eslintMessage(f)}`);
  }, 60_000);

  it("the root's own files outside every package: ESLint reports what check reports there", async () => {
    const root = rootOfPackages('ctrlrun-eslint-root-own-', 'desk', { 'scripts/ops.ts': OPEN });
    const r = spawnSync(process.execPath, [CLI_BIN, 'check', '--format', 'json'], { cwd: root, encoding: 'utf8' });
    const check = (JSON.parse(r.stdout) as { findings: Finding[] }).findings;
    const inOps = check.filter((f) => f.file === 'scripts/ops.ts');
    expect(inOps.map((f) => f.ruleId)).toContain('unprotected-tool');
    const got = reported(await eslintWith(root).lintFiles(['scripts']), root).map((m) => `${m.file}:${m.line} ${m.ruleId} ${m.message}`);
    for (const f of inOps) expect(got).toContain(`${f.file}:${f.line} ${NAMESPACE}/${f.ruleId} ${eslintMessage(f)}`);
    // the root's missing manifest, as check words it, shown on the file at line 1
    const missing = check.find((f) => f.ruleId === 'policy-invalid' && f.file === 'ctrlrun.tools.yaml')!;
    expect(missing.message).toContain('The root, outside every package,');
    expect(got).toContain(`scripts/ops.ts:1 ${NAMESPACE}/policy-invalid ${elsewhereMessage(missing)}`);
  }, 60_000);

  it('a package without a manifest that kept a generated module: ESLint reports it open as check does, the module itself quiet', async () => {
    const generated =
      "// Code generated by ctrlrun-gen from ctrlrun.yaml and ctrlrun.tools.yaml. DO NOT EDIT.\nimport type { FunctionTool } from '@openai/agents';\nimport { bindProtectedTool } from 'ctrlrun-gen/runtime';\nexport const protectedTool = bindProtectedTool;\nexport type T = FunctionTool;\n";
    const root = rootOfPackages('ctrlrun-eslint-left-', 'desk', {
      'gone/package.json': JSON.stringify({ name: 'gone', private: true, type: 'module' }),
      'gone/index.ts': PLAIN,
      'gone/ctrlrun.generated.ts': generated,
    });
    const r = spawnSync(process.execPath, [CLI_BIN, 'check', '--format', 'json'], { cwd: root, encoding: 'utf8' });
    const check = (JSON.parse(r.stdout) as { findings: Finding[] }).findings;
    const inGone = check.filter((f) => f.file.startsWith('gone/'));
    expect(
      inGone.map((f) => `${f.file} ${f.ruleId}`),
      r.stdout,
    ).toContain('gone/ctrlrun.tools.yaml policy-invalid');
    expect(inGone.filter((f) => f.file === 'gone/ctrlrun.generated.ts')).toEqual([]);
    const messages = reported(await eslintWith(root).lintFiles(['gone']), root);
    // open, as check has it: its files name the missing manifest in check's words (where, and why)
    const missing = inGone.find((f) => f.ruleId === 'policy-invalid')!;
    expect(messages.filter((m) => m.file === 'gone/index.ts' && m.ruleId === `${NAMESPACE}/policy-invalid`).map((m) => [m.severity, m.message])).toEqual([
      [2, elsewhereMessage(missing)],
    ]);
    // the module's own code is no door
    expect(messages.filter((m) => m.file === 'gone/ctrlrun.generated.ts')).toEqual([]);
  }, 60_000);

  it("a package without a manifest around one with a manifest: the inner one's doors do not open the outer one", async () => {
    const root = rootOfPackages('ctrlrun-eslint-nested-', 'app/desk', {
      'app/package.json': JSON.stringify({ name: 'app', private: true, type: 'module' }),
      'app/index.ts': PLAIN,
    });
    const r = spawnSync(process.execPath, [CLI_BIN, 'check', '--format', 'json'], { cwd: root, encoding: 'utf8' });
    const check = (JSON.parse(r.stdout) as { findings: Finding[] }).findings;
    expect(check.some((f) => f.file.startsWith('app/desk/') && f.severity === 'error')).toBe(true);
    expect(check.filter((f) => !f.file.startsWith('app/desk/'))).toEqual([]);
    const messages = reported(await eslintWith(root).lintFiles(['app']), root);
    expect(messages.some((m) => m.file.startsWith('app/desk/'))).toBe(true);
    expect(messages.filter((m) => !m.file.startsWith('app/desk/'))).toEqual([]);
  }, 60_000);
});
