import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { expect } from 'vitest';
import { cli } from '../helpers/cli.js';
import { makeTempDir, writeFiles } from '../helpers/temp-repo.js';

/** Shared pieces of the layout loops (issue 21): a small agent with a refund tool, and how it starts. */

export const TOOL_BODY = `{
  name: 'refund',
  description: 'Refund a payment.',
  parameters: z.object({ payment_id: z.string(), amount: z.number().int() }),
  execute: async ({ payment_id, amount }) => {
    ran.push(payment_id);
    return \`refunded \${amount} on \${payment_id}\`;
  },
}`;

export const TS_AGENT = `import { Agent, tool } from '@openai/agents';
import { z } from 'zod';

export const ran: string[] = [];

export const refund = tool(${TOOL_BODY});

export const agent = new Agent({ name: 'desk', instructions: 'Refunds.', tools: [refund] });
`;

export const JS_AGENT = TS_AGENT.replace('ran: string[]', 'ran');

/** One protected call through the real Runner with a scripted model; prints what happened as JSON. */
export const START_ESM = (agentSpecifier: string) => `import { Agent, run } from '@openai/agents';
import { ScriptedModel, assistantMessage, functionCall } from '@openai/agents/testing';
import { ran, refund } from '${agentSpecifier}';

const model = new ScriptedModel([[functionCall('refund', { payment_id: 'pay_1', amount: 500 }, { callId: 'c1' })], [assistantMessage('done')]]);
const result = await run(new Agent({ name: 'start', model, tools: [refund] }), 'refund pay_1', { context: { user: 'alice' } });
console.log(JSON.stringify({ interruptions: result.interruptions.map((i) => i.name), ran }));
`;

export const TSCONFIG_NODENEXT = JSON.stringify(
  {
    compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true, types: [] },
    include: ['src'],
  },
  null,
  2,
);

export function git(dir: string, ...args: string[]): void {
  const r = spawnSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: dir, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
}

/** A temp repo holding `files`, committed as the app was (the codemod writes only over a clean tree); kept in `dirs` for cleanup. */
export function committedRepo(dirs: string[], prefix: string, files: Record<string, string>): string {
  const dir = makeTempDir(prefix);
  dirs.push(dir);
  writeFiles(dir, files);
  git(dir, 'init', '-q', '.');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'the app as it was');
  return dir;
}

/** The user's loop: init, generate (then committed, as a user would before rewriting), codemod --write, check; each exits 0. Their stdout. */
export async function userLoop(dir: string): Promise<string> {
  let said = '';
  for (const args of [['init'], ['generate'], ['codemod', '--write'], ['check']]) {
    const r = await cli(args, { cwd: dir });
    expect(r.code, `${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(0);
    said += r.stdout;
    if (args[0] === 'generate') {
      git(dir, 'add', '-A');
      git(dir, 'commit', '-qm', 'ctrlrun-gen init and generate');
    }
  }
  return said;
}

/** Runs `node file` in `dir`; its last line of output, parsed. */
export function startNode(dir: string, file: string): unknown {
  const started = spawnSync(process.execPath, [file], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  expect(started.status, started.stdout + started.stderr).toBe(0);
  return JSON.parse(started.stdout.trim().split('\n').at(-1) ?? '{}');
}

/** Bundles `src/start.ts` of a TypeScript package as a bundler app ships it (packages external), then starts it. */
export async function startRefund(dir: string): Promise<unknown> {
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
  return startNode(dir, 'out/start.mjs');
}

const tscBin = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** The app's own build, `tsc <args>` in `dir` as its package.json runs it: the exit code, then what tsc printed. */
export function runTsc(dir: string, args: string[]): string {
  const r = spawnSync(process.execPath, [tscBin, ...args], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
  return `${r.status}${r.stdout}${r.stderr}`;
}

/**
 * A user who goes past init's refusal of a build that cannot reach a JavaScript module: a manifest
 * by hand with the module in `src/`, then init --force, generate, codemod --write; `check` is red.
 * Its `generated-import-unresolved` findings.
 */
export async function handPlacedModuleFindings(dir: string): Promise<Array<{ file: string; message: string }>> {
  writeFileSync(
    path.join(dir, 'ctrlrun.tools.yaml'),
    'schema: ctrlrun.tools/v1\npolicy: ctrlrun.yaml\noutput: src/ctrlrun.generated.js\ncontrol: src/ctrlrun.control.js\ntools: []\n',
  );
  for (const args of [['init', '--force'], ['generate'], ['codemod', '--write', '--allow-dirty']]) {
    const r = await cli(args, { cwd: dir });
    expect(r.code, `${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(0);
  }
  const r = await cli(['check', '--format', 'json'], { cwd: dir });
  expect(r.code, r.stdout + r.stderr).toBe(1);
  const findings = (JSON.parse(r.stdout) as { findings: Array<{ ruleId: string; file: string; message: string }> }).findings;
  return findings.filter((f) => f.ruleId === 'generated-import-unresolved').map(({ file, message }) => ({ file, message }));
}
