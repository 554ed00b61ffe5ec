import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/check/types.js';
import { eslintMessage, NAMESPACE } from '../../src/eslint/index.js';
import { eslintWith, reported } from '../eslint/helpers.js';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * Issue 40, "no false green": an npm workspace whose `agents` package maps its tools (its manifest;
 * the codemod protected them) and whose `server` package, with no manifest of its own, depends on
 * `agents` and answers their interruptions with `result.state.approve/reject(item)`. Those answers
 * authorize nothing (SPEC §5.4), yet check at the root and in `server`, and ESLint there, said
 * nothing of them (no protected tool in the server's own files). `sdk-approval` now reports them,
 * and naming the package whose tools are protected; the server's missing manifest is not reported
 * for them (it owns no tool). A package that does not depend on `agents` stays silent.
 */
function workspace(dependsOnAgents = true): string {
  const root = makeTempDir('check-ws-answers-');
  dirs.push(root);
  const agents = path.join(root, 'packages/agents');
  cpSync(path.join(FIXTURES, 'codemod/_shared'), agents, { recursive: true });
  cpSync(path.join(FIXTURES, 'codemod/app-approvals/input/ctrlrun.tools.yaml'), path.join(agents, 'ctrlrun.tools.yaml'));
  cpSync(path.join(FIXTURES, 'codemod/app-approvals/input/src/tools.ts'), path.join(agents, 'src/tools.ts'));
  writeFileSync(path.join(agents, 'package.json'), JSON.stringify({ name: 'agents', private: true, type: 'module' }));
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'ws', private: true, workspaces: ['packages/*'] }));
  const server = path.join(root, 'packages/server');
  mkdirSync(path.join(server, 'src'), { recursive: true });
  const deps = { dependencies: dependsOnAgents ? { agents: '*', zod: '*' } : { zod: '*' } };
  writeFileSync(path.join(server, 'package.json'), JSON.stringify({ name: 'server', private: true, type: 'module', ...deps }));
  // without the dependency the server answers the interruptions of tools of its own (a copy), not agents'
  // (importing agents' tools by name even without a dependency reaches them: test/check/sibling-answers.test.ts)
  const app = readFileSync(path.join(FIXTURES, 'codemod/app-approvals/input/src/app.ts'), 'utf8');
  writeFileSync(path.join(server, 'src/app.ts'), dependsOnAgents ? app.replace("'./tools.js'", "'agents/src/tools.js'") : app);
  if (!dependsOnAgents) cpSync(path.join(FIXTURES, 'codemod/app-approvals/input/src/tools.ts'), path.join(server, 'src/tools.ts'));
  return root;
}

async function check(cwd: string, paths: readonly string[] = []): Promise<{ code: number; findings: Finding[] }> {
  const r = await cli(['check', '--format', 'json', ...paths], { cwd });
  return { code: r.code, findings: (JSON.parse(r.stdout) as { findings: Finding[] }).findings };
}

const answers = (findings: readonly Finding[]) => findings.filter((f) => f.ruleId === 'sdk-approval').map((f) => `${f.file}:${f.line}`);

