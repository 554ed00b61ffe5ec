import { spawnSync } from 'node:child_process';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';
import { typeCheck } from '../helpers/typecheck.js';

/**
 * The newcomer's loop on one small agent repo per layout: init → generate → codemod --write →
 * check; then the repo type-checks as it did before (TypeScript layouts, and the Next.js-style
 * app) and still starts: a start script imports the rewritten agent module and makes one call of
 * the refund tool through the real Runner with a scripted model. init's policy says `approve`, so
 * a protected tool pauses the run with the SDK's own interruption and its body does not run; an
 * unprotected one would have run. Needs `npm run build` (the repos import the built package).
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const TOOL_BODY = `{
  name: 'refund',
  description: 'Refund a payment.',
  parameters: z.object({ payment_id: z.string(), amount: z.number().int() }),
  execute: async ({ payment_id, amount }) => {
    ran.push(payment_id);
    return \`refunded \${amount} on \${payment_id}\`;
  },
}`;

const ESM_AGENT = `import { Agent, tool } from '@openai/agents';
import { z } from 'zod';

export const ran${'$TYPE'} = [];

export const refund = tool(${TOOL_BODY});

export const agent = new Agent({ name: 'desk', instructions: 'Refunds.', tools: [refund] });
`;

const CJS_AGENT = `const { Agent, tool } = require('@openai/agents');
const { z } = require('zod');

const ran = [];

const refund = tool(${TOOL_BODY});

module.exports = { ran, refund, agent: new Agent({ name: 'desk', instructions: 'Refunds.', tools: [refund] }) };
`;

const esmAgent = (typed: boolean) => ESM_AGENT.replace('ran$TYPE', typed ? 'ran: string[]' : 'ran');

/** One protected call through the real Runner; prints what happened as JSON. */
const START_ESM = (agentSpecifier: string) => `import { Agent, run } from '@openai/agents';
import { ScriptedModel, assistantMessage, functionCall } from '@openai/agents/testing';
import { ran, refund } from '${agentSpecifier}';

const model = new ScriptedModel([[functionCall('refund', { payment_id: 'pay_1', amount: 500 }, { callId: 'c1' })], [assistantMessage('done')]]);
const result = await run(new Agent({ name: 'start', model, tools: [refund] }), 'refund pay_1', { context: { user: 'alice' } });
console.log(JSON.stringify({ interruptions: result.interruptions.map((i) => i.name), ran }));
`;

const START_CJS = (agentSpecifier: string) => `const { Agent, run } = require('@openai/agents');
const { ScriptedModel, assistantMessage, functionCall } = require('@openai/agents/testing');
const { ran, refund } = require('${agentSpecifier}');

(async () => {
  const model = new ScriptedModel([[functionCall('refund', { payment_id: 'pay_1', amount: 500 }, { callId: 'c1' })], [assistantMessage('done')]]);
  const result = await run(new Agent({ name: 'start', model, tools: [refund] }), 'refund pay_1', { context: { user: 'alice' } });
  console.log(JSON.stringify({ interruptions: result.interruptions.map((i) => i.name), ran }));
})();
`;

const tsconfig = (options: Record<string, unknown>, include = ['src']) =>
  JSON.stringify({ compilerOptions: { target: 'ES2022', strict: true, skipLibCheck: true, types: [], ...options }, include }, null, 2);

interface Layout {
  name: string;
  files: Record<string, string>;
  typescript: boolean;
  /** How it starts: `tsc` (its own tsconfig, into out/) or `esbuild` (bundled, as a bundler app) first, then node. */
  build?: 'tsc' | 'esbuild';
  /** The file node starts (after the build). */
  start: string;
}

const START_TS_CJS = `import { Agent, run } from '@openai/agents';
import { ScriptedModel, assistantMessage, functionCall } from '@openai/agents/testing';
import { ran, refund } from './agent.js';

void (async () => {
  const model = new ScriptedModel([[functionCall('refund', { payment_id: 'pay_1', amount: 500 }, { callId: 'c1' })], [assistantMessage('done')]]);
  const result = await run(new Agent({ name: 'start', model, tools: [refund] }), 'refund pay_1', { context: { user: 'alice' } });
  console.log(JSON.stringify({ interruptions: result.interruptions.map((i) => i.name), ran }));
})();
`;

