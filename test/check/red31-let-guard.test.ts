import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Issue 40 item 3 ("no false alarm"), session 31: a `let` holder reassigned with its own guard
 * (`s = protectMcpServer(s)`) at the top level of its block, before the use, holds the guarded
 * server there. Anything else keeps the initializer's answer (fails closed).
 */

const MCP = 'mcp-server-unguarded';
const at = (files: Record<string, string>): number[] => lintRepo(files, { project: testProject(), ruleId: MCP, file: 'src/servers.ts' }).map((f) => f.line);

/** A module of MCP servers (lines 1-3); `rest` from line 4. */
const servers = (...rest: string[]): Record<string, string> => ({
  'src/servers.ts': lines(
    "import { Agent, MCPServerStdio } from '@openai/agents';",
    "import { protectMcpServer } from './ctrlrun.generated.js';",
    'declare const other: MCPServerStdio; declare const ok: boolean;',
    ...rest,
  ),
});
const LET = "let s = new MCPServerStdio({ name: 'a', fullCommand: 'a' });";
const GUARD = 's = protectMcpServer(s);';
const USE = "export const agent = new Agent({ name: 'x', mcpServers: [s] });";

const cases: { name: string; files: Record<string, string>; lines: number[] }[] = [
  { name: 'guarded at the top level before the use: silent', files: servers(LET, GUARD, USE), lines: [] },
  {
    name: 'guarded twice, the use in a block after: silent',
    files: servers(LET, GUARD, GUARD, 'if (ok) {', `  ${USE.replace('export ', '')}`, '}'),
    lines: [],
  },
  {
    name: 'in a function body: silent',
    files: servers('export function make() {', `  ${LET}`, `  ${GUARD}`, "  return new Agent({ name: 'x', mcpServers: [s] });", '}'),
    lines: [],
  },
  { name: 'never reassigned: reported', files: servers(LET, USE), lines: [5] },
  { name: 'the guard after the use: reported', files: servers(LET, USE, GUARD), lines: [5] },
  { name: 'the guard inside a function: reported', files: servers(LET, `function g() { ${GUARD} }`, 'g();', USE), lines: [7] },
  { name: 'the guard inside an `if`: reported', files: servers(LET, `if (ok) { ${GUARD} }`, USE), lines: [6] },
  { name: 'given another unguarded server after the guard: reported', files: servers(LET, GUARD, 's = other;', USE), lines: [7] },
  { name: 'guarded with another server: reported', files: servers(LET, 's = protectMcpServer(other);', USE), lines: [6] },
  { name: 'given with `??=`: reported', files: servers(LET, 's ??= protectMcpServer(s);', USE), lines: [6] },
  {
    name: 'the use in a function made before the guard: reported',
    files: servers(LET, "const mk = () => new Agent({ name: 'x', mcpServers: [s] });", GUARD, 'mk();'),
    lines: [5],
  },
  {
    name: 'an array made before the guard: reported',
    files: servers(LET, 'const list = [s];', GUARD, "export const agent = new Agent({ name: 'x', mcpServers: list });"),
    lines: [5],
  },
  { name: 'given another call of itself: reported', files: servers(LET, 's = wrap(s);', USE), lines: [6] },
  {
    name: 'the use in a function declared after the guard (hoisted, may run before it): reported',
    files: servers('mk();', LET, GUARD, "function mk() { return new Agent({ name: 'x', mcpServers: [s] }); }"),
    lines: [7],
  },
  { name: 'a `var`: reported', files: servers(LET.replace('let', 'var'), GUARD, USE), lines: [6] },
];

describe('a let reassigned with its guard', () => {
  for (const c of cases) it(c.name, () => expect(at(c.files)).toEqual(c.lines));
});
