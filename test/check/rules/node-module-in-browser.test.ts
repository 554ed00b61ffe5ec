import { afterAll, describe, expect, it } from 'vitest';
import { nodeModuleInBrowserRule } from '../../../src/check/rules/node-module-in-browser.js';
import { scanSource } from '../../../src/scan/index.js';
import { isComponentFile } from '../../../src/scan/component-script.js';
import { makeTempDir, removeDir, writeFiles } from '../../helpers/temp-repo.js';
import { testProject } from '../rule-tester.js';

/**
 * `node-module-in-browser` cases: a small repo per case (its package.json says whether it is built
 * for the browser); every file is scanned as the repo scan would and the rule runs over them.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const SQLITE_CONTROL =
  "import { createControl } from 'ctrlrun-gen/runtime';\nimport { sqliteStore } from 'ctrlrun-gen/runtime/sqlite';\nexport default createControl({ store: sqliteStore({ path: 'x.db' }), identity: () => 'a' });\n";
const HTTP_CONTROL =
  "import { createControl, httpStore } from 'ctrlrun-gen/runtime';\nexport default createControl({ store: httpStore({ url: 'http://x', token: 't' }), identity: () => 'a' });\n";
const TOOL =
  "import { protectedTool } from './ctrlrun.generated';\nexport const t = protectedTool('stripe.refund', { name: 'refund', description: '', parameters: {} as never, execute: async () => '' });\n";
const VITE = JSON.stringify({ name: 'app', devDependencies: { vite: '8.3.8' } });
const NODE = JSON.stringify({ name: 'app' });

interface Case {
  name: string;
  files: Record<string, string | undefined>;
  errors: string[];
  /** Files written but not scanned (a barrel with no SDK name: the repo scan's prefilter skips it). */
  unscanned?: string[];
}

// a Next.js app whose edge route reaches the tools through a `@/` alias and a barrel no scan parses
const NEXT_EDGE = {
  'package.json': JSON.stringify({ name: 'next-app', dependencies: { next: '15.0.0' } }),
  'tsconfig.json': '{ "compilerOptions": { "paths": { "@/*": ["./src/*"] } } }\n',
  'src/app/api/chat/route.ts':
    "import { run } from '@openai/agents';\nimport { agent } from '@/agents/assistant';\n\nexport const runtime = 'edge';\nexport async function POST() { return run(agent, 'hi'); }\n",
  'src/agents/assistant.ts':
    "import { Agent } from '@openai/agents';\nimport { tools } from '../tools';\nexport const agent = new Agent({ name: 'a', tools });\n",
  'src/tools/index.ts': "import { t } from './refund';\nexport const tools = [t];\n",
  'src/tools/refund.ts':
    "import { protectedTool } from '../ctrlrun.generated';\nimport { randomUUID } from 'node:crypto';\nexport const t = protectedTool('stripe.refund', { name: 'refund', description: '', parameters: {} as never, execute: async () => randomUUID() });\n",
};

// the same app's tools reached from Next.js middleware, which names no SDK (edge runtime by default)
const { 'src/app/api/chat/route.ts': _route, ...NEXT_TOOLS } = NEXT_EDGE;
const NEXT_MIDDLEWARE = {
  ...NEXT_TOOLS,
  'middleware.ts':
    "import { NextResponse } from 'next/server';\nimport { agent } from './src/agents/assistant';\n\nexport function middleware() {\n  return agent ? NextResponse.next() : NextResponse.error();\n}\n",
};

