import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';
import { DOORS } from './unlisted-tool-module.js';

/*
 * Issue 40 item 4 ("no false green"), left by session 32 (docs/DECISIONS.md "Session 32: exports of
 * modules check does not scan", What is left): a local door exported again under another name by a
 * module's own value (`export const gh = shellTool`, `export default shellTool`, `cond ? shellTool :
 * other`), its body written in a file naming neither the SDK nor the generated module.
 */

const found = (files: Record<string, string>, file = 'src/ops.ts', ruleId = 'invoke-replaced') =>
  lintRepo({ 'src/doors.ts': DOORS, ...files }, { project: testProject(), ruleId, file }).map((f) => ({
    line: f.line,
    unresolved: f.message.includes('cannot tell'),
  }));

/** Each case's result, by its text: one assertion shows every case that differs. */
const byCase = <T>(cases: readonly string[][], run: (body: string[]) => T): Record<string, T> =>
  Object.fromEntries(cases.map((body) => [body.join(' '), run(body)]));

/** `src/alias.ts` with `body`, and `src/ops.ts` (naming no SDK) writing the body of its import `gh`. */
const aliased = (...body: string[]) => ({
  'src/alias.ts': lines(...body),
  'src/ops.ts': lines("import { gh } from './alias.js';", 'declare const evil: any;', 'gh.shell = evil;'),
});

describe('a local door exported again as a value, its body written in a file naming no SDK', () => {
  it("reported as the door's write: `export const gh = shellTool`, a namespace's member, a `const` exported by a list, `const` steps", () => {
    const cases = [
      ["import { shellTool } from './doors.js';", 'export const gh = shellTool;'],
      ["import * as d from './doors.js';", 'export const gh = d.shellTool;'],
      ["import { shellTool } from './doors.js';", 'const tool = shellTool;', 'export { tool as gh };'],
      ["import { shellTool } from './doors.js';", 'const a = shellTool;', 'const b = a;', 'export const gh = b;'],
      ["import { shellTool as hostTool } from './doors.js';", 'export const gh = hostTool;'],
    ];
    expect(byCase(cases, (body) => found(aliased(...body)))).toEqual(byCase(cases, () => [{ line: 3, unresolved: false }]));
  });
});

describe('a local door exported again as the default value, written through a default import naming no SDK', () => {
  it("reported as the door's write: `export default shellTool`, `export default d.shellTool`", () => {
    const writer = lines("import main from './alias.js';", 'declare const evil: any;', 'main.shell = evil;');
    const cases = [
      ["import { shellTool } from './doors.js';", 'export default shellTool;'],
      ["import * as d from './doors.js';", 'export default d.shellTool;'],
    ];
    expect(byCase(cases, (body) => found({ 'src/alias.ts': lines(...body), 'src/ops.ts': writer }))).toEqual(
      byCase(cases, () => [{ line: 3, unresolved: false }]),
    );
  });
});

describe('silent: an alias that is provably no local door', () => {
  it("another door's kind, a copy, a member of the door, a plain object, the door's name in a string", () => {
    const cases = [
      ["import { github } from './doors.js';", 'export const gh = github;'],
      ["import { shellTool } from './doors.js';", 'export const gh = { ...shellTool };'],
      ["import { shellTool } from './doors.js';", 'export const gh = shellTool.name;'],
      ["import { settings } from './settings.js';", 'export const gh = settings;'],
      ["export const gh = { label: 'shellTool' };"],
      ["import { shellTool } from './doors.js';", 'export const gh = { retries: 3 };', 'export default shellTool;'],
    ];
    expect(byCase(cases, (body) => found({ ...aliased(...body), 'src/settings.ts': 'export const settings = { retries: 3 };' }))).toEqual(
      byCase(cases, () => []),
    );
  });
});

