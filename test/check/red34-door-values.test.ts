import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';
import { DOORS } from './unlisted-tool-module.js';

/*
 * Issue 40 item 4 ("no false green"), left by session 33 (docs/DECISIONS.md "Session 33: a door
 * exported again as a value", What is left): a door held inside a value (`export const tools =
 * [shellTool]`, `export const kit = { shell: shellTool }`), its body written through an element or
 * a member (`tools[0].shell = evil`, `kit.shell.shell = evil`) in a file naming neither the SDK nor
 * the generated module.
 */

const found = (files: Record<string, string>, file = 'src/ops.ts', ruleId = 'invoke-replaced') =>
  lintRepo({ 'src/doors.ts': DOORS, 'src/settings.ts': 'export const settings = { retries: 3 };', ...files }, { project: testProject(), ruleId, file }).map(
    (f) => ({ line: f.line, unresolved: f.message.includes('cannot tell') }),
  );

/** Each case's result, by its text: one assertion shows every case that differs. */
const byCase = <T>(cases: ReadonlyArray<readonly [readonly string[], string]>, run: (body: readonly string[], write: string) => T): Record<string, T> =>
  Object.fromEntries(cases.map(([body, write]) => [`${body.join(' ')} => ${write}`, run(body, write)]));

/** `src/list.ts` with `body`, and `src/ops.ts` (naming no SDK) importing `tools` and `kit` from it and writing `write` (line 3). */
const held = (body: string[], write: string) => ({
  'src/list.ts': lines(...body),
  'src/ops.ts': lines("import { tools, kit } from './list.js';", 'declare const evil: any; declare const i: number;', write),
});

const SHELL = "import { shellTool } from './doors.js';";

