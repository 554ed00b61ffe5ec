import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';
import { agentLoading, DOORS, GIT_IGNORED_TOOL, pastCap, scanTree } from './unlisted-tool-module.js';

/*
 * Issue 40 item 4 ("no false green"), left by session 30 (docs/DECISIONS.md "Session 31: doors
 * across modules"): a door or an unlisted module reached through `export * as ns`, a listed module
 * reached only by a side-effect import, an export made by a factory check does not follow.
 */

const found = (files: Record<string, string>, ruleId: string, file = 'src/ops.ts') =>
  lintRepo({ 'src/doors.ts': DOORS, ...files }, { project: testProject(), ruleId, file }).map((f) => ({
    line: f.line,
    unresolved: f.message.includes('cannot tell'),
  }));

/** A writer naming no SDK (only the door word `shell`): an unknown object there is silent, so only a followed door is reported. */
const swap = (...ops: string[]): string[] => [...ops, 'declare const other: unknown;'];

describe('a door written through `export * as ns` (a)', () => {
  it('a named import of the namespace: `ns.shellTool.shell = other` (the door followed, not an unknown object)', () => {
    const files = {
      'src/index.ts': "export * as ns from './doors.js';\n",
      'src/ops.ts': lines(...swap("import { ns } from './index.js';", 'ns.shellTool.shell = other as never;')),
    };
    expect(found(files, 'invoke-replaced')).toEqual([{ line: 2, unresolved: false }]);
  });

  it('a namespace import of the barrel: `b.ns.shellTool.shell = other`; a server through it is the door, not an unknown object', () => {
    const files = {
      'src/index.ts': "export * as ns from './doors.js';\n",
      'src/ops.ts': lines(
        ...swap("import * as b from './index.js';", 'b.ns.shellTool.shell = other as never;', 'b.ns.github.toolOutputGuardrails.length = 0;'),
      ),
    };
    expect(found(files, 'invoke-replaced')).toEqual([{ line: 2, unresolved: false }]);
    expect(found(files, 'mcp-server-unguarded')).toEqual([{ line: 3, unresolved: false }]);
  });

  it('a namespace exported again by name (`import * as d ...; export { d as ns }`), renamed again', () => {
    const files = {
      'src/index.ts': lines("import * as d from './doors.js';", 'export { d as ns };'),
      'src/outer.ts': "export { ns as doors } from './index.js';\n",
      'src/ops.ts': lines(...swap("import { doors } from './outer.js';", 'doors.shellTool.shell = other as never;')),
    };
    expect(found(files, 'invoke-replaced')).toEqual([{ line: 2, unresolved: false }]);
  });

  it('silent: another export of the namespace, a plain object exported under the name, a part of the door that is no door', () => {
    const other = {
      'src/index.ts': "export * as ns from './doors.js';\n",
      'src/ops.ts': lines(...swap("import { ns } from './index.js';", 'ns.shellTools.shell = other as never;')),
    };
    expect(found(other, 'invoke-replaced')).toEqual([]);
    const plain = {
      'src/index.ts': lines("import { shellTool } from './doors.js';", 'export const ns = { shellTool: { shell: 1 as unknown }, door: shellTool };'),
      'src/ops.ts': lines(...swap("import { ns } from './index.js';", 'ns.shellTool.shell = other as never;')),
    };
    expect(found(plain, 'invoke-replaced')).toEqual([]);
    const deeper = {
      'src/index.ts': "export * as ns from './doors.js';\n",
      'src/ops.ts': lines(...swap("import { ns } from './index.js';", 'ns.shellTool.shell.shell = other as never;')),
    };
    expect(found(deeper, 'invoke-replaced')).toEqual([]);
  });
});

const GEN = GIT_IGNORED_TOOL;
const agent = (...load: string[]): Record<string, string> => agentLoading('[]', ...load);

const wireFindings = (files: Record<string, string>, file = 'src/gen/wire.ts'): number[] =>
  lintRepo(files, { project: testProject(), ruleId: 'unprotected-tool', file }).map((f) => f.line);

describe('an unlisted module reached through `export * as ns` (a)', () => {
  it('re-exported as a namespace by a scanned file', () => {
    expect(wireFindings(agent("export * as gen from './gen/wire.js';"))).toEqual([3]);
  });

  it('re-exported as a namespace by a listed barrel naming no SDK', () => {
    expect(wireFindings({ ...agent("import { gen } from './tools.js';"), 'src/tools.ts': "export * as gen from './gen/wire.js';\n" })).toEqual([3]);
  });

  it('with a comment inside the statement, in a scanned module (the tree is read, not a pattern)', () => {
    expect(wireFindings(agent("export * as /* the generated tools */ gen from './gen/wire.js';"))).toEqual([3]);
  });

  it('re-exported as a namespace by another unlisted module', () => {
    const files = { ...agent("import { all } from './gen/all.js';"), 'src/gen/all.ts': "export * as all from './wire.js';\n" };
    expect(wireFindings(files)).toEqual([3]);
  });
});

