import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';
import { typeCheck } from '../helpers/typecheck.js';

// Issue 21, item 4: init proposes the identity from the context the code passes to run() (or takes
// --identity), and names the runs that pass none.
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

const TOOL =
  "import { Agent, run, tool } from '@openai/agents';\nexport const lookup = tool({ name: 'lookup', description: 'Look up', parameters: undefined as never, execute: async () => 'x' });\nexport const agent = new Agent({ name: 'desk', tools: [lookup] });\n";

function repo(main: string): string {
  const dir = makeTempDir('init-identity-');
  dirs.push(dir);
  writeFiles(dir, {
    'package.json': JSON.stringify({ name: 'desk', type: 'module' }),
    'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true } }),
    'src/agent.ts': TOOL + main,
  });
  return dir;
}

const control = (dir: string) => readFileSync(path.join(dir, 'src/ctrlrun.control.ts'), 'utf8');

describe('init proposes who a run acts for', () => {
  it("from the key the code's run() passes (a principal-like key first); the control type-checks", async () => {
    const dir = repo(
      "export async function handle(req: { user: { id: string } }) {\n  return run(agent, 'hi', { context: { tenant: 'acme', userId: req.user.id } });\n}\n",
    );
    const r = await cli(['init'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(control(dir)).toContain('const context = runContext.context as { userId?: string } | undefined;\n    return context?.userId ?? null;');
    expect(control(dir)).toContain('// From the context your code passes to run() (src/agent.ts:5)');
    expect(r.stdout).toContain("note: the control's identity reads runContext.context.userId, from the context your code passes to run() (src/agent.ts:5)");
    expect(r.stdout).not.toContain('pass no context');
    expect((await cli(['generate'], { cwd: dir })).code).toBe(0);
    expect(typeCheck(dir)).toEqual([]);
  }, 240_000); // the first type check of the SDK's declarations is slow on a loaded machine

  it('names the runs that pass no context, and keeps the default identity', async () => {
    const dir = repo("export const a = await run(agent, 'hi');\nexport const b = await run(agent, 'again');\n");
    const r = await cli(['init'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(control(dir)).toContain('return context?.user ?? null;');
    expect(r.stdout).toContain(
      'note: 2 runs pass no context (src/agent.ts:4, src/agent.ts:5), and the identity reads runContext.context.user: every protected call of them would be refused (no_principal).',
    );
    expect(r.stdout).toContain('--identity env:CTRLRUN_PRINCIPAL');
  });

  it('does not count a run of an agent with no tools: it has no protected call to refuse (loop session 14)', async () => {
    const dir = repo("const haiku = new Agent({ name: 'haiku' });\nexport const a = await run(agent, 'hi');\nexport const b = await run(haiku, 'spring');\n");
    const r = await cli(['init'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('note: 1 run passes no context (src/agent.ts:5), and the identity reads runContext.context.user');
  });

  it('a conversation, thread or session id is not a principal: never proposed; the default is written and a note says why, with --identity', async () => {
    const dir = repo(
      "export async function handle(conversationId: string, threadId: string, sessionId: string) {\n  return run(agent, 'hi', { context: { conversationId, userThreadId: threadId, sessionId } });\n}\n",
    );
    const r = await cli(['init'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(control(dir)).toContain('return context?.user ?? null;');
    expect(control(dir)).not.toMatch(/conversationId|userThreadId|sessionId/);
    expect(r.stdout).toContain(
      "note: the runs pass `conversationId`, `userThreadId`, `sessionId` in their context, and none of them says who a run acts for (a conversation or session id is not a principal): the control's identity reads runContext.context.user (the default).",
    );
    expect(r.stdout).toContain('re-run with --identity <key>');
    expect(r.stdout).not.toContain('from the context your code passes to run()');
  });

  it('--identity env:NAME writes a service principal from the environment (and no run is named); it type-checks', async () => {
    const dir = repo("export const a = await run(agent, 'hi');\n");
    const r = await cli(['init', '--identity', 'env:CTRLRUN_PRINCIPAL'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(control(dir)).toContain('process?.env.CTRLRUN_PRINCIPAL ?? null');
    expect(r.stdout).toContain("note: the control's identity reads the environment variable CTRLRUN_PRINCIPAL");
    expect(r.stdout).not.toContain('pass no context');
    expect((await cli(['generate'], { cwd: dir })).code).toBe(0);
    expect(typeCheck(dir)).toEqual([]);
  }, 240_000);

  it('--identity session.user reads a nested key; a malformed --identity is a usage error and nothing is written', async () => {
    const dir = repo('');
    expect((await cli(['init', '--identity', 'session.user'], { cwd: dir })).code).toBe(0);
    expect(control(dir)).toContain('as { session?: { user?: string } } | undefined;\n    return context?.session?.user ?? null;');
    const bad = repo('');
    const r = await cli(['init', '--identity', 'user id'], { cwd: bad });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--identity "user id": expected a key path');
    expect(existsSync(path.join(bad, 'ctrlrun.yaml'))).toBe(false);
  });
});

// Issue 40, item 3: init's note and check's run-without-context come from one analysis and name the same runs.
describe('init names the runs check names once the control is written', () => {
  /** The `file:line`s init's note names (all of them: at most three here). */
  const named = (stdout: string): string[] => /\d+ runs? pass(?:es)? no [^(]*\(([^)]*)\)/.exec(stdout)?.[1]?.split(', ') ?? [];
  const checked = async (dir: string): Promise<string[]> => {
    const r = await cli(['check', '--format', 'json'], { cwd: dir });
    const findings = (JSON.parse(r.stdout) as { findings: Array<{ ruleId: string; file: string; line: number }> }).findings;
    return findings.filter((f) => f.ruleId === 'run-without-context').map((f) => `${f.file}:${f.line}`);
  };

  it('a run whose context lacks the key the identity reads (an Express app: init named 7, check 26)', async () => {
    const dir = repo("export const a = await run(agent, 'hi', { context: { conversationId: 'c1' } });\nexport const b = await run(agent, 'again');\n");
    const r = await cli(['init'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(named(r.stdout)).toEqual(['src/agent.ts:4', 'src/agent.ts:5']);
    expect(r.stdout).toContain('note: 2 runs pass no `user` in their context (src/agent.ts:4, src/agent.ts:5)');
    expect(await checked(dir)).toEqual(named(r.stdout));
  });

  it('a repo that maps no door (hosted tools only) and runs agents through a helper: none named by either (a Next.js app: init named 21, check 0)', async () => {
    const dir = makeTempDir('init-identity-');
    dirs.push(dir);
    writeFiles(dir, {
      'package.json': JSON.stringify({ name: 'sdr', type: 'module' }),
      'src/research.ts': [
        "import { Agent, run, webSearchTool } from '@openai/agents';",
        "const researcher = new Agent({ name: 'r', tools: [webSearchTool()] });",
        'const runWithRetry = async (agent: Agent, prompt: string) => run(agent, prompt);',
        "export const found = await runWithRetry(researcher, 'okta');",
        '',
      ].join('\n'),
    });
    const r = await cli(['init'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(named(r.stdout)).toEqual([]);
    expect(await checked(dir)).toEqual([]);
  });

  it('a repo that maps no door: a run whose agent is unknown (a callback parameter) is named by neither', async () => {
    const dir = makeTempDir('init-identity-');
    dirs.push(dir);
    writeFiles(dir, {
      'package.json': JSON.stringify({ name: 'hook', type: 'module' }),
      'src/hook.ts': [
        "import { Agent, run } from '@openai/agents';",
        "export const onJob = (agent: Agent) => run(agent, 'go');",
        "queue.on('job', onJob);",
        '',
      ].join('\n'),
    });
    const r = await cli(['init'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(named(r.stdout)).toEqual([]);
    expect(await checked(dir)).toEqual([]);
  });
});
