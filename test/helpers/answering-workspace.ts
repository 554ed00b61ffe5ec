import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
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

/**
 * An npm workspace at `root` (issue 40): `packages/agents` holds the app-approvals fixture's tools
 * and manifest; `packages/server` answers their interruptions with `state.approve(item)` in
 * `src/app.ts`, importing them as `agents/src/tools.js`. `dependencies` are the server's: without
 * `agents` among them, the server answers the interruptions of a copy of the tools of its own
 * (importing agents' tools even without the dependency reaches them: sibling-answers tests).
 */
export function writeAnsweringWorkspace(root: string, dependencies: Record<string, string>): void {
  writeAgentsPackage(path.join(root, 'packages/agents'));
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'ws', private: true, workspaces: ['packages/*'] }));
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
