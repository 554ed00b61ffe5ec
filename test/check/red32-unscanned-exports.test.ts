import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';
import { DOORS } from './unlisted-tool-module.js';

/*
 * Issue 40 item 4 ("no false green"), left by session 31 (docs/DECISIONS.md "Session 31: doors
 * across modules", What is left): a listed module naming neither the SDK nor the generated module is
 * not scanned, so `export const gh = makeServer()` there (the factory imported from elsewhere) was
 * not known to be an export check cannot tell, and a door's part written on it elsewhere was silent.
 */

/** A module of the SDK making a guarded server: the factory the unscanned module imports. */
const FACTORY = lines(
  "import { MCPServerStdio } from '@openai/agents';",
  "import { protectMcpServer } from './ctrlrun.generated.js';",
  "export const makeServer = () => protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' }));",
);

const found = (files: Record<string, string>, ruleId: string, file = 'src/ops.ts') =>
  lintRepo({ 'src/doors.ts': DOORS, 'src/factory.ts': FACTORY, ...files }, { project: testProject(), ruleId, file }).map((f) => ({
    line: f.line,
    unresolved: f.message.includes('cannot tell'),
  }));

/** `src/server.ts`, a module naming no SDK (and no door word): the prefilter passes it over. */
const server = (...body: string[]) => ({ 'src/server.ts': lines("import { makeServer } from './factory.js';", ...body) });

describe("an export of a module check does not scan, made by another module's factory", () => {
  it('a guard list emptied, `errorFunction` replaced and `Object.assign` on it: each reported as on an object check cannot tell', () => {
    const files = {
      ...server('export const gh = makeServer();'),
      'src/ops.ts': lines(
        "import { gh } from './server.js';",
        'gh.toolInputGuardrails = [];',
        'gh.errorFunction = () => "no";',
        'Object.assign(gh, { toolOutputGuardrails: [] });',
      ),
    };
    expect(found(files, 'mcp-server-unguarded')).toEqual([
      { line: 2, unresolved: true },
      { line: 3, unresolved: true },
      { line: 4, unresolved: true },
    ]);
    const got = lintRepo(
      { 'src/doors.ts': DOORS, 'src/factory.ts': FACTORY, ...files },
      { project: testProject(), ruleId: 'mcp-server-unguarded', file: 'src/ops.ts' },
    );
    expect(got[0]!.message).toContain('check cannot tell which object `gh` is');
  });

  it('exported by name (`export { gh as github }`), as the default, read through a namespace import and through a barrel', () => {
    const files = {
      ...server('const gh = makeServer();', 'export { gh as github };', 'export default makeServer();'),
      'src/index.ts': "export * from './server.js';",
      'src/ops.ts': lines(
        "import { github } from './server.js';",
        "import main from './server.js';",
        "import * as s from './server.js';",
        "import { github as viaBarrel } from './index.js';",
        'github.toolInputGuardrails = [];',
        'main.errorFunction = () => "no";',
        's.github.toolOutputGuardrails = [];',
        'viaBarrel.toolInputGuardrails.length = 0;',
      ),
    };
    expect(found(files, 'mcp-server-unguarded').map((f) => f.line)).toEqual([5, 6, 7, 8]);
  });

  it('a local body written on it in a file using the SDK is reported; in a file naming no SDK, not', () => {
    const files = {
      ...server('export const gh = makeServer();'),
      'src/ops.ts': lines("import { Agent } from '@openai/agents';", "import { gh } from './server.js';", 'declare const other: any;', 'gh.shell = other;'),
      'src/plain.ts': lines("import { gh } from './server.js';", 'declare const other: any;', 'gh.shell = other;'),
    };
    expect(found(files, 'invoke-replaced')).toEqual([{ line: 4, unresolved: true }]);
    expect(found(files, 'invoke-replaced', 'src/plain.ts')).toEqual([]);
  });

  it('silent: exports that are provably no door (an object literal, a string, a number, a function, a class, `new` of a Map)', () => {
    const files = {
      ...server(
        'export const settings = { retries: 3 };',
        "export const label = 'github';",
        'export const limit = 3;',
        'export function helper() { return 1; }',
        'export const arrow = () => 1;',
        'export class Store {}',
        'export const cache = new Map<string, unknown>();',
        'export const list = [1, 2];',
      ),
      'src/ops.ts': lines(
        "import { settings, label, limit, helper, arrow, Store, cache, list } from './server.js';",
        '(settings as any).toolInputGuardrails = [];',
        '(label as any).errorFunction = null;',
        '(limit as any).toolOutputGuardrails = [];',
        '(helper as any).errorFunction = null;',
        '(arrow as any).errorFunction = null;',
        '(Store as any).toolInputGuardrails = [];',
        '(cache as any).errorFunction = null;',
        '(list as any).toolInputGuardrails = [];',
      ),
    };
    expect(found(files, 'mcp-server-unguarded')).toEqual([]);
  });

  it('silent: a door part that is no guard on it, and no write at all', () => {
    const files = {
      ...server('export const gh = makeServer();'),
      'src/ops.ts': lines(
        "import { gh } from './server.js';",
        'gh.name = "x";',
        'gh.toolInputGuardrails.push(() => null);',
        'export const n = gh.errorFunction;',
      ),
    };
    expect(found(files, 'mcp-server-unguarded')).toEqual([]);
  });
});

