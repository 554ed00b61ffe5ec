import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { filesOf, removeDir } from '../helpers/temp-repo.js';
import { committedRepo, TS_AGENT, TSCONFIG_NODENEXT, userLoop } from './loop-helpers.js';

/**
 * Session 13 (the loop's welt library): a library whose only `tool()` calls were test doubles got a
 * policy, a control and a generated module in its published `src/`, and the codemod rewrote its
 * approval round-trip test (its own tests: 42/42 → 37/42). Test files are not the app's doors:
 * init maps nothing in them (and says so), the codemod leaves them, check says nothing of them.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const pkg = (name: string) => JSON.stringify({ name, private: true, type: 'module' });

/** A library's code: it uses the SDK (it adapts run() results) but declares no tool. */
const LIBRARY = `import type { RunResult } from '@openai/agents';

export function finalText(result: Pick<RunResult<unknown, never>, 'finalOutput'>): string {
  return String(result.finalOutput ?? '');
}
`;

/** The library's approval round trip: the SDK's needsApproval and state.approve are what it tests. */
const ROUND_TRIP = `import { Agent, run, tool } from '@openai/agents';
import { z } from 'zod';

const risky = tool({
  name: 'risky',
  description: 'Wipes a scratch folder.',
  parameters: z.object({ path: z.string() }),
  needsApproval: true,
  execute: async ({ path }) => \`wiped \${path}\`,
});

export async function roundTrip(): Promise<unknown> {
  const agent = new Agent({ name: 'round-trip', tools: [risky] });
  const result = await run(agent, 'please wipe');
  for (const item of result.interruptions) result.state.approve(item);
  return run(agent, result.state);
}
`;

/** A test double of the app's own tool, beside it. */
const REFUND_DOUBLE = `import { tool } from '@openai/agents';
import { z } from 'zod';

export const fakeRefund = tool({
  name: 'refund',
  description: 'Pretends to refund.',
  parameters: z.object({ payment_id: z.string(), amount: z.number().int() }),
  needsApproval: true,
  execute: async () => 'pretended',
});
`;

