import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { writeAgentsPackage } from './answering-workspace.js';
import { FIXTURES } from './paths.js';

/**
 * How the `server` folder beside `agents` reaches (or does not reach) the tools whose interruptions
 * its `src/app.ts` answers (issue 40 item 4): by a relative path with no package.json dependency,
 * by name (`"agents": "file:../agents"`) in a root that is no workspace, through the package's
 * barrel, through a module of its own that re-exports them; or not at all (its own copy of the
 * tools, and an import of a module of `agents` that declares none).
 */
export type SiblingReach = 'relative' | 'by-name' | 'barrel' | 'own-module' | 'none';

/** The layouts whose `server/src/app.ts` reaches the tools, each with a label for a test's name. */
export const REACHING: readonly { reach: SiblingReach; workspace?: boolean; label: string }[] = [
  { reach: 'relative', label: 'relative' },
  { reach: 'relative', workspace: true, label: 'relative, in a workspace' },
  { reach: 'by-name', label: 'by-name' },
  { reach: 'barrel', label: 'barrel' },
  { reach: 'own-module', label: 'own-module' },
];

const SPECIFIER: Record<SiblingReach, string> = {
  relative: '../../agents/src/tools.js',
  'by-name': 'agents/src/tools.js',
  barrel: '../../agents/src/index.js',
  'own-module': './desk-tools.js',
  none: './tools.js',
};

/**
 * Siblings under `root`: `agents` holds the app-approvals fixture's tools and manifest (and a barrel,
 * `src/index.ts`, and `src/version.ts`, which declares no tool); `server` answers interruptions with
 * `result.state.approve/reject(item)` in `src/app.ts`. The root is a git work tree and no workspace,
 * unless `workspace` (then a workspace root listing both folders, with no git).
 */
export function writeSiblingRoot(root: string, reach: SiblingReach, options: { workspace?: boolean } = {}): void {
  const input = path.join(FIXTURES, 'codemod/app-approvals/input');
  const agents = path.join(root, 'agents');
  writeAgentsPackage(agents);
  writeFileSync(path.join(agents, 'src/index.ts'), "export * from './tools.js';\n");
  writeFileSync(path.join(agents, 'src/version.ts'), "export const version = '1.0.0';\n");
  const workspaces = options.workspace ? { workspaces: ['agents', 'server'] } : {};
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'monorepo', private: true, ...workspaces }));
  const server = path.join(root, 'server');
  mkdirSync(path.join(server, 'src'), { recursive: true });
  const deps = reach === 'by-name' ? { dependencies: { agents: 'file:../agents' } } : {};
  writeFileSync(path.join(server, 'package.json'), JSON.stringify({ name: 'server', private: true, type: 'module', ...deps }));
  const app = readFileSync(path.join(input, 'src/app.ts'), 'utf8').replace("'./tools.js'", `'${SPECIFIER[reach]}'`);
  writeFileSync(path.join(server, 'src/app.ts'), reach === 'none' ? `import '../../agents/src/version.js';\n${app}` : app);
  if (reach === 'own-module')
    writeFileSync(path.join(server, 'src/desk-tools.ts'), "export { closeAccount, lookupCharge } from '../../agents/src/tools.js';\n");
  if (reach === 'none') cpSync(path.join(input, 'src/tools.ts'), path.join(server, 'src/tools.ts'));
  if (!options.workspace) execFileSync('git', ['init', '-q'], { cwd: root });
}