describe('a door held inside a value, its body written through an element or a member in a file naming no SDK', () => {
  it("reported as the door's own write: an element, a member, a shorthand, a nested list, a list exported by name, a namespace's door, the only value", () => {
    const cases = [
      [[SHELL, 'export const tools = [shellTool];', 'export const kit = {};'], 'tools[0].shell = evil;'],
      [[SHELL, 'export const tools = [];', 'export const kit = { shell: shellTool };'], 'kit.shell.shell = evil;'],
      [[SHELL, 'export const tools = [];', 'export const kit = { shell: shellTool };'], "kit['shell'].shell = evil;"],
      [[SHELL, 'export const tools = [];', 'export const kit = { shellTool };'], 'kit.shellTool.shell = evil;'],
      [[SHELL, 'export const tools = [];', 'export const kit = { all: [{ retries: 1 }, shellTool] };'], 'kit.all[1].shell = evil;'],
      [[SHELL, 'const list = [shellTool] as const;', 'export { list as tools };', 'export const kit = {};'], 'tools[0].shell = evil;'],
      [["import * as d from './doors.js';", 'export const tools = [d.github, d.shellTool];', 'export const kit = {};'], 'tools[1].shell = evil;'],
      [[SHELL, 'const inner = { shell: shellTool };', 'export const tools = [];', 'export const kit = { inner };'], 'kit.inner.shell.shell = evil;'],
      [[SHELL, 'declare const base: object;', 'export const tools = [];', 'export const kit = { ...base, shell: shellTool };'], 'kit.shell.shell = evil;'],
      // the door is the only value the member can be written on (another read is `undefined`, which throws)
      [[SHELL, 'export const tools = [shellTool];', 'export const kit = {};'], 'tools[i].shell = evil;'],
      [[SHELL, 'declare const key: string;', 'export const tools = [];', 'export const kit = { [key]: shellTool };'], 'kit.shell.shell = evil;'],
      // the door far into the list (past the 500 characters a pattern once read)
      [[SHELL, `export const tools = [${'{ retries: 1 }, '.repeat(40)}shellTool];`, 'export const kit = {};'], 'tools[40].shell = evil;'],
    ] as const;
    expect(byCase(cases, (body, write) => found(held([...body], write)))).toEqual(byCase(cases, () => [{ line: 3, unresolved: false }]));
  });

  it('reported as a write on an object check cannot tell: an index check cannot read, a spread before it, one of several values', () => {
    const cases = [
      [[SHELL, "import { settings } from './settings.js';", 'export const tools = [shellTool, settings];', 'export const kit = {};'], 'tools[i].shell = evil;'],
      [[SHELL, 'declare const more: any[];', 'export const tools = [...more, shellTool];', 'export const kit = {};'], 'tools[1].shell = evil;'],
      [[SHELL, 'declare const more: any[];', 'export const tools = [...more, shellTool];', 'export const kit = {};'], 'tools[0].shell = evil;'],
      [[SHELL, 'declare const base: object;', 'export const tools = [];', 'export const kit = { shell: shellTool, ...base };'], 'kit.shell.shell = evil;'],
      [
        [SHELL, 'declare const cond: boolean;', 'export const tools = cond ? [shellTool] : [{ shell: null }];', 'export const kit = {};'],
        'tools[0].shell = evil;',
      ],
      [
        [SHELL, 'declare const key: string;', 'export const tools = [];', 'export const kit = { shell: { retries: 1 }, [key]: shellTool };'],
        'kit.shell.shell = evil;',
      ],
    ] as const;
    expect(byCase(cases, (body, write) => found(held([...body], write)))).toEqual(byCase(cases, () => [{ line: 3, unresolved: true }]));
  });

  it('a list or an object holding a door exported as the default, written through its default import', () => {
    const files = (list: string, write: string) => ({
      'src/list.ts': lines(SHELL, list),
      'src/ops.ts': lines("import tools from './list.js';", 'declare const evil: any;', write),
    });
    expect(found(files('export default [shellTool];', 'tools[0].shell = evil;'))).toEqual([{ line: 3, unresolved: false }]);
    expect(found(files('export default { shell: shellTool };', 'tools.shell.shell = evil;'))).toEqual([{ line: 3, unresolved: false }]);
    // silent: another element of it
    expect(found(files("export default [shellTool, { shell: 'x' }];", 'tools[1].shell = evil;'))).toEqual([]);
  });

  it('a guard list emptied on a server held in a list is reported (mcp-server-unguarded)', () => {
    const f = held(["import { github } from './doors.js';", 'export const tools = [github];', 'export const kit = {};'], 'tools[0].toolInputGuardrails = [];');
    expect(found(f, 'src/ops.ts', 'mcp-server-unguarded')).toEqual([{ line: 3, unresolved: false }]);
  });

  it('silent: another element or member, another door kind, no door, the list itself, a door value never written', () => {
    const cases = [
      [[SHELL, "import { settings } from './settings.js';", 'export const tools = [shellTool, settings];', 'export const kit = {};'], 'tools[1].shell = evil;'],
      [[SHELL, 'export const tools = [];', 'export const kit = { shell: shellTool, other: { retries: 1 } };'], 'kit.other.shell = evil;'],
      [
        ["import { github } from './doors.js';", 'export const tools = [github];', 'export const kit = { github };'],
        'tools[0].shell = evil; kit.github.shell = evil;',
      ],
      [
        ["import { settings } from './settings.js';", 'export const tools = [settings];', 'export const kit = { settings };'],
        'tools[0].shell = evil; kit.settings.shell = evil;',
      ],
      [[SHELL, 'export const tools = [shellTool];', 'export const kit = { shellTool };'], '(tools as any).shell = evil; (kit as any).shell = evil;'],
      [[SHELL, 'export const tools = [shellTool];', 'export const kit = { shellTool };'], 'console.log(tools[0].name, kit.shellTool.shell, evil);'],
      [[SHELL, 'export const tools = [shellTool];', 'export const kit = { shell: { retries: 1 }, ...{ shell: shellTool } };'], 'kit.other.shell = evil;'],
    ] as const;
    expect(byCase(cases, (body, write) => found(held([...body], write)))).toEqual(byCase(cases, () => []));
  });
});
