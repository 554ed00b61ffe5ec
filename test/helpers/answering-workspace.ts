import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FIXTURES } from './paths.js';

/**
 * An npm workspace at `root` (issue 40): `packages/agents` holds the app-approvals fixture's tools
 * and manifest; `packages/server` answers their interruptions with `state.approve(item)` in
 * `src/app.ts`, importing them as `agents/src/tools.js`. `dependencies` are the server's: without
 * `agents` among them, the server answers the interruptions of a copy of the tools of its own
 * (importing agents' tools even without the dependency reaches them: sibling-answers tests).
 */
export function writeAnsweringWorkspace(root: string, dependencies: Record<string, string>): void {
  const agents = path.join(root, 'packages/agents');
  const input = path.join(FIXTURES, 'codemod/app-approvals/input');
  cpSync(path.join(FIXTURES, 'codemod/_shared'), agents, { recursive: true });
  cpSync(path.join(input, 'ctrlrun.tools.yaml'), path.join(agents, 'ctrlrun.tools.yaml'));
  cpSync(path.join(input, 'src/tools.ts'), path.join(agents, 'src/tools.ts'));
  writeFileSync(path.join(agents, 'package.json'), JSON.stringify({ name: 'agents', private: true, type: 'module' }));
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'ws', private: true, workspaces: ['packages/*'] }));
  const server = path.join(root, 'packages/server');
  mkdirSync(path.join(server, 'src'), { recursive: true });
  const deps = Object.keys(dependencies).length > 0 ? { dependencies } : {};
  writeFileSync(path.join(server, 'package.json'), JSON.stringify({ name: 'server', private: true, type: 'module', ...deps }));
  const dependent = Object.hasOwn(dependencies, 'agents');
  const app = readFileSync(path.join(input, 'src/app.ts'), 'utf8');
  writeFileSync(path.join(server, 'src/app.ts'), dependent ? app.replace("'./tools.js'", "'agents/src/tools.js'") : app);
  if (!dependent) cpSync(path.join(input, 'src/tools.ts'), path.join(server, 'src/tools.ts'));
}