describe("a listed module reached only by a listed module's side-effect import (b)", () => {
  it('a side-effect import in a listed module with no export, imported for its side effect', () => {
    const files = { ...agent("import './setup.js';"), 'src/setup.ts': "import './gen/wire.js';\n" };
    expect(wireFindings(files)).toEqual([3]);
  });

  it('a side-effect import in a listed barrel, beside its re-exports', () => {
    const files = {
      ...agent("import { registry } from './tools.js';"),
      'src/tools.ts': lines("import './gen/wire.js';", "export { registry } from './registry.js';"),
      'src/registry.ts': 'export const registry: unknown[] = [];\n',
    };
    expect(wireFindings(files)).toEqual([3]);
  });

  it('silent: a side-effect import of a style sheet, of a listed module, and a type-only import', () => {
    const files = {
      ...agent("import './setup.js';"),
      'src/setup.ts': lines("import './styles.css';", "import './registry.js';", "import type { Wire } from './gen/types.js';", 'export type { Wire };'),
      'src/registry.ts': 'export const registry: unknown[] = [];\n',
      'src/gen/types.ts': lines(...GEN['src/gen/wire.ts'].split('\n').slice(0, 3), 'export type Wire = typeof wire;'),
    };
    expect(wireFindings(files, 'src/gen/types.ts')).toEqual([]);
  });
});

describe('an export check cannot tell, written in another module (c)', () => {
  const FACTORY = lines(
    "import { MCPServerStdio } from '@openai/agents';",
    "import { protectMcpServer } from './ctrlrun.generated.js';",
    "export const makeServer = () => protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' }));",
  );

  it("a local factory's guarded server is followed: the write is the door's, not an unknown object's", () => {
    const files = {
      'src/server.ts': lines(
        "import { MCPServerStdio } from '@openai/agents';",
        "import { protectMcpServer } from './ctrlrun.generated.js';",
        "function makeServer() { return protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' })); }",
        'export const gh = makeServer();',
      ),
      'src/ops.ts': lines("import { gh } from './server.js';", 'gh.toolInputGuardrails = [];'),
    };
    expect(found(files, 'mcp-server-unguarded')).toEqual([{ line: 2, unresolved: false }]);
  });

  it("an imported factory's result: a guard list emptied and an errorFunction replaced are reported as on an object check cannot tell", () => {
    const files = {
      'src/factory.ts': FACTORY,
      'src/server.ts': lines(
        "import { makeServer } from './factory.js';",
        "import { Agent } from '@openai/agents';",
        'export const gh = makeServer();',
        "export const a = new Agent({ name: 'a' });",
      ),
      'src/ops.ts': lines("import { gh } from './server.js';", 'gh.toolInputGuardrails = [];', 'gh.errorFunction = () => "no";'),
    };
    const got = lintRepo({ 'src/doors.ts': DOORS, ...files }, { project: testProject(), ruleId: 'mcp-server-unguarded', file: 'src/ops.ts' });
    expect(got.map((f) => f.line)).toEqual([2, 3]);
    expect(got[0]!.message).toContain('check cannot tell which object `gh` is');
  });

  it('a member of an import that is no door of its module stays reported as on an object check cannot tell', () => {
    const files = {
      'src/config.ts': lines(
        "import { github } from './doors.js';",
        'declare const load: () => { server: unknown };',
        'export const config = load() ?? { server: github };',
      ),
      'src/ops.ts': lines("import { config } from './config.js';", 'config.server.toolInputGuardrails = [];'),
    };
    expect(found(files, 'mcp-server-unguarded')).toEqual([{ line: 2, unresolved: true }]);
    // session 34: a member holding the door itself is followed to it, the door's own write
    files['src/config.ts'] = lines("import { github } from './doors.js';", 'export const config = { server: github };');
    expect(found(files, 'mcp-server-unguarded')).toEqual([{ line: 2, unresolved: false }]);
  });

  it('silent: a known export (an object literal, `new`), a door part that is no guard, a generic name in a writer naming no SDK', () => {
    const files = {
      'src/factory.ts': FACTORY,
      'src/server.ts': lines(
        "import { makeServer } from './factory.js';",
        "import { Agent } from '@openai/agents';",
        'export const gh = makeServer();',
        'export const plain = { toolInputGuardrails: [] as unknown[] };',
        'export const made = new Map<string, unknown>();',
        "export const a = new Agent({ name: 'a' });",
      ),
      'src/ops.ts': lines(
        "import { gh, plain, made } from './server.js';",
        'plain.toolInputGuardrails = [];',
        'gh.name = "x";',
        'declare const other: unknown;',
        'gh.shell = other as never;',
        '(made as any).errorFunction = null;',
      ),
    };
    expect(found(files, 'mcp-server-unguarded')).toEqual([]);
    expect(found(files, 'invoke-replaced')).toEqual([]);
  });
});