describe('tools only in test files are not the app’s doors (session 13)', () => {
  it('a library whose only tools are in its tests: init writes nothing and says why', async () => {
    const dir = committedRepo(dirs, 'tests-only-', {
      'package.json': pkg('lib'),
      'tsconfig.json': TSCONFIG_NODENEXT,
      'src/index.ts': LIBRARY,
      'tests/approvalRoundTrip.test.ts': ROUND_TRIP,
    });
    const before = filesOf(dir);
    const r = await cli(['init'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(
      "note: 1 tool found only in test files, left as they are (tests/approvalRoundTrip.test.ts:4): a test double is not one of the app's doors.",
    );
    expect(r.stdout).toContain('Nothing written: no tool outside test files');
    expect(filesOf(dir)).toEqual(before);
  });

  it('tools in src and in tests: only the src tool is mapped, rewritten and checked; the tests stay as they were', async () => {
    const dir = committedRepo(dirs, 'tests-and-src-', {
      'package.json': pkg('desk'),
      'tsconfig.json': TSCONFIG_NODENEXT,
      'src/agent.ts': TS_AGENT,
      'src/agent.spec.ts': REFUND_DOUBLE,
      'tests/approvalRoundTrip.test.ts': ROUND_TRIP,
    });
    const said = await userLoop(dir);
    expect(said).toContain('Found 1 new tool name in 1 call');
    expect(said).toContain('note: 1 tool found only in test files, left as they are (tests/approvalRoundTrip.test.ts:4)');
    expect(readFileSync(path.join(dir, 'ctrlrun.tools.yaml'), 'utf8')).not.toContain('risky');
    expect(readFileSync(path.join(dir, 'src/agent.ts'), 'utf8')).toContain("protectedTool('refund'");
    expect(readFileSync(path.join(dir, 'src/agent.spec.ts'), 'utf8')).toBe(REFUND_DOUBLE);
    expect(readFileSync(path.join(dir, 'tests/approvalRoundTrip.test.ts'), 'utf8')).toBe(ROUND_TRIP);

    // a test file named one by one is the user's to check (and rewrite): its doors are reported then
    const named = await cli(['check', 'tests/approvalRoundTrip.test.ts', '--format', 'json'], { cwd: dir });
    expect(named.code, named.stdout + named.stderr).toBe(1);
    const ids = (JSON.parse(named.stdout) as { findings: Array<{ ruleId: string; file: string }> }).findings.map((f) => `${f.ruleId} ${f.file}`);
    expect(ids).toContain('unmapped-tool tests/approvalRoundTrip.test.ts');
    const dry = await cli(['codemod', 'src/agent.spec.ts'], { cwd: dir });
    expect(dry.stdout).toContain("src/agent.spec.ts:4:27: tool 'refund' -> protectedTool('refund')");
  });

  it('a workspace root that is a library with tests, and an example package with tools (the welt layout)', async () => {
    const dir = committedRepo(dirs, 'tests-ws-', {
      'package.json': pkg('lib'),
      'pnpm-workspace.yaml': "packages:\n  - 'examples/*'\n",
      'tsconfig.json': TSCONFIG_NODENEXT,
      'src/index.ts': LIBRARY,
      'tests/approvalRoundTrip.test.ts': ROUND_TRIP,
      'examples/agent/package.json': pkg('agent'),
      'examples/agent/tsconfig.json': TSCONFIG_NODENEXT,
      'examples/agent/src/agent.ts': TS_AGENT,
    });
    const said = await userLoop(dir);
    expect(said).toContain('wrote examples/agent/ctrlrun.tools.yaml');
    expect(said).toContain('note: 1 tool found only in test files');
    const root = Object.keys(filesOf(dir)).filter((f) => !f.startsWith('examples/') && !f.startsWith('.git/'));
    expect(root.sort()).toEqual(['package.json', 'pnpm-workspace.yaml', 'src/index.ts', 'tests/approvalRoundTrip.test.ts', 'tsconfig.json']);
    expect(readFileSync(path.join(dir, 'tests/approvalRoundTrip.test.ts'), 'utf8')).toBe(ROUND_TRIP);
    expect(readFileSync(path.join(dir, 'examples/agent/src/agent.ts'), 'utf8')).toContain("protectedTool('refund'");
  });

  it('a workspace package in a folder named `test`: init at the root maps its tool, check at the root reports its open door (session 14)', async () => {
    const dir = committedRepo(dirs, 'tests-pkg-', {
      'package.json': JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*', 'test'] }),
      'packages/test/package.json': pkg('test-kit'),
      'packages/test/tsconfig.json': TSCONFIG_NODENEXT,
      'packages/test/src/agent.ts': TS_AGENT,
      'packages/test/test/agent.test.ts': REFUND_DOUBLE,
      'test/package.json': pkg('e2e-agent'),
      'test/tsconfig.json': TSCONFIG_NODENEXT,
      'test/src/agent.ts': TS_AGENT,
    });
    const init = await cli(['init'], { cwd: dir });
    expect(init.code, init.stdout + init.stderr).toBe(0);
    expect(init.stdout).toContain('The tools are in 2 packages');
    expect(init.stdout).not.toContain('found only in test files');
    for (const p of ['packages/test', 'test']) expect(readFileSync(path.join(dir, p, 'ctrlrun.tools.yaml'), 'utf8')).toContain('refund');
    expect((await cli(['generate'], { cwd: dir })).code).toBe(0);
    const r = await cli(['check', '--format', 'json'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const open = (JSON.parse(r.stdout) as { findings: Array<{ ruleId: string; file: string }> }).findings.filter((f) => f.ruleId === 'unprotected-tool');
    expect(open.map((f) => f.file)).toEqual(['packages/test/src/agent.ts', 'test/src/agent.ts']);
  });
});
