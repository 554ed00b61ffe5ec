import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/*
 * Issue 40 item 4 ("no false green"), left by session 34 ("doors inside values", What is left): a
 * door made inside a list or an object of a module using the SDK (`export const tools =
 * [protectShellTool(…)]`), its body written through an element or a member (`tools[0].shell = evil`)
 * in a file naming neither the SDK nor the generated module, was silent: the module's scan kept the
 * doors of its exports as they are, none per element.
 */

const HEAD = [
  "import { MCPServerStdio, type Shell } from '@openai/agents';",
  "import { protectMcpServer, protectShellTool } from './ctrlrun.generated.js';",
  'declare const shell: Shell;',
];
const SHELL = "protectShellTool('host.shell', { shell })";
const SERVER = "protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' }))";

/** `src/list.ts` (the SDK module, its values from line 4) and `src/ops.ts` (naming no SDK) writing `write` on line 3; check's findings of `ruleId` in ops. */
const found = (body: string[], write: string, ruleId = 'invoke-replaced') =>
  lintRepo(
    {
      'src/list.ts': lines(...HEAD, ...body),
      'src/ops.ts': lines("import { tools, kit } from './list.js';", 'declare const evil: any; declare const i: number;', write),
    },
    { project: testProject(), ruleId, file: 'src/ops.ts' },
  ).map((f) => ({ line: f.line, unresolved: f.message.includes('cannot tell') }));

/** Each case's result, by its text. */
const byCase = <T>(cases: ReadonlyArray<readonly [readonly string[], string]>, run: (body: readonly string[], write: string) => T): Record<string, T> =>
  Object.fromEntries(cases.map(([body, write]) => [`${body.join(' ')} => ${write}`, run(body, write)]));

describe('a door made inside a list or an object of a module using the SDK, written from a file naming no SDK', () => {
  it("reported as the door's own write: an element, a member, a nested list, a list in a list, a local door held by name, the only value", () => {
    const cases = [
      [[`export const tools = [${SHELL}];`, 'export const kit = {};'], 'tools[0].shell = evil;'],
      [['export const tools = [];', `export const kit = { shell: ${SHELL} };`], 'kit.shell.shell = evil;'],
      [['export const tools = [];', `export const kit = { all: [{ retries: 1 }, ${SHELL}] };`], 'kit.all[1].shell = evil;'],
      [[`const sh = ${SHELL};`, 'export const tools = [sh];', 'export const kit = {};'], 'tools[0].shell = evil;'],
      [[`const list = [${SHELL}];`, 'export { list as tools };', 'export const kit = {};'], 'tools[0].shell = evil;'],
      [[`export const tools = [${SHELL}];`, 'export const kit = {};'], 'tools[i].shell = evil;'],
      [[`export const tools = [[{ retries: 1 }, ${SHELL}]];`, 'export const kit = {};'], 'tools[0][1].shell = evil;'],
    ] as const;
    expect(byCase(cases, (body, write) => found([...body], write))).toEqual(byCase(cases, () => [{ line: 3, unresolved: false }]));
  });

  it('reported as a write check cannot tell: one of several values', () => {
    const cases = [[[`export const tools = [${SHELL}, { shell: null }];`, 'export const kit = {};'], 'tools[i].shell = evil;']] as const;
    expect(byCase(cases, (body, write) => found([...body], write))).toEqual(byCase(cases, () => [{ line: 3, unresolved: true }]));
  });

  it('a list holding a door exported as the default, written through its default import', () => {
    const files = (write: string) => ({
      'src/list.ts': lines(...HEAD, `export default [${SHELL}, { shell: null }];`),
      'src/ops.ts': lines("import tools from './list.js';", 'declare const evil: any;', write),
    });
    const run = (write: string) => lintRepo(files(write), { project: testProject(), ruleId: 'invoke-replaced', file: 'src/ops.ts' }).map((f) => f.line);
    expect(run('tools[0].shell = evil;')).toEqual([3]);
    expect(run('tools[1].shell = evil;')).toEqual([]);
  });

  it('a server made in a list, its guard list emptied through an element (mcp-server-unguarded)', () => {
    expect(found([`export const tools = [${SERVER}];`, 'export const kit = {};'], 'tools[0].toolInputGuardrails = [];', 'mcp-server-unguarded')).toEqual([
      { line: 3, unresolved: false },
    ]);
  });

  it('silent: another element or member, a door kind the write does not break, no door, the door never written, a member of the door', () => {
    const cases = [
      [[`export const tools = [${SHELL}, { shell: null }];`, 'export const kit = {};'], 'tools[1].shell = evil;'],
      [['export const tools = [];', `export const kit = { shell: ${SHELL}, other: { shell: 1 } };`], 'kit.other.shell = evil;'],
      [[`export const tools = [${SERVER}];`, 'export const kit = {};'], 'tools[0].shell = evil;'],
      [["export const tools = [{ shell: 'x' }];", 'export const kit = {};'], 'tools[0].shell = evil;'],
      [[`export const tools = [${SHELL}];`, 'export const kit = {};'], 'console.log(tools[0].shell);'],
      [['export const tools = [];', `export const kit = { shell: ${SHELL} };`], 'kit.shell.inner.shell = evil;'],
    ] as const;
    expect(byCase(cases, (body, write) => found([...body], write))).toEqual(byCase(cases, () => []));
  });
});