describe('an export that is an imported door under another name (`export const gh = github`)', () => {
  /** `src/server.ts` re-exporting the guarded server of `src/doors.ts` as `gh`, with `head` before; the writer empties its guard list. */
  const alias = (...body: string[]) => ({
    'src/server.ts': lines(...body),
    'src/ops.ts': lines("import { gh } from './server.js';", 'gh.toolInputGuardrails = [];'),
  });

  it("reported as the door's write: a `const`, a namespace's member, a `const` exported by a list, through `const a = b` steps, in a scanned module too", () => {
    const cases = [
      ["import { github } from './doors.js';", 'export const gh = github;'],
      ["import * as d from './doors.js';", 'export const gh = d.github;'],
      ["import { github } from './doors.js';", 'const server = github as unknown as { toolInputGuardrails: unknown[] };', 'export { server as gh };'],
      ["import { github } from './doors.js';", 'const a = github;', 'const b = a;', 'export const gh = b;'],
      [
        "import { Agent } from '@openai/agents';",
        "import { github } from './doors.js';",
        'export const gh = github;',
        "export const agent = new Agent({ name: 'a' });",
      ],
    ];
    for (const body of cases) expect(found(alias(...body), 'mcp-server-unguarded'), body.join(' ')).toEqual([{ line: 2, unresolved: false }]);
    // the namespace itself under another name: the writer's member is the export read there
    const ns = {
      'src/server.ts': lines("import * as d from './doors.js';", 'export const gh = d;'),
      'src/ops.ts': lines("import { gh } from './server.js';", 'gh.github.toolInputGuardrails = [];', 'gh.toolInputGuardrails = [];'),
    };
    expect(found(ns, 'mcp-server-unguarded')).toEqual([{ line: 2, unresolved: false }]);
  });

  it("the default export of an imported door, read by a default import and by the barrel's name", () => {
    const files = {
      'src/server.ts': lines("import { github } from './doors.js';", 'export default github;'),
      'src/index.ts': "export { default as gh } from './server.js';",
      'src/ops.ts': lines(
        "import main from './server.js';",
        "import { gh } from './index.js';",
        'main.errorFunction = () => "no";',
        'gh.toolOutputGuardrails = [];',
      ),
    };
    expect(found(files, 'mcp-server-unguarded')).toEqual([
      { line: 3, unresolved: false },
      { line: 4, unresolved: false },
    ]);
  });

  it("silent: another door's kind under the name, a copy of the door, a plain object imported under the name", () => {
    const cases = [
      ["import { shellTool } from './doors.js';", 'export const gh = shellTool;'],
      ["import { github } from './doors.js';", 'export const gh = { ...github };'],
      ["import { settings } from './settings.js';", 'export const gh = settings;'],
    ];
    for (const body of cases)
      expect(found({ ...alias(...body), 'src/settings.ts': 'export const settings = { retries: 3 };' }, 'mcp-server-unguarded'), body.join(' ')).toEqual([]);
  });
});

/** An answer on what `ReturnType<typeof api.load>` gives, `api` the default import of `src/api.ts` (sdk-approval). */
const answers = (api: string): number =>
  lintRepo(
    {
      'src/server.ts': lines(
        "import { protectedTool } from './ctrlrun.generated.js';",
        'interface Review { approve(i: Row): void; reject(i: Row): void }',
        "import api from './api.js';",
        'export function ok(s: ReturnType<typeof api.load>, i: Row) { s.approve(i); }',
      ),
      'src/api.ts': api,
    },
    { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' },
  ).length;
const SDK = "import type { RunState } from '@openai/agents';";

describe('ReturnType<typeof api.load> with api the default import of a class (session 31 left it as unread)', () => {
  it('one finding: a static method of an anonymous or a named default class, of a class exported as the default, a static arrow field', () => {
    expect(answers(lines(SDK, 'export default class { static load(): RunState<any, any> { return null!; } }'))).toBe(1);
    expect(answers(lines(SDK, 'export default class Api { static load(): RunState<any, any> { return null!; } }'))).toBe(1);
    expect(answers(lines(SDK, 'class Api { static load(): RunState<any, any> { return null!; } }', 'export default Api;'))).toBe(1);
    expect(answers(lines(SDK, 'export default class { static load = (): RunState<any, any> => null!; }'))).toBe(1);
  });

  it("none: an instance method (`typeof api.load` names the class's static side: TypeScript reports it), the app's own RunState", () => {
    expect(answers(lines(SDK, 'export default class { load(): RunState<any, any> { return null!; } }'))).toBe(0);
    expect(
      answers(lines('interface RunState<A, B> { approve(i: Row): void }', 'export default class { static load(): RunState<any, any> { return null!; } }')),
    ).toBe(0);
  });
});
