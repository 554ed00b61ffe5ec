import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

/**
 * A Next.js app whose chat route declares `export const runtime = 'edge'` and reaches the tools
 * through a `@/` alias and a barrel with no SDK name in it (as in the loop's Next.js repo, where
 * the SQLite control made `next build` fail on `node:sqlite`): init gives it the edge control.
 */
function nextApp(runtime: string): string {
  const dir = makeTempDir('init-edge-');
  dirs.push(dir);
  writeFiles(dir, {
    'package.json': JSON.stringify({ name: 'next-app', private: true, dependencies: { next: '15.0.0' } }),
    'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'esnext', moduleResolution: 'bundler', strict: true, paths: { '@/*': ['./src/*'] } } }),
    'src/app/api/chat/route.ts': `import { run } from '@openai/agents';\nimport { agent } from '@/agents/assistant';\n\nexport const runtime = '${runtime}';\nexport async function POST() { return Response.json(await run(agent, 'hi', { context: { user: 'u1' } })); }\n`,
    'src/agents/assistant.ts':
      "import { Agent } from '@openai/agents';\nimport { tools } from '../tools';\nexport const agent = new Agent({ name: 'a', tools });\n",
    'src/tools/index.ts': "import { lookup } from './lookup';\nexport const tools = [lookup];\n",
    'src/tools/lookup.ts':
      "import { tool } from '@openai/agents';\nimport { z } from 'zod';\nexport const lookup = tool({ name: 'lookup', description: 'Look up', parameters: z.object({ id: z.string() }), execute: async ({ id }) => id });\n",
  });
  return dir;
}

describe("init gives tools an edge route reaches the httpStore control (export const runtime = 'edge')", () => {
  it('an edge route: the edge control, no SQLite', async () => {
    const dir = nextApp('edge');
    const r = await cli(['init'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const control = readFileSync(path.join(dir, 'src/ctrlrun.control.ts'), 'utf8');
    expect(control).toContain('httpStore({ url: SERVE_URL, token: RUNTIME_TOKEN })');
    expect(control).toContain('edge runtime');
    expect(control).not.toMatch(/runtime\/sqlite|runtime\/postgres|sqliteStore/);
    expect(r.stdout).toContain('its tools run on an edge runtime');
  });

  it('the same route on the Node runtime keeps the SQLite control', async () => {
    const dir = nextApp('nodejs');
    const r = await cli(['init'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const control = readFileSync(path.join(dir, 'src/ctrlrun.control.ts'), 'utf8');
    expect(control).toContain("sqliteStore({ path: '.ctrlrun/state.db' })");
    expect(control).not.toContain('httpStore');
  });
});