describe('sdk-approval in a workspace package that answers another package’s protected tools', () => {
  it('check at the root reports both answers, and not the server’s missing manifest', async () => {
    const root = workspace();
    const { code, findings } = await check(root);
    expect(answers(findings)).toEqual(['packages/server/src/app.ts:11', 'packages/server/src/app.ts:12']);
    expect(findings.find((f) => f.ruleId === 'sdk-approval')!.message).toContain('this package depends on `agents`, whose tools are protected');
    expect(findings.filter((f) => f.file.startsWith('packages/server/') && f.ruleId !== 'sdk-approval' && f.severity === 'error')).toEqual([]);
    expect(code).toBe(1);
  });

  it('check in the server package reports them too', async () => {
    const root = workspace();
    const { findings } = await check(path.join(root, 'packages/server'));
    expect(answers(findings)).toEqual(['src/app.ts:11', 'src/app.ts:12']);
  });

  it('check in the package with the manifest (where CI runs it) reports the dependent’s answers, at its files', async () => {
    const root = workspace();
    const { code, findings } = await check(path.join(root, 'packages/agents'));
    expect(answers(findings)).toEqual(['../server/src/app.ts:11', '../server/src/app.ts:12']);
    expect(findings.find((f) => f.ruleId === 'sdk-approval')!.message).toContain('this package depends on `agents`, whose tools are protected');
    // only that rule: the server's other files and findings are its own check's
    expect(findings.filter((f) => f.file.startsWith('../') && f.ruleId !== 'sdk-approval')).toEqual([]);
    expect(code).toBe(1);
    // the dependent's own suppression applies, as in its own check
    const app = path.join(root, 'packages/server/src/app.ts');
    const lines = readFileSync(app, 'utf8').split('\n');
    lines.splice(10, 0, '// ctrlrun-ignore sdk-approval -- reviewed');
    writeFileSync(app, lines.join('\n'));
    expect(answers((await check(path.join(root, 'packages/agents'))).findings)).toEqual(['../server/src/app.ts:13']);
  });

  it('check given paths reports the dependent’s answers as the whole check does (issue 40): in the package, at the root, each once', async () => {
    const root = workspace();
    const agents = path.join(root, 'packages/agents');
    const whole = answers((await check(agents)).findings);
    expect(whole).toEqual(['../server/src/app.ts:11', '../server/src/app.ts:12']);
    for (const paths of [['.'], ['src'], ['src/tools.ts'], ['../server/src/app.ts'], ['src', '../server']]) {
      const { code, findings } = await check(agents, paths);
      expect(answers(findings), paths.join(' ')).toEqual(whole);
      expect(code).toBe(1);
    }
    expect(answers((await check(path.join(agents, 'src'), ['tools.ts'])).findings)).toEqual(['../../server/src/app.ts:11', '../../server/src/app.ts:12']);
    const atRoot = answers((await check(root)).findings);
    expect(atRoot).toEqual(['packages/server/src/app.ts:11', 'packages/server/src/app.ts:12']);
    for (const paths of [
      ['packages/agents'],
      ['packages/agents', 'packages/server'],
      ['packages/agents/src/tools.ts', 'packages/server/src/app.ts'],
      ['packages'],
    ]) {
      expect(answers((await check(root, paths)).findings), paths.join(' ')).toEqual(atRoot);
    }
    // the dependent's own suppression applies with paths too
    const app = path.join(root, 'packages/server/src/app.ts');
    const lines = readFileSync(app, 'utf8').split('\n');
    lines.splice(10, 0, '// ctrlrun-ignore sdk-approval -- reviewed');
    writeFileSync(app, lines.join('\n'));
    expect(answers((await check(agents, ['src'])).findings)).toEqual(['../server/src/app.ts:13']);
  }, 60_000);

  it('check at the root reports each dependent’s answer once', async () => {
    const root = workspace();
    const all = answers((await check(root)).findings);
    expect(all).toEqual([...new Set(all)]);
  });

  it('ESLint at the root and in the server package reports what check reports', async () => {
    const root = workspace();
    for (const cwd of [root, path.join(root, 'packages/server')]) {
      const expected = (await check(cwd)).findings.filter((f) => f.ruleId === 'sdk-approval').map((f) => `${f.file}:${f.line} ${eslintMessage(f)}`);
      expect(expected).toHaveLength(2);
      const messages = reported(await eslintWith(cwd).lintFiles([cwd === root ? 'packages/server' : 'src']), cwd);
      const got = messages.filter((m) => m.ruleId === `${NAMESPACE}/sdk-approval`).map((m) => `${m.file}:${m.line} ${m.message}`);
      expect(got).toEqual(expected);
      // at the root, as check there: the server's missing manifest is not reported for its answers
      if (cwd === root) expect(messages.filter((m) => m.ruleId === `${NAMESPACE}/policy-invalid`)).toEqual([]);
    }
  }, 60_000);

  it('a package that does not depend on agents: its answers are its own business, not reported', async () => {
    const root = workspace(false);
    expect(answers((await check(root)).findings)).toEqual([]);
    expect(answers((await check(path.join(root, 'packages/server'))).findings)).toEqual([]);
    expect(answers((await check(path.join(root, 'packages/agents'))).findings)).toEqual([]);
    const got = reported(await eslintWith(root).lintFiles(['packages/server']), root).filter((m) => m.ruleId === `${NAMESPACE}/sdk-approval`);
    expect(got).toEqual([]);
  }, 60_000);

  it('agents maps no function tool: nothing of it is protected, nothing reported', async () => {
    const root = workspace();
    const manifest = path.join(root, 'packages/agents/ctrlrun.tools.yaml');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace(/tools:\n[\s\S]*$/, 'tools: []\n'));
    expect(answers((await check(root)).findings)).toEqual([]);
    expect(answers((await check(path.join(root, 'packages/agents'))).findings)).toEqual([]);
  });
});