const LAYOUTS: Layout[] = [
  {
    name: 'ESM TypeScript, NodeNext',
    typescript: true,
    build: 'tsc',
    files: {
      'package.json': '{ "name": "esm-nodenext", "private": true, "type": "module" }',
      'tsconfig.json': tsconfig({ module: 'NodeNext', moduleResolution: 'NodeNext', outDir: 'out', rootDir: 'src' }),
      'src/agent.ts': esmAgent(true),
      'src/start.ts': START_ESM('./agent.js'),
    },
    start: 'out/start.js',
  },
  {
    name: 'ESM TypeScript, bundler resolution',
    typescript: true,
    build: 'esbuild',
    files: {
      'package.json': '{ "name": "esm-bundler", "private": true, "type": "module" }',
      'tsconfig.json': tsconfig({ module: 'ESNext', moduleResolution: 'bundler', noEmit: true }),
      'src/agent.ts': esmAgent(true),
      'src/start.ts': START_ESM('./agent'),
    },
    start: 'out/start.mjs',
  },
  {
    name: 'CommonJS TypeScript',
    typescript: true,
    build: 'tsc',
    files: {
      'package.json': '{ "name": "cjs-ts", "private": true }',
      'tsconfig.json': tsconfig({ module: 'NodeNext', moduleResolution: 'NodeNext', outDir: 'out', rootDir: 'src' }),
      'src/agent.ts': esmAgent(true),
      'src/start.ts': START_TS_CJS,
    },
    start: 'out/start.js',
  },
  {
    name: 'plain ESM JavaScript',
    typescript: false,
    files: {
      'package.json': '{ "name": "esm-js", "private": true, "type": "module" }',
      'agent.js': esmAgent(false),
      'start.js': START_ESM('./agent.js'),
    },
    start: 'start.js',
  },
  {
    name: 'plain CommonJS JavaScript',
    typescript: false,
    files: {
      'package.json': '{ "name": "cjs-js", "private": true }',
      'src/agent.js': CJS_AGENT,
      'src/start.js': START_CJS('./agent.js'),
    },
    start: 'src/start.js',
  },
  {
    name: 'Next.js-style app with a client file',
    typescript: true,
    build: 'esbuild',
    files: {
      'package.json': '{ "name": "next-style", "private": true, "type": "module" }',
      'tsconfig.json': tsconfig(
        { module: 'ESNext', moduleResolution: 'bundler', jsx: 'preserve', noEmit: true, lib: ['dom', 'es2022'], paths: { '@/*': ['./src/*'] } },
        ['src', 'app'],
      ),
      'src/agent.ts': esmAgent(true),
      'app/page.tsx': "'use client';\nimport { agent } from '@/agent';\n\nexport default function Page() {\n  return agent.name;\n}\n",
      'src/start.ts': START_ESM('@/agent'),
    },
    start: 'out/start.mjs',
  },
];

function git(dir: string, ...args: string[]): void {
  const r = spawnSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: dir, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
}

/** The app's build: its own tsc (emit into out/), or an esbuild bundle as a bundler app ships (packages stay external). */
async function build(dir: string, how: 'tsc' | 'esbuild'): Promise<void> {
  if (how === 'tsc') {
    const r = spawnSync(process.execPath, [path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-p', '.'], { cwd: dir, encoding: 'utf8' });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    return;
  }
  await esbuild.build({
    absWorkingDir: dir,
    entryPoints: ['src/start.ts'],
    outfile: 'out/start.mjs',
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
  });
}

describe('the loop on real layouts keeps programs running', () => {
  for (const layout of LAYOUTS) {
    it(layout.name, async () => {
      const dir = makeTempDir('layout-');
      dirs.push(dir);
      writeFiles(dir, layout.files);
      git(dir, 'init', '-q', '.');
      git(dir, 'add', '-A');
      git(dir, 'commit', '-qm', 'the app as it was');
      const before = layout.typescript ? typeCheck(dir) : [];
      expect(before).toEqual([]);

      for (const args of [['init'], ['generate'], ['codemod', '--write'], ['check']]) {
        const r = await cli(args, { cwd: dir });
        expect(r.code, `${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(0);
      }
      if (layout.typescript) {
        expect(typeCheck(dir), 'type-checks as before').toEqual(before);
      }
      if (layout.build) await build(dir, layout.build);
      const started = spawnSync(process.execPath, [layout.start], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
      expect(started.status, started.stdout + started.stderr).toBe(0);
      expect(JSON.parse(started.stdout.trim().split('\n').at(-1) ?? '{}')).toEqual({ interruptions: ['refund'], ran: [] });
    }, 120_000);
  }
});
