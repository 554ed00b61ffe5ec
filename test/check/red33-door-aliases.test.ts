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
