import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/check/types.js';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';
import { eslintWith } from '../eslint/helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * Two sibling packages with neither a workspace root nor a git work tree around them (issue 40 item
 * 4): the server depends on the agents package by path (`"agents": "file:../agents"`, the layout the
 * package managers' docs show for local packages) and answers its tools' interruptions with
 * `result.state.approve(item)`. Dependents were looked for only in a workspace, so the codemod
 * removed `needsApproval` with "0 conflicts" and check in the server was then green, while every
 * approved call of close_account was refused ApprovalMismatch. `spec` is the server's dependency.
 */
function siblings(spec = 'file:../agents'): string {
  const root = makeTempDir('file-dependency-');
  dirs.push(root);
  const agents = path.join(root, 'agents');
  cpSync(path.join(FIXTURES, 'codemod/_shared'), agents, { recursive: true });
  cpSync(path.join(FIXTURES, 'codemod/app-approvals/input/ctrlrun.tools.yaml'), path.join(agents, 'ctrlrun.tools.yaml'));
  cpSync(path.join(FIXTURES, 'codemod/app-approvals/input/src/tools.ts'), path.join(agents, 'src/tools.ts'));
  writeFileSync(path.join(agents, 'package.json'), JSON.stringify({ name: 'agents', private: true, type: 'module' }));
  const server = path.join(root, 'server');
  mkdirSync(path.join(server, 'src'), { recursive: true });
  writeFileSync(path.join(server, 'package.json'), JSON.stringify({ name: 'server', private: true, type: 'module', dependencies: { agents: spec } }));
  const app = readFileSync(path.join(FIXTURES, 'codemod/app-approvals/input/src/app.ts'), 'utf8').replace("'./tools.js'", "'agents/src/tools.js'");
  writeFileSync(path.join(server, 'src/app.ts'), app);
  return root;
}

async function checkFindings(cwd: string): Promise<{ code: number; findings: Finding[] }> {
  const c = await cli(['check', '--format', 'json'], { cwd });
  return { code: c.code, findings: (JSON.parse(c.stdout) as { findings: Finding[] }).findings };
}

const answers = (findings: Finding[]) => findings.filter((f) => f.ruleId === 'sdk-approval').map((f) => `${f.file}:${f.line}`);

describe('a dependent by path (`file:`, `link:`) outside any workspace and git work tree answers the tools’ interruptions', () => {
  for (const spec of ['file:../agents', 'link:../agents', 'file:../agents/']) {
    it(`the codemod keeps close_account as a conflict (${spec})`, async () => {
      const root = siblings(spec);
      const r = await cli(['codemod'], { cwd: path.join(root, 'agents') });
      expect(r.stdout).toContain('1 conflicts');
      expect(r.stdout).toContain('../server/src/app.ts:11:38');
      expect(r.code).toBe(1);
    });
  }

  it('after generate and codemod --write, check in the server reports its answers, and not a missing manifest', async () => {
    const root = siblings();
    const agents = path.join(root, 'agents');
    expect((await cli(['generate'], { cwd: agents })).code).toBe(0);
    await cli(['codemod', '--write'], { cwd: agents });
    const { code, findings } = await checkFindings(path.join(root, 'server'));
    expect(answers(findings)).toEqual(['src/app.ts:11', 'src/app.ts:12']);
    expect(findings.find((f) => f.ruleId === 'sdk-approval')!.message).toContain('this package depends on `agents`');
    expect(findings.filter((f) => f.ruleId === 'policy-invalid')).toEqual([]);
    expect(code).toBe(1);
  });

  it('check in the package with the manifest reports the dependent’s answers', async () => {
    const { code, findings } = await checkFindings(path.join(siblings(), 'agents'));
    expect(answers(findings)).toEqual(['../server/src/app.ts:11', '../server/src/app.ts:12']);
    expect(code).toBe(1);
  });

  it('an ESLint session in the server reports its answers, and not a missing manifest', async () => {
    const server = path.join(siblings(), 'server');
    const [result] = await eslintWith(server).lintFiles([path.join(server, 'src/app.ts')]);
    const ids = result!.messages.map((m) => `${m.ruleId}:${m.line}`);
    expect(ids.filter((id) => id.includes('sdk-approval'))).toEqual(['ctrlrun/sdk-approval:11', 'ctrlrun/sdk-approval:12']);
    expect(ids.filter((id) => id.includes('policy-invalid'))).toEqual([]);
  });

  // a dependency by version (the registry's `agents`) or a path to another folder is not this package
  for (const spec of ['^1.0.0', 'file:../elsewhere', 'file:../agents.tgz']) {
    it(`a server whose \`agents\` is ${spec} is not read, and its check still asks for a manifest`, async () => {
      const root = siblings(spec);
      mkdirSync(path.join(root, 'elsewhere'));
      const r = await cli(['codemod'], { cwd: path.join(root, 'agents') });
      expect(r.stdout).toContain('0 conflicts');
      const { code, findings } = await checkFindings(path.join(root, 'server'));
      expect(answers(findings)).toEqual([]);
      expect(findings.map((f) => f.ruleId)).toContain('policy-invalid');
      expect(code).toBe(2);
      expect(answers((await checkFindings(path.join(root, 'agents'))).findings)).toEqual([]);
    });
  }
});
