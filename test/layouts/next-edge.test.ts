import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { removeDir } from '../helpers/temp-repo.js';
import { typeCheck } from '../helpers/typecheck.js';
import { committedRepo, userLoop } from './loop-helpers.js';

/**
 * Issue 21 items 1 and 4 (edge): a Next.js app whose edge code names no SDK, an API route with
 * `export const runtime = 'edge'` or `middleware.ts` (edge by default), reaching the agents in
 * another module. init gives the tools the edge (httpStore) control; with a SQLite control `check`
 * is red. Needs `npm run build`.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const AGENT = `import { Agent, tool } from '@openai/agents';
import { z } from 'zod';

export const refund = tool({
  name: 'refund',
  description: 'Refund a payment.',
  parameters: z.object({ payment_id: z.string() }),
  execute: async ({ payment_id }) => \`refunded \${payment_id}\`,
});

export const agent = new Agent({ name: 'desk', instructions: 'Refunds.', tools: [refund] });
`;
const RUN =
  "import { run } from '@openai/agents';\nimport { agent } from './agent';\n\nexport const answer = (q: string) => run(agent, q, { context: { user: 'u' } });\n";
const ROUTE =
  "import { answer } from '@/lib/run';\n\nexport const runtime = 'edge';\n\nexport async function POST(req: Request) {\n  const result = await answer(await req.text());\n  return new Response(String(result.finalOutput));\n}\n";
// no `next` types here: the middleware's shape only (the rule reads where it runs, not what it returns)
const MIDDLEWARE =
  "import { answer } from './lib/run';\n\nexport async function middleware(req: Request) {\n  await answer(req.url);\n  return undefined;\n}\n";

function repo(files: Record<string, string>): string {
  return committedRepo(dirs, 'next-edge-', {
    'package.json': JSON.stringify({ name: 'next-edge', private: true, dependencies: { next: '15.5.0', '@openai/agents': '*', zod: '*' } }),
    'tsconfig.json': JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'esnext',
        moduleResolution: 'bundler',
        strict: true,
        skipLibCheck: true,
        noEmit: true,
        types: [],
        lib: ['es2022', 'dom'],
        paths: { '@/*': ['./*'] },
      },
      include: ['**/*.ts'],
      exclude: ['node_modules'],
    }),
    'lib/agent.ts': AGENT,
    'lib/run.ts': RUN,
    ...files,
  });
}

const loop = userLoop;

/** The control switched to SQLite by hand: check must be red at the tool file's import. */
async function sqliteFindings(dir: string): Promise<string[]> {
  const control = path.join(dir, 'lib/ctrlrun.control.ts');
  writeFileSync(
    control,
    "import { createControl } from 'ctrlrun-gen/runtime';\nimport { sqliteStore } from 'ctrlrun-gen/runtime/sqlite';\n\nexport default createControl({ store: sqliteStore({ path: '.ctrlrun/state.db' }), identity: () => 'u' });\n",
  );
  const r = await cli(['check', '--format', 'json'], { cwd: dir });
  expect(r.code, r.stdout + r.stderr).toBe(1);
  return (JSON.parse(r.stdout) as { findings: Array<{ ruleId: string; file: string }> }).findings
    .filter((f) => f.ruleId === 'node-module-in-browser')
    .map((f) => f.file);
}

describe('edge code that names no SDK (issue 21)', () => {
  for (const [name, files] of [
    ["an API route with export const runtime = 'edge'", { 'app/api/chat/route.ts': ROUTE }],
    ['middleware.ts (edge by default)', { 'middleware.ts': MIDDLEWARE }],
  ] as const) {
    it(`${name}: the edge control, a green loop, and red with a SQLite control`, async () => {
      const dir = repo(files);
      await loop(dir);
      const control = readFileSync(path.join(dir, 'lib/ctrlrun.control.ts'), 'utf8');
      expect(control).toContain('httpStore(');
      expect(control).not.toContain('sqlite');
      expect(readFileSync(path.join(dir, 'lib/agent.ts'), 'utf8')).toContain("from './ctrlrun.generated'");
      expect(typeCheck(dir)).toEqual([]);
      expect(await sqliteFindings(dir)).toContain('lib/agent.ts');
    }, 120_000);
  }

  it("a route with runtime = 'nodejs' keeps the Node (SQLite) control", async () => {
    const dir = repo({ 'app/api/chat/route.ts': ROUTE.replace("'edge'", "'nodejs'") });
    await loop(dir);
    expect(readFileSync(path.join(dir, 'lib/ctrlrun.control.ts'), 'utf8')).toContain('sqliteStore(');
  }, 120_000);
});
