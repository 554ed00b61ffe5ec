import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/check/types.js';
import { siblingServerAnswersTests, writeAgentsPackage, writeAnsweringApp } from '../helpers/answering-workspace.js';
import { cli } from '../helpers/cli.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * Issue 40 item 4 (was red21-file-chain-answers). Layout: three sibling folders with no workspace root and no git work
 * tree above them (session 21's "dependents by path" layout, one step longer): `agents` holds the
 * tools and the manifest; `core`, a shared library, depends on it by path (`"agents":
 * "file:../agents"`) and re-exports its tools; `server` depends on `core` by path (`"core":
 * "file:../core"`), the usual way to put a shared layer between an app and its tools, and answers
 * their interruptions with `result.state.approve(item)`. Path dependents were read one step deep
 * (the folders beside `agents` that name it: `core`, which answers nothing), and without a bound the
 * importers' search reads nothing, so the codemod rewrites close_account with "0 conflicts" and
 * check in `agents` is green; at run time every approved call of close_account is refused
 * ApprovalMismatch. The same server depending on `agents` directly is kept as a conflict (control).
 */
function siblings(serverDependsOn: 'core' | 'agents'): string {
  const root = makeTempDir('file-chain-');
  dirs.push(root);
  writeAgentsPackage(path.join(root, 'agents'));
  const specifier = serverDependsOn === 'core' ? 'core/src/index.js' : 'agents/src/tools.js';
  writeFiles(root, {
    'core/package.json': JSON.stringify({ name: 'core', private: true, type: 'module', dependencies: { agents: 'file:../agents' } }),
    'core/src/index.ts': "export * from 'agents/src/tools.js';\n",
  });
  writeAnsweringApp(path.join(root, 'server'), specifier, {
    name: 'server',
    private: true,
    type: 'module',
    dependencies: { [serverDependsOn]: `file:../${serverDependsOn}` },
  });
  return root;
}

describe('a server reaching the tools through a shared library, each by a file: dependency, no workspace, no git', () => {
  siblingServerAnswersTests(() => path.join(siblings('core'), 'agents'));

  // control: the server naming agents itself by path is read
  it('check in the server (no manifest of its own) reports its answers, naming agents', async () => {
    const server = path.join(siblings('core'), 'server');
    const c = await cli(['check', '--format', 'json'], { cwd: server });
    const answers = (JSON.parse(c.stdout) as { findings: Finding[] }).findings.filter((f) => f.ruleId === 'sdk-approval');
    expect(answers.map((f) => `${f.file}:${f.line}`)).toEqual(['src/app.ts:11', 'src/app.ts:12']);
    expect(answers[0]!.message).toContain('depends on `agents`');
    expect(c.code).toBe(1);
  });

  it('a chain longer than four steps is not followed: 0 conflicts', async () => {
    const root = siblings('core');
    // server -> l4 -> l3 -> l2 -> core -> agents: five steps
    const chain = ['core', 'l2', 'l3', 'l4'];
    for (let i = 1; i < chain.length; i++)
      writeFiles(root, {
        [`${chain[i]}/package.json`]: JSON.stringify({ name: chain[i], type: 'module', dependencies: { [chain[i - 1]!]: `file:../${chain[i - 1]}` } }),
        [`${chain[i]}/src/index.ts`]: `export * from '${chain[i - 1]}/src/index.js';\n`,
      });
    writeFiles(root, {
      'server/package.json': JSON.stringify({ name: 'server', type: 'module', dependencies: { l4: 'file:../l4' } }),
      'server/src/app.ts': readFileSync(path.join(root, 'server/src/app.ts'), 'utf8').replace("'core/src/index.js'", "'l4/src/index.js'"),
    });
    expect((await cli(['codemod'], { cwd: path.join(root, 'agents') })).stdout).toContain('0 conflicts');
    writeFiles(root, { 'server/package.json': JSON.stringify({ name: 'server', type: 'module', dependencies: { l3: 'file:../l3' } }) });
    expect((await cli(['codemod'], { cwd: path.join(root, 'agents') })).stdout).toContain('1 conflicts');
  });

  it('control: a server depending on agents directly by path is kept as a conflict', async () => {
    const r = await cli(['codemod'], { cwd: path.join(siblings('agents'), 'agents') });
    expect(r.stdout).toContain('1 conflicts');
    expect(r.stdout).toContain('../server/src/app.ts:11');
  });
});
