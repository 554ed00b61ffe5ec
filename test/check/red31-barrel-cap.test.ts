import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';
import { agentLoading, DOORS, pastCap, scanTree } from './unlisted-tool-module.js';

/*
 * Issue 40 item 4 ("no false green"), left by session 31's "doors across modules": the cap on the
 * listed barrels one scan follows was silent when reached (what lay behind the next barrel was never
 * read), and `ns['github']` was not followed as `ns.github` is.
 */

describe('listed barrels past what one scan follows', () => {
  /** A chain of `n` listed barrels naming no SDK, the last re-exporting the git-ignored module with a raw tool. */
  const chain = (n: number): Record<string, string> => {
    const files: Record<string, string> = agentLoading('[]', "import { wire } from './chain/b0.js';");
    for (let i = 0; i < n; i++) files[`src/chain/b${i}.ts`] = i + 1 < n ? `export * from './b${i + 1}.js';\n` : "export * from '../gen/wire.js';\n";
    return files;
  };
  /** One scan of the tree: whether the unlisted module was read (its tool found) and the unreadable-file messages. */
  const scanOf = (files: Record<string, string>) => {
    const { scan, unread } = scanTree(files, 'red31-chain-');
    const wire = scan.files.find((f) => f.file === 'src/gen/wire.ts');
    return { tool: (wire?.sdkToolCalls.length ?? 0) > 0, unread };
  };

  it('300 barrels in a chain: the 257th is named, as not followed (before: silent, the tool behind it unread)', () => {
    // a chain: the 258th is met only through the 257th, so none more is counted
    expect(scanOf(chain(300))).toEqual({ tool: false, unread: [pastCap.barrel('src/chain/b256.ts', 0)] });
  });

  it('a hub re-exporting 260 barrels: the 256th of them named, the 4 met past it counted (session 32), the tool read through the first', () => {
    const files: Record<string, string> = agentLoading('[]', "import { wire } from './fan/hub.js';");
    const fan = Array.from({ length: 260 }, (_, i) => `export * from './f${i}.js';`);
    files['src/fan/hub.ts'] = lines(...fan);
    for (let i = 0; i < 260; i++) files[`src/fan/f${i}.ts`] = "export * from '../gen/wire.js';\n";
    // the hub is the first barrel followed, f0 to f254 the 255 others
    expect(scanOf(files)).toEqual({ tool: true, unread: [pastCap.barrel('src/fan/f255.ts', 4)] });
  });

  it('silent: 256 barrels in a chain, all followed, the tool behind them read', () => {
    expect(scanOf(chain(256))).toEqual({ tool: true, unread: [] });
  });
});

/** The findings of `ruleId` in src/ops.ts, with whether each says check cannot tell the object. */
const found = (files: Record<string, string>, ruleId: string) =>
  lintRepo(
    { 'src/doors.ts': DOORS, 'src/index.ts': "export * as ns from './doors.js';\n", ...files },
    { project: testProject(), ruleId, file: 'src/ops.ts' },
  ).map((f) => ({ line: f.line, unresolved: f.message.includes('cannot tell') }));

describe("a door read by a string-literal element (`ns['github']`)", () => {
  it("`ns['github']` of `export * as ns`, `d['github']` and `d[`github`]` of `import * as d`: the door followed", () => {
    const ops = lines(
      "import { ns } from './index.js';",
      "import * as d from './doors.js';",
      "ns['github'].toolInputGuardrails = [];",
      "d['github'].toolOutputGuardrails = [];",
      'd[`github`].errorFunction = null as never;',
    );
    expect(found({ 'src/ops.ts': ops }, 'mcp-server-unguarded')).toEqual([
      { line: 3, unresolved: false },
      { line: 4, unresolved: false },
      { line: 5, unresolved: false },
    ]);
  });

  it("a shell swapped in a writer naming no SDK: `b.ns['shellTool'].shell = other`", () => {
    const ops = lines("import * as b from './index.js';", "b.ns['shellTool'].shell = other as never;", 'declare const other: unknown;');
    expect(found({ 'src/ops.ts': ops }, 'invoke-replaced')).toEqual([{ line: 2, unresolved: false }]);
  });

  it("control: a literal gives what the member gives (another door's kind silent, no such export cannot tell); `ns[key]` stays an object check cannot tell", () => {
    const dotted = lines("import { ns } from './index.js';", 'ns.shellTool.toolInputGuardrails = [];', 'ns.gitlab.toolInputGuardrails = [];');
    const literal = lines("import { ns } from './index.js';", "ns['shellTool'].toolInputGuardrails = [];", "ns['gitlab'].toolInputGuardrails = [];");
    expect(found({ 'src/ops.ts': dotted }, 'mcp-server-unguarded')).toEqual([{ line: 3, unresolved: true }]);
    expect(found({ 'src/ops.ts': literal }, 'mcp-server-unguarded')).toEqual([{ line: 3, unresolved: true }]);
    const key = lines("import { ns } from './index.js';", 'declare const key: keyof typeof ns;', 'ns[key].toolInputGuardrails = [];');
    expect(found({ 'src/ops.ts': key }, 'mcp-server-unguarded')).toEqual([{ line: 3, unresolved: true }]);
  });
});