const CASES: Case[] = [
  {
    name: 'valid: a Vite app whose control uses httpStore',
    files: { 'package.json': VITE, 'src/ctrlrun.control.ts': HTTP_CONTROL, 'src/tools.ts': TOOL },
    errors: [],
  },
  {
    name: 'valid: a Node app with the SQLite control',
    files: { 'package.json': NODE, 'src/ctrlrun.control.ts': SQLITE_CONTROL, 'src/tools.ts': TOOL },
    errors: [],
  },
  {
    name: "valid: a Vite app's server folder imports node:fs",
    files: {
      'package.json': VITE,
      'src/ctrlrun.control.ts': HTTP_CONTROL,
      'server/index.ts': "import { readFileSync } from 'node:fs';\nimport { Agent } from '@openai/agents';\n",
    },
    errors: [],
  },
  {
    name: 'invalid: a Vite app with the SQLite control',
    files: { 'package.json': VITE, 'src/ctrlrun.control.ts': SQLITE_CONTROL, 'src/tools.ts': TOOL },
    errors: ['src/ctrlrun.control.ts:2', 'src/tools.ts:1'],
  },
  {
    name: 'invalid: a package with a browser field importing node:fs',
    files: {
      'package.json': JSON.stringify({ name: 'w', browser: './dist/w.js' }),
      'src/ctrlrun.control.ts': HTTP_CONTROL,
      'src/a.ts': "import { Agent } from '@openai/agents';\nimport fs from 'node:fs';\n",
    },
    errors: ['src/a.ts:2'],
  },
  {
    name: 'invalid: a client component in a Node app reaches the SQLite control through the tool file',
    files: {
      'package.json': NODE,
      'src/ctrlrun.control.ts': SQLITE_CONTROL,
      'src/tools.ts': TOOL,
      'app/page.tsx': "'use client';\nimport { t } from '../src/tools';\nimport { Agent } from '@openai/agents';\n",
    },
    errors: ['src/tools.ts:1'],
  },
  {
    name: 'valid: a Node server that runs a RealtimeSession (a Twilio bridge) imports node:process and the tools',
    files: {
      'package.json': NODE,
      'src/ctrlrun.control.ts': SQLITE_CONTROL,
      'src/tools.ts': TOOL,
      'src/server.ts': "import process from 'node:process';\nimport { RealtimeSession } from '@openai/agents/realtime';\nimport { t } from './tools';\n",
    },
    errors: [],
  },
  {
    name: 'invalid: a file that runs a RealtimeSession imports the tools',
    files: {
      'package.json': NODE,
      'src/ctrlrun.control.ts': SQLITE_CONTROL,
      'src/tools.ts': TOOL,
      'src/voice.ts': "import { RealtimeSession } from '@openai/agents/realtime';\nimport { t } from './tools';\n",
    },
    errors: ['src/tools.ts:1'],
  },
  {
    name: "invalid: a Next.js route with `export const runtime = 'edge'` reaches the SQLite control through `@/` and a barrel no scan parsed",
    files: { ...NEXT_EDGE, 'src/ctrlrun.control.ts': SQLITE_CONTROL },
    unscanned: ['src/tools/index.ts'],
    // node:crypto is polyfilled on the edge: only the store is reported
    errors: ['src/tools/refund.ts:1'],
  },
  {
    name: "invalid: `export const config = { runtime: 'edge' }` (a Vercel function) imports node:sqlite",
    files: {
      'package.json': NODE,
      'src/ctrlrun.control.ts': HTTP_CONTROL,
      'api/run.ts': "import { Agent } from '@openai/agents';\nimport { DatabaseSync } from 'node:sqlite';\nexport const config = { runtime: 'edge' };\n",
    },
    errors: ['api/run.ts:2'],
  },
  {
    name: 'valid: the same edge route with the httpStore control',
    files: { ...NEXT_EDGE, 'src/ctrlrun.control.ts': HTTP_CONTROL },
    unscanned: ['src/tools/index.ts'],
    errors: [],
  },
  {
    name: 'valid: the same route without the edge runtime (Node) with the SQLite control',
    files: {
      ...NEXT_EDGE,
      'src/app/api/chat/route.ts': NEXT_EDGE['src/app/api/chat/route.ts'].replace("export const runtime = 'edge';", "export const runtime = 'nodejs';"),
      'src/ctrlrun.control.ts': SQLITE_CONTROL,
    },
    unscanned: ['src/tools/index.ts'],
    errors: [],
  },
  {
    name: 'invalid: Next.js middleware (edge by default) that names no SDK reaches the SQLite control',
    files: { ...NEXT_MIDDLEWARE, 'src/ctrlrun.control.ts': SQLITE_CONTROL },
    unscanned: ['middleware.ts', 'src/tools/index.ts'],
    errors: ['src/tools/refund.ts:1'],
  },
  {
    name: 'invalid: src/middleware.ts, scanned (it names the SDK)',
    files: {
      ...NEXT_MIDDLEWARE,
      'middleware.ts': undefined,
      'src/middleware.ts': NEXT_MIDDLEWARE['middleware.ts']
        .replace("'./src/agents/assistant'", "'./agents/assistant'")
        .replace('import {', "import { Agent } from '@openai/agents';\nimport {"),
      'src/ctrlrun.control.ts': SQLITE_CONTROL,
    },
    unscanned: ['src/tools/index.ts'],
    errors: ['src/tools/refund.ts:1'],
  },
  {
    name: "valid: the middleware says `runtime: 'nodejs'` (Next.js 15.5+)",
    files: {
      ...NEXT_MIDDLEWARE,
      'middleware.ts': `${NEXT_MIDDLEWARE['middleware.ts']}export const config = { runtime: 'nodejs' };\n`,
      'src/ctrlrun.control.ts': SQLITE_CONTROL,
    },
    unscanned: ['middleware.ts', 'src/tools/index.ts'],
    errors: [],
  },
  {
    name: 'valid: a middleware.ts in a package that does not use Next.js',
    files: { ...NEXT_MIDDLEWARE, 'package.json': NODE, 'src/ctrlrun.control.ts': SQLITE_CONTROL },
    unscanned: ['middleware.ts', 'src/tools/index.ts'],
    errors: [],
  },
  {
    name: 'valid: the middleware with the httpStore control',
    files: { ...NEXT_MIDDLEWARE, 'src/ctrlrun.control.ts': HTTP_CONTROL },
    unscanned: ['middleware.ts', 'src/tools/index.ts'],
    errors: [],
  },
  {
    name: 'invalid: a Cloudflare Workers package (wrangler.toml) with the SQLite control',
    files: { 'package.json': NODE, 'wrangler.toml': 'name = "w"\nmain = "src/index.ts"\n', 'src/ctrlrun.control.ts': SQLITE_CONTROL, 'src/tools.ts': TOOL },
    errors: ['src/ctrlrun.control.ts:2', 'src/tools.ts:1'],
  },
  {
    name: 'invalid: a Vue component (in a Node package) imports node:fs in its script',
    files: {
      'package.json': JSON.stringify({ name: 'app', dependencies: { vue: '3.5.0' } }),
      'src/ctrlrun.control.ts': HTTP_CONTROL,
      'src/App.vue':
        "<template><div /></template>\n<script setup lang=\"ts\">\nimport { readFileSync } from 'node:fs';\nimport { RealtimeSession } from '@openai/agents/realtime';\n</script>\n",
    },
    errors: ['src/App.vue:3'],
  },
  {
    name: 'invalid: a Svelte component reaches the SQLite control through the tool file',
    files: {
      'package.json': NODE,
      'src/ctrlrun.control.ts': SQLITE_CONTROL,
      'src/tools.ts': TOOL,
      'src/Chat.svelte': "<script>\n  import { t } from './tools';\n  import { Agent } from '@openai/agents';\n</script>\n<p>{t.name}</p>\n",
    },
    errors: ['src/tools.ts:1'],
  },
  {
    name: "invalid: an Astro component's <script> imports node:path; its frontmatter's node:fs and tools run on the server",
    files: {
      'package.json': JSON.stringify({ name: 'site', dependencies: { astro: '5.0.0' } }),
      'src/ctrlrun.control.ts': SQLITE_CONTROL,
      'src/pages/tools.ts': TOOL.replace("'./ctrlrun.generated'", "'../ctrlrun.generated'"),
      'src/pages/index.astro':
        "---\nimport { readFileSync } from 'node:fs';\nimport { t } from './tools';\nimport { Agent } from '@openai/agents';\n---\n<h1>{t.name}</h1>\n<script>\n  import { join } from 'node:path';\n</script>\n",
    },
    errors: ['src/pages/index.astro:8'],
  },
  {
    name: 'valid: an Astro component with server code only (a Vite-built site), and a Nuxt `*.server.vue` component',
    files: {
      'package.json': JSON.stringify({ name: 'site', dependencies: { astro: '5.0.0', vite: '8.3.8' } }),
      'src/ctrlrun.control.ts': HTTP_CONTROL,
      'src/pages/index.astro':
        "---\nimport { readFileSync } from 'node:fs';\nimport { Agent } from '@openai/agents';\n---\n<h1>hi</h1>\n<script>\n  console.log('x');\n</script>\n",
      'src/components/Report.server.vue': "<script setup>\nimport { readFileSync } from 'node:fs';\nimport { Agent } from '@openai/agents';\n</script>\n",
    },
    errors: [],
  },
];

describe('node-module-in-browser', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const dir = makeTempDir('browser-rule-');
      dirs.push(dir);
      const written = Object.fromEntries(Object.entries(c.files).filter((e): e is [string, string] => e[1] !== undefined));
      writeFiles(dir, written);
      const base = testProject();
      const project = {
        ...base,
        manifest: { ...base.manifest, root: dir, output: `${dir}/src/ctrlrun.generated.ts`, control: `${dir}/src/ctrlrun.control.ts` },
      };
      const files = Object.entries(written)
        .filter(([f]) => (/\.[cm]?[jt]sx?$/.test(f) || isComponentFile(f)) && !(c.unscanned ?? []).includes(f))
        .map(([file, text]) => ({ scan: scanSource(file, text, { root: dir, generatedModule: project.manifest.output }), text: () => text }));
      const found = nodeModuleInBrowserRule(files, project);
      expect(found.map((f) => `${f.file}:${f.line}`).sort()).toEqual(c.errors);
      for (const f of found) expect(f.hint).toContain('httpStore');
    });
  }
});
