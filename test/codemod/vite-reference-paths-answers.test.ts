import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/check/types.js';
import { cli } from '../helpers/cli.js';
import { writeSiblingRoot } from '../helpers/sibling-answers.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * Issue 40 item 4 (was red21-vite-app-paths). Layout: a git work tree with `agents` (the tools and the manifest) and a
 * Vite app `web` beside it whose `src/App.tsx` runs a RealtimeSession over agents' tools and answers
 * `tool_approval_requested` itself (`session.approve(request.approvalItem)`, as the SDK's
 * realtime-next example does). It reaches the tools by a tsconfig alias, `@agents/*` ->
 * `../agents/src/*`, written where `npm create vite` (react-ts) puts compiler options: in
 * `tsconfig.app.json`, which the solution-style `tsconfig.json` (`files: []`, `references`) points
 * to; `vite-tsconfig-paths` and `tsc -b` both read it there. The scanner read aliases only from a
 * folder's `tsconfig.json` (scan/layout.ts), so the import resolves to nothing, the importers'
 * search finds no reach: the codemod rewrites close_account with "0 conflicts" and check (in
 * `agents` and at the root) is green, while at run time every approval the person gives in the
 * browser authorizes nothing and the call is refused ApprovalMismatch (the session's error event).
 * The same app with the alias in `web/tsconfig.json` is kept as a conflict (the control below).
 */
const APP = [
  "import { RealtimeAgent, RealtimeSession } from '@openai/agents/realtime';",
  "import { closeAccount, lookupCharge } from '@agents/tools';",
  '',
  "const agent = new RealtimeAgent({ name: 'desk', instructions: 'Help.', tools: [closeAccount, lookupCharge] });",
  '',
  'export function startDesk(token: string) {',
  '  const session = new RealtimeSession(agent);',
  "  session.on('tool_approval_requested', (_context, _agent, request) => {",
  '    if (confirm(`Allow ${request.approvalItem.name}?`)) session.approve(request.approvalItem);',
  '    else session.reject(request.approvalItem);',
  '  });',
  '  return session.connect({ apiKey: token });',
  '}',
  '',
].join('\n');

function viteApp(aliasIn: 'tsconfig.app.json' | 'tsconfig.json'): string {
  const root = makeTempDir('vite-paths-');
  dirs.push(root);
  writeSiblingRoot(root, 'relative');
  rmSync(path.join(root, 'server'), { recursive: true });
  const options = {
    compilerOptions: {
      target: 'ES2022',
      module: 'ESNext',
      moduleResolution: 'bundler',
      jsx: 'react-jsx',
      baseUrl: '.',
      paths: { '@agents/*': ['../agents/src/*'] },
    },
    include: ['src'],
  };
  writeFiles(root, {
    'web/package.json': JSON.stringify({ name: 'web', private: true, type: 'module', scripts: { dev: 'vite', build: 'tsc -b && vite build' } }),
    'web/vite.config.ts':
      "import { defineConfig } from 'vite';\nimport tsconfigPaths from 'vite-tsconfig-paths';\n\nexport default defineConfig({ plugins: [tsconfigPaths()] });\n",
    'web/src/App.tsx': APP,
  });
  if (aliasIn === 'tsconfig.app.json') {
    writeFileSync(
      path.join(root, 'web/tsconfig.json'),
      JSON.stringify({ files: [], references: [{ path: './tsconfig.app.json' }, { path: './tsconfig.node.json' }] }),
    );
    writeFileSync(path.join(root, 'web/tsconfig.app.json'), JSON.stringify(options));
    writeFileSync(path.join(root, 'web/tsconfig.node.json'), JSON.stringify({ compilerOptions: { module: 'ESNext' }, include: ['vite.config.ts'] }));
  } else writeFileSync(path.join(root, 'web/tsconfig.json'), JSON.stringify(options));
  return root;
}

const answers = async (cwd: string) => {
  const r = await cli(['check', '--format', 'json'], { cwd });
  const findings = (JSON.parse(r.stdout) as { findings: Finding[] }).findings;
  return { code: r.code, answers: findings.filter((f) => f.ruleId === 'sdk-approval').map((f) => `${f.file}:${f.line}`) };
};

describe('a Vite app reaching the tools by an alias in tsconfig.app.json answers their realtime approvals', () => {
  it('the codemod keeps close_account as a conflict naming web/src/App.tsx', async () => {
    const r = await cli(['codemod'], { cwd: path.join(viteApp('tsconfig.app.json'), 'agents') });
    expect(r.stdout).toContain('1 conflicts');
    expect(r.stdout).toContain('web/src/App.tsx:9');
    expect(r.code).toBe(1);
  });

  it('after generate and codemod --write, check in agents and at the root is not green', async () => {
    const root = viteApp('tsconfig.app.json');
    const agents = path.join(root, 'agents');
    expect((await cli(['generate'], { cwd: agents })).code).toBe(0);
    await cli(['codemod', '--write'], { cwd: agents });
    const inAgents = await answers(agents);
    expect(inAgents.answers).toEqual(['../web/src/App.tsx:9', '../web/src/App.tsx:10']);
    expect(inAgents.code).toBe(1);
    const atRoot = await answers(root);
    expect(atRoot.answers).toContain('web/src/App.tsx:9');
    expect(atRoot.code).not.toBe(0);
  });

  // control: the same app with the alias in web/tsconfig.json is seen
  it('control: with the alias in tsconfig.json the codemod keeps the conflict', async () => {
    const r = await cli(['codemod'], { cwd: path.join(viteApp('tsconfig.json'), 'agents') });
    expect(r.stdout).toContain('1 conflicts');
    expect(r.stdout).toContain('web/src/App.tsx:9');
  });
});