describe('an alias that is one of several values (`cond ? shellTool : other`, `a ?? b`, `a || b`)', () => {
  const files = (...body: string[]) => ({ ...aliased(...body), 'src/settings.ts': 'export const settings = { retries: 3 };' });

  it('a door beside another value: reported as a write on an object check cannot tell, in a writer naming no SDK too', () => {
    const cases = [
      ["import { shellTool } from './doors.js';", 'declare const cond: boolean;', 'export const gh = cond ? shellTool : { shell: null };'],
      ["import { shellTool } from './doors.js';", "import { settings } from './settings.js';", 'export const gh = process.env.X ? settings : shellTool;'],
      ["import { shellTool } from './doors.js';", "import { settings } from './settings.js';", 'export const gh = settings ?? shellTool;'],
      ["import { shellTool } from './doors.js';", 'declare const mine: any;', 'export const gh = mine || shellTool;'],
      ["import { shellTool } from './doors.js';", "import { settings } from './settings.js';", 'const a = settings;', 'export const gh = a ?? shellTool;'],
      ["import * as d from './doors.js';", 'declare const cond: boolean;', 'export const gh = cond ? d.github : d.shellTool;'],
      // no `;`: the value read for `limit` runs into the next declaration, which is still read
      ["import { shellTool } from './doors.js'", 'const limit = 1', 'export const gh = process.env.X ? shellTool : null'],
      ["import { shellTool } from './doors.js';", 'declare const cond: boolean;', 'const tool = cond ? shellTool : null;', 'export default tool;'],
    ];
    const run = (body: string[]) => {
      const f = files(...body);
      if (body.at(-1)!.startsWith('export default')) f['src/ops.ts'] = lines("import gh from './alias.js';", 'declare const evil: any;', 'gh.shell = evil;');
      return found(f);
    };
    expect(byCase(cases, run)).toEqual(byCase(cases, () => [{ line: 3, unresolved: true }]));
  });

  it("the same door in every branch (or a falsy left of `&&`): reported as the door's own write", () => {
    const cases = [
      [
        "import { shellTool } from './doors.js';",
        "import * as d from './doors.js';",
        'declare const cond: boolean;',
        'export const gh = cond ? shellTool : d.shellTool;',
      ],
      ["import { shellTool } from './doors.js';", 'export const gh = shellTool ?? shellTool;'],
      // the left of `&&` is the value only when falsy, and a falsy value's property cannot be written
      ["import { shellTool } from './doors.js';", 'declare const on: boolean;', 'export const gh = on && shellTool;'],
    ];
    expect(byCase(cases, (body) => found(files(...body)))).toEqual(byCase(cases, () => [{ line: 3, unresolved: false }]));
  });

  it('a guard list emptied on a server in one branch is reported in a writer naming no SDK (guard lists are always read)', () => {
    const f = {
      'src/alias.ts': lines("import { github } from './doors.js';", "import { settings } from './settings.js';", 'export const gh = settings ?? github;'),
      'src/settings.ts': 'export const settings = { retries: 3 };',
      'src/ops.ts': lines("import { gh } from './alias.js';", 'gh.toolInputGuardrails = [];'),
    };
    expect(found(f, 'src/ops.ts', 'mcp-server-unguarded')).toEqual([{ line: 2, unresolved: true }]);
  });

  it('silent: no branch a local door (plain objects, another door kind, a string naming the door)', () => {
    const cases = [
      ["import { settings } from './settings.js';", 'declare const cond: boolean;', 'export const gh = cond ? settings : { retries: 1 };'],
      ["import { github } from './doors.js';", "import { settings } from './settings.js';", 'export const gh = settings ?? github;'],
      ["import { shellTool } from './doors.js';", 'declare const cond: boolean;', "export const gh = cond ? { tool: 'shellTool' } : shellTool.name;"],
      ["import { shellTool } from './doors.js';", 'declare const on: boolean;', 'export const gh = shellTool && { retries: 1 };'],
    ];
    expect(byCase(cases, (body) => found(files(...body)))).toEqual(byCase(cases, () => []));
  });
});