/** An answer on what `ReturnType<typeof api.load>` gives, `api` the default import of `src/api.ts` (sdk-approval). */
const answers = (api: string, use = "import api from './api.js';"): number =>
  lintRepo(
    {
      'src/server.ts': lines(
        "import { protectedTool } from './ctrlrun.generated.js';",
        'interface Review { approve(i: Row): void; reject(i: Row): void }',
        use,
        'export function ok(s: ReturnType<typeof api.load>, i: Row) { s.approve(i); }',
      ),
      'src/api.ts': api,
    },
    { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' },
  ).length;
const SDK = "import type { RunState } from '@openai/agents';";

describe('ReturnType<typeof api.load> with api the default import of `export default {…}` (d)', () => {
  it('one finding: a method of the default object, an arrow, `satisfies`, a variable exported as the default', () => {
    expect(answers(lines(SDK, 'export default { load(): RunState<any, any> { return null!; } };'))).toBe(1);
    expect(answers(lines(SDK, 'export default { load: (): RunState<any, any> => null! };'))).toBe(1);
    expect(answers(lines(SDK, 'export default { load(): RunState<any, any> { return null!; } } satisfies object;'))).toBe(1);
    expect(answers(lines(SDK, 'const api = { load(): RunState<any, any> { return null!; } };', 'export default api;'))).toBe(1);
  });

  it("none: the app's own RunState there, a named export under the default's name, a default that is no object", () => {
    expect(answers(lines('interface RunState<A, B> { approve(i: Row): void }', 'export default { load(): RunState<any, any> { return null!; } };'))).toBe(0);
    expect(answers(lines(SDK, 'export const api = { load(): RunState<any, any> { return null!; } };', 'export default { load() { return 1; } };'))).toBe(0);
    expect(answers(lines(SDK, 'export default function load(): RunState<any, any> { return null!; }'))).toBe(0);
  });
});

describe('unlisted modules past what one scan reads (e)', () => {
  /** A ring of `n` listed barrels naming no SDK, each re-exporting a git-ignored module with a raw tool and the next barrel. */
  const ring = (n: number): Record<string, string> => {
    const files: Record<string, string> = { ...agent("import { t0 } from './ring/b0.js';") };
    for (let i = 0; i < n; i++) {
      files[`src/ring/b${i}.ts`] = lines(`export * from '../gen/m${i}.js';`, `export * from './b${(i + 1) % n}.js';`);
      files[`src/gen/m${i}.ts`] = lines(
        "import { tool } from '@openai/agents';",
        `export const t${i} = tool({ name: 't${i}', description: 'd', parameters: {} as never, execute: async () => 'ok', errorFunction: null });`,
      );
    }
    return files;
  };
  /** One scan of the tree: the unlisted modules read (each with its tool reported) and the unreadable-file messages. */
  const all = (files: Record<string, string>) => {
    const { scan, unread } = scanTree(files, 'red31-ring-');
    const read = scan.files.filter((f) => f.unlisted === 'ignored' && f.file.startsWith('src/gen/m'));
    return { read: read.length, tools: read.filter((f) => f.sdkToolCalls.length > 0).length, unread };
  };

  it('300 modules behind a ring of listed barrels: those read are reported, and the rest is said not to be', () => {
    const got = all(ring(300));
    // the scan reads 64 unlisted modules (UNLISTED_LIMIT), each reported at its tool; the 65th is
    // named with the count of those found past it (session 32: m65 to m255, behind the barrels the
    // search still follows), and the 257th barrel, past their cap, is named too
    expect(got).toEqual({ read: 64, tools: 64, unread: [pastCap.module('src/gen/m64.ts', 191), pastCap.barrel('src/ring/b256.ts', 0)] });
  });

  it('65 modules behind the ring: the 65th named alone', () => {
    expect(all(ring(65))).toEqual({ read: 64, tools: 64, unread: [pastCap.module('src/gen/m64.ts', 0)] });
  });

  it('66 modules behind the ring: the 65th named, one more counted', () => {
    expect(all(ring(66))).toEqual({ read: 64, tools: 64, unread: [pastCap.module('src/gen/m64.ts', 1)] });
  });

  it('silent: 64 modules behind the ring, all read', () => {
    expect(all(ring(64))).toEqual({ read: 64, tools: 64, unread: [] });
  });
});
