import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { Finding } from '../../src/check/types.js';
import { cli } from './cli.js';
import { FIXTURES } from './paths.js';

const INPUT = path.join(FIXTURES, 'codemod/app-approvals/input');

/** The `agents` package at `dir`: the app-approvals fixture's tools (`src/tools.ts`) and manifest, whose interruptions an app answers. */
export function writeAgentsPackage(dir: string): void {
  cpSync(path.join(FIXTURES, 'codemod/_shared'), dir, { recursive: true });
  cpSync(path.join(INPUT, 'ctrlrun.tools.yaml'), path.join(dir, 'ctrlrun.tools.yaml'));
  cpSync(path.join(INPUT, 'src/tools.ts'), path.join(dir, 'src/tools.ts'));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'agents', private: true, type: 'module' }));
}

/**
 * An app at `dir` whose `src/app.ts` answers the tools' interruptions with `result.state.approve/
 * reject(item)` (lines 11 and 12), importing them from `specifier`; `packageJson` is its
 * package.json (the workspace root's own, when the root is the app).
 */
export function writeAnsweringApp(dir: string, specifier: string, packageJson: Record<string, unknown>): void {
  mkdirSync(path.join(dir, 'src'), { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify(packageJson));
  writeFileSync(path.join(dir, 'src/app.ts'), readFileSync(path.join(INPUT, 'src/app.ts'), 'utf8').replace("'./tools.js'", `'${specifier}'`));
}

/** An npm workspace (`packages/*`) at `root` holding the `agents` package (`writeAgentsPackage`) in packages/agents; the test adds the app that answers. */
export function writeAgentsWorkspace(root: string): void {
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'ws', private: true, workspaces: ['packages/*'] }));
  writeAgentsPackage(path.join(root, 'packages/agents'));
}

/**
 * An npm workspace at `root` (issue 40): `packages/agents` holds the app-approvals fixture's tools
 * and manifest; `packages/server` answers their interruptions with `state.approve(item)` in
 * `src/app.ts`, importing them as `agents/src/tools.js`. `dependencies` are the server's: without
 * `agents` among them, the server answers the interruptions of a copy of the tools of its own
 * (importing agents' tools even without the dependency reaches them: sibling-answers tests).
 */
export function writeAnsweringWorkspace(root: string, dependencies: Record<string, string>): void {
  writeAgentsWorkspace(root);
  const server = path.join(root, 'packages/server');
  const deps = Object.keys(dependencies).length > 0 ? { dependencies } : {};
  const dependent = Object.hasOwn(dependencies, 'agents');
  writeAnsweringApp(server, dependent ? 'agents/src/tools.js' : './tools.js', { name: 'server', private: true, type: 'module', ...deps });
  if (!dependent) cpSync(path.join(INPUT, 'src/tools.ts'), path.join(server, 'src/tools.ts'));
}

/**
 * `generate` and `codemod --write` in the `agents` package at `agents`, then `check --format json`
 * at `root`: where check says the app answers a protected tool's interruptions (`sdk-approval`,
 * `file:line` from the root), and its exit code.
 */
export async function answersAfterWrite(root: string, agents: string): Promise<{ answers: string[]; code: number; generated: number }> {
  const generated = (await cli(['generate'], { cwd: agents })).code;
  await cli(['codemod', '--write'], { cwd: agents });
  const c = await cli(['check', '--format', 'json'], { cwd: root });
  const findings = (JSON.parse(c.stdout) as { findings: Finding[] }).findings;
  return { answers: findings.filter((f) => f.ruleId === 'sdk-approval').map((f) => `${f.file}:${f.line}`), code: c.code, generated };
}

/**
 * The two tests of a workspace (`workspace()`: a fresh one from `writeAgentsWorkspace`) whose
 * `packages/server` answers agents' interruptions at src/app.ts lines 11 and 12: the codemod in
 * packages/agents keeps close_account as a conflict naming the server's answer; after generate and
 * codemod --write, check at the root reports both answers and exits 1.
 */
export function serverAnswersTests(workspace: () => string): void {
  it('the codemod keeps close_account as a conflict', async () => {
    const root = workspace();
    const r = await cli(['codemod'], { cwd: path.join(root, 'packages/agents') });
    expect(r.stdout).toContain('1 conflicts');
    expect(r.stdout).toContain('server/src/app.ts:');
  });

  it('after generate and codemod --write, check at the root reports the server’s answers', async () => {
    const root = workspace();
    const r = await answersAfterWrite(root, path.join(root, 'packages/agents'));
    expect(r.generated).toBe(0);
    expect(r.answers).toEqual(['packages/server/src/app.ts:11', 'packages/server/src/app.ts:12']);
    expect(r.code).toBe(1);
  });
}

/**
 * The two tests of sibling checkouts (`agentsDir()`: a fresh layout's `agents` folder) whose
 * `server` folder beside it answers agents' interruptions at src/app.ts lines 11 and 12: the
 * codemod in agents keeps close_account as a conflict naming the server's answer (exit 1); after
 * generate and codemod --write, check in agents reports both answers and exits 1.
 */
export function siblingServerAnswersTests(agentsDir: () => string): void {
  it('the codemod keeps close_account as a conflict naming server/src/app.ts', async () => {
    const r = await cli(['codemod'], { cwd: agentsDir() });
    expect(r.stdout).toContain('1 conflicts');
    expect(r.stdout).toContain('../server/src/app.ts:11');
    expect(r.code).toBe(1);
  });

  it('after generate and codemod --write, check in agents is not green', async () => {
    const agents = agentsDir();
    const r = await answersAfterWrite(agents, agents);
    expect(r.generated).toBe(0);
    expect(r.answers).toEqual(['../server/src/app.ts:11', '../server/src/app.ts:12']);
    expect(r.code).toBe(1);
  });
}