describe('one of several values beside what check cannot tell, a local door, or too many values', () => {
  /** A module of the SDK making a guarded server: a factory the alias module imports. */
  const FACTORY = lines(
    "import { MCPServerStdio } from '@openai/agents';",
    "import { protectMcpServer } from './ctrlrun.generated.js';",
    "export const makeServer = () => protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' }));",
  );

  // passed before (the conditional was not followed, the module's scan said "cannot tell"): a guard
  // that following its values keeps that
  it("a door beside a factory's result: a part of another door written is reported as on an object check cannot tell", () => {
    // scanned (it names a door word): its own scan says `gh` may be what it cannot tell
    const scanned = {
      'src/factory.ts': FACTORY,
      'src/alias.ts': lines(
        "import { shellTool } from './doors.js';",
        "import { makeServer } from './factory.js';",
        'declare const cond: boolean;',
        'export const gh = cond ? shellTool : makeServer();',
      ),
      'src/ops.ts': lines("import { gh } from './alias.js';", 'gh.toolInputGuardrails = [];'),
    };
    expect(found(scanned, 'src/ops.ts', 'mcp-server-unguarded')).toEqual([{ line: 2, unresolved: true }]);
    // unscanned (no door word, no SDK): its scan is made on demand; a shell written in a writer using the SDK
    const unscanned = {
      'src/factory.ts': FACTORY,
      'src/alias.ts': lines(
        "import { github } from './doors.js';",
        "import { makeServer } from './factory.js';",
        'declare const cond: boolean;',
        'export const gh = cond ? github : makeServer();',
      ),
      'src/ops.ts': lines("import { Agent } from '@openai/agents';", "import { gh } from './alias.js';", 'declare const evil: any;', 'gh.shell = evil;'),
    };
    expect(found(unscanned)).toEqual([{ line: 4, unresolved: true }]);
  });

  it("a local door of the module beside an imported door of another kind: the import's part written is reported", () => {
    const alias = (other: string) =>
      lines(
        "import { protectShellTool } from './ctrlrun.generated.js';",
        "import { github } from './doors.js';",
        "import { settings } from './settings.js';",
        'declare const shell: any;',
        'declare const cond: boolean;',
        `export const gh = cond ? protectShellTool('host.shell', { shell }) : ${other};`,
      );
    const files = (other: string, write: string) => ({
      'src/alias.ts': alias(other),
      'src/settings.ts': 'export const settings = { retries: 3 };',
      'src/ops.ts': lines("import { gh } from './alias.js';", 'declare const evil: any;', write),
    });
    expect(found(files('github', 'gh.toolInputGuardrails = [];'), 'src/ops.ts', 'mcp-server-unguarded')).toEqual([{ line: 3, unresolved: true }]);
    expect(found(files('github', 'gh.shell = evil;'))).toEqual([{ line: 3, unresolved: true }]);
    // beside a plain object, the module's own door is the door its scan says (as before)
    expect(found(files('settings', 'gh.shell = evil;'))).toEqual([{ line: 3, unresolved: false }]);
  });

  it('a value of more parts than are read: a door part written on it is reported as on an object check cannot tell (fail closed)', () => {
    const many = Array.from({ length: 40 }, () => 'settings').join(' ?? ');
    const files = {
      'src/alias.ts': lines("import { settings } from './settings.js';", `export const gh = ${many};`),
      'src/settings.ts': 'export const settings = { retries: 3 };',
      // the writer names the door's module, so the search reads it
      'src/ops.ts': lines("import { gh } from './alias.js';", "import './doors.js';", 'declare const evil: any;', 'gh.shell = evil;'),
    };
    expect(found(files)).toEqual([{ line: 4, unresolved: true }]);
    const few = { ...files, 'src/alias.ts': lines("import { settings } from './settings.js';", 'export const gh = settings ?? settings ?? settings;') };
    expect(found(few)).toEqual([]);
  });
});
