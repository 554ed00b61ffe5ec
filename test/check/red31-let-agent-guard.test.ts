import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Issue 40 item 3 ("no false alarm"), session 31: a `let` agent reassigned with its own guard
 * (`a = protectAgent(a)`, `a = protectSandboxAgent(a)`) at the top level of its block, before every
 * read of it, holds the guarded agent: its unguarded servers and its sandbox are not reported.
 * Anything else keeps today's answer (fails closed).
 */

const MCP = 'mcp-server-unguarded';
const at = (files: Record<string, string>, ruleId = MCP): number[] =>
  lintRepo(files, { project: ruleId === MCP ? testProject() : sandboxProject(), ruleId, file: 'src/agent.ts' }).map((f) => f.line);

/** The test project with the SandboxAgent's default tools mapped. */
function sandboxProject(): ReturnType<typeof testProject> {
  const project = testProject();
  const loc = { file: '/repo/ctrlrun.tools.yaml', line: 30, column: 5 };
  for (const tool of ['exec_command', 'write_stdin', 'view_image', 'apply_patch'])
    project.manifest.tools.push({ kind: 'sandbox', tool, action: 'stripe.charge.read', loc });
  return project;
}

/** A module with an agent holding an unguarded server (lines 1-5); `rest` from line 6. */
const agent = (...rest: string[]): Record<string, string> => ({
  'src/agent.ts': lines(
    "import { Agent, MCPServerStdio, run } from '@openai/agents';",
    "import { protectAgent, protectSandboxAgent } from './ctrlrun.generated.js';",
    'declare const other: Agent; declare const ok: boolean;',
    "const s = new MCPServerStdio({ name: 'a', fullCommand: 'a' });",
    "let a = new Agent({ name: 'x', mcpServers: [s] });",
    ...rest,
  ),
});
const GUARD = 'a = protectAgent(a);';
const USE = "export const out = await run(a, 'hi');";

const cases: { name: string; files: Record<string, string>; lines: number[] }[] = [
  { name: 'guarded at the top level before the read: silent', files: agent(GUARD, USE), lines: [] },
  {
    name: 'guarded by protectSandboxAgent, read in an `if` after: silent',
    files: agent('a = protectSandboxAgent(a);', `if (ok) { ${USE.replace('export ', '')} }`),
    lines: [],
  },
  {
    name: 'a member named like it before the guard (not a read of it): silent',
    files: agent('const cfg = { a: 1 };', 'export const n = cfg.a;', GUARD, USE),
    lines: [],
  },
  { name: 'never reassigned nor guarded: reported', files: agent(USE), lines: [5] },
  { name: 'the guard after a read: reported', files: agent(USE, GUARD), lines: [5] },
  { name: 'the guard inside an `if`: reported', files: agent(`if (ok) { ${GUARD} }`, USE), lines: [5] },
  { name: 'the guard inside a function called once: reported', files: agent(`function g() { ${GUARD} }`, 'g();', USE), lines: [5] },
  { name: 'given another agent after the guard: reported', files: agent(GUARD, 'a = other;', USE), lines: [5] },
  { name: 'guarded with another agent: reported', files: agent('a = protectAgent(other);', USE), lines: [5] },
  { name: 'given another call of itself: reported', files: agent('a = wrap(a);', USE), lines: [5] },
  { name: 'guarded, then given another call of itself: reported', files: agent(GUARD, 'a = wrap(a);', USE), lines: [5] },
  { name: 'read in a function declared after the guard (hoisted): reported', files: agent(GUARD, "export function go() { return run(a, 'hi'); }"), lines: [5] },
  { name: 'guarded but never read: reported', files: agent(GUARD), lines: [5] },
  {
    name: 'guarded, then a block with its own `a` read (another variable, not guarded): reported',
    files: agent(GUARD, USE, "{ let a = new Agent({ name: 'y' }); await run(a, 'hi'); }"),
    lines: [5],
  },
];

describe('a let agent reassigned with its guard', () => {
  for (const c of cases) it(c.name, () => expect(at(c.files)).toEqual(c.lines));

  const box = (...rest: string[]): Record<string, string> => ({
    'src/agent.ts': lines(
      "import { SandboxAgent } from '@openai/agents/sandbox';",
      "import { run } from '@openai/agents';",
      "import { protectSandboxAgent } from './ctrlrun.generated.js';",
      "let box = new SandboxAgent({ name: 'box', instructions: 'x' });",
      ...rest,
    ),
  });
  it('a sandbox agent guarded before the read: silent', () =>
    expect(at(box('box = protectSandboxAgent(box);', "await run(box, 'hi');"), 'unprotected-sandbox-agent')).toEqual([]));
  it('a sandbox agent guarded after the read: reported', () =>
    expect(at(box("await run(box, 'hi');", 'box = protectSandboxAgent(box);'), 'unprotected-sandbox-agent')).toEqual([4]));
});
