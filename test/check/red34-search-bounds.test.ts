import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';
import { DOORS } from './unlisted-tool-module.js';

/*
 * Issue 40 item 4 ("no false green"): the searches session 33 added stopped silently at their
 * bounds, so a chain one step longer hid the door. Each bound gets a chain one past it (silent
 * before, reported now: followed exactly where the bound was only a cap, fail closed where it
 * stays) and a control at the bound that keeps its answer.
 */

const KINDS = lines("export const SHELL = ['sh', 'ell'].join('');", 'export const FN = process.env.FN_TYPE!;');

/** An agent's file using the SDK: `head`, then an agent whose `tools` is `tools` (on the last line). */
const agentFile = (head: string[], tools: string): string =>
  lines(
    "import { Agent } from '@openai/agents';",
    "import { SHELL, FN } from './kinds.js';",
    'declare const runner: any;',
    'declare const flows: { name: string; run: any }[];',
    ...head,
    `export const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: ${tools} });`,
  );

const lint = (files: Record<string, string>, file: string, ruleId: string) =>
  lintRepo({ 'src/kinds.ts': KINDS, ...files }, { project: testProject(), ruleId, file }).map((f) => `${f.line}: ${f.message}`);

/** `const v1 = v0; ... const vN = v(N-1);` after `const v0 = first;` (lines 5 to 5 + N). */
const chain = (first: string, n: number): string[] => [`const v0 = ${first};`, ...Array.from({ length: n }, (_, i) => `const v${i + 1} = v${i};`)];

const FN_TOOL = "{ type: FN, name: 'lookup', invoke: runner }";
const FN_MESSAGE =
  "A function tool 'lookup' handed to an agent's `tools`, written as an object literal with its own `invoke` and `type: FN`, a value check cannot read: if it is 'function', the SDK runs it, but it never goes through tool(), so no policy decides its calls.";
const tooFar = (what: string): string =>
  `An agent's \`tools\` value \`${what}\` is reached through more than 12 steps (lists, variables, calls, returns), so check cannot follow it to the tools it holds: a function tool written by hand there (its own \`invoke\`) never goes through tool(), so no policy decides its calls.`;

describe("an agent's `tools` followed through its file (12 steps)", () => {
  it('a function tool 12 steps down keeps its finding (the control)', () => {
    // v10 -> ... -> v0 (10 steps), the list (11), the object (12)
    const files = { 'src/agent.ts': agentFile(chain(`[${FN_TOOL}]`, 10), 'v10') };
    expect(lint(files, 'src/agent.ts', 'object-literal-tool')).toEqual([`5: ${FN_MESSAGE}`]);
  });

  it('one step past: the object is read (a leaf), two past: the list is reported as a chain check cannot follow', () => {
    const one = { 'src/agent.ts': agentFile(chain(`[${FN_TOOL}]`, 11), 'v11') };
    expect.soft(lint(one, 'src/agent.ts', 'object-literal-tool')).toEqual([`5: ${FN_MESSAGE}`]);
    const two = { 'src/agent.ts': agentFile(chain(`[${FN_TOOL}]`, 12), 'v12') };
    expect.soft(lint(two, 'src/agent.ts', 'object-literal-tool')).toEqual([`5: ${tooFar(`${`[${FN_TOOL}]`.slice(0, 37)}...`)}`]);
  });

  it('past the bound at a variable and at a call of a function of the file: reported where the search stops', () => {
    const variable = { 'src/agent.ts': agentFile(chain(`[${FN_TOOL}]`, 13), 'v13') };
    expect.soft(lint(variable, 'src/agent.ts', 'object-literal-tool')).toEqual([`6: ${tooFar('v0')}`]);
    const called = { 'src/agent.ts': agentFile([`function f0() { return [${FN_TOOL}]; }`, ...chain('f0()', 12)], 'v12') };
    expect.soft(lint(called, 'src/agent.ts', 'object-literal-tool')).toEqual([`6: ${tooFar('f0()')}`]);
  });

  it('an import 13 steps down is still followed to its module', () => {
    const files = {
      'src/agent.ts': agentFile(["import { myShell } from './tools/shell.js';", ...chain('[myShell]', 11)], 'v11'),
      'src/tools/shell.ts': lines(
        "import { SHELL } from '../kinds.js';",
        'declare const runner: any;',
        'export const myShell = { type: SHELL, shell: runner };',
      ),
    };
    expect(lint(files, 'src/tools/shell.ts', 'unprotected-door').map((f) => f.slice(0, 2))).toEqual(['3:']);
  });

  it('silent past the bound: a chain ending in values that are no tool written by hand', () => {
    const files = { 'src/agent.ts': agentFile(chain("[{ type: 'method', invoke: runner }, 'x', runner]", 11), 'v11') };
    expect(lint(files, 'src/agent.ts', 'object-literal-tool')).toEqual([]);
  });
});

/** A module naming no SDK: an exported arrow returning `depth` nested `.flatMap`s, the innermost returning a shell tool. */
const nestedMaps = (depth: number): string => {
  let body = '({ type: SHELL, shell: f.run })';
  for (let i = 0; i < depth; i++) body = `flows.${i === 0 ? 'map' : 'flatMap'}((f) => ${body})`;
  return lines("import { SHELL } from '../kinds.js';", 'declare const flows: { run: any }[];', `export const mapped = () => ${body};`);
};

describe('an object returned out of nested `.map` callbacks of an exported function', () => {
  const files = (depth: number) => ({
    'src/agent.ts': agentFile(["import { mapped } from './tools/make.js';"], 'mapped()'),
    'src/tools/make.ts': nestedMaps(depth),
  });
  it('three maps deep keeps its finding (the control)', () => {
    expect(lint(files(3), 'src/tools/make.ts', 'unprotected-door').map((f) => f.slice(0, 2))).toEqual(['3:']);
  });
  it('four and eight maps deep are read as well (the hops follow the tree up, which ends)', () => {
    expect.soft(lint(files(4), 'src/tools/make.ts', 'unprotected-door').map((f) => f.slice(0, 2))).toEqual(['3:']);
    expect.soft(lint(files(8), 'src/tools/make.ts', 'unprotected-door').map((f) => f.slice(0, 2))).toEqual(['3:']);
  });
  it('silent: the same maps in a function no agent calls', () => {
    const unused = { ...files(8), 'src/agent.ts': agentFile([], '[]') };
    expect(lint(unused, 'src/tools/make.ts', 'unprotected-door')).toEqual([]);
  });
});

/** `src/alias.ts` exporting `gh` through `n` `const` steps from the door, and `src/ops.ts` (no SDK) writing its body. */
const aliasSteps = (n: number) => ({
  'src/doors.ts': DOORS,
  'src/alias.ts': lines(
    "import { shellTool } from './doors.js';",
    'const a1 = shellTool;',
    ...Array.from({ length: n - 1 }, (_, i) => `const a${i + 2} = a${i + 1};`),
    `export const gh = a${n};`,
  ),
  'src/ops.ts': lines("import { gh } from './alias.js';", 'declare const evil: any;', 'gh.shell = evil;'),
});

const writes = (files: Record<string, string>) =>
  lintRepo(files, { project: testProject(), ruleId: 'invoke-replaced', file: 'src/ops.ts' }).map((f) => ({
    line: f.line,
    unresolved: f.message.includes('cannot tell'),
  }));

describe('a door exported again through `const` steps, its body written in a file naming no SDK', () => {
  it("four steps: the door's write (the control)", () => {
    expect(writes(aliasSteps(4))).toEqual([{ line: 3, unresolved: false }]);
  });
  it("five and twelve steps: the door's write (the steps count against the 32 parts read)", () => {
    expect.soft(writes(aliasSteps(5))).toEqual([{ line: 3, unresolved: false }]);
    expect.soft(writes(aliasSteps(12))).toEqual([{ line: 3, unresolved: false }]);
  });
  it('silent: a cycle of declarations holding no import (no value to follow)', () => {
    // a default door elsewhere has every file naming a door word read, so the writer is
    const files: Record<string, string> = { ...aliasSteps(2), 'src/main.ts': lines("import { shellTool } from './doors.js';", 'export default shellTool;') };
    files['src/alias.ts'] = lines(
      "import { shellTool } from './doors.js';",
      'var a1: any = a2;',
      'var a2: any = a1;',
      'console.log(shellTool);',
      'export const gh = a1;',
    );
    expect(writes(files)).toEqual([]);
  });
  it('past 32 parts: a write check cannot tell (fail closed)', () => {
    expect(writes(aliasSteps(40))).toEqual([{ line: 3, unresolved: true }]);
  });
});

/** `src/r1.ts` … `src/rN.ts` each renaming the last (`export { rK as rK+1 } from`), `src/ops.ts` writing `rN`'s body. */
const renames = (n: number) => {
  const files: Record<string, string> = {
    'src/doors.ts': DOORS,
    'src/r1.ts': "export { shellTool as r1 } from './doors.js';\n",
    'src/ops.ts': lines(`import { r${n} } from './r${n}.js';`, 'declare const evil: any;', `r${n}.shell = evil;`),
  };
  for (let k = 2; k <= n; k++) files[`src/r${k}.ts`] = `export { r${k - 1} as r${k} } from './r${k - 1}.js';\n`;
  return files;
};

describe('a door renamed across modules, its body written in a file naming no SDK (4 rounds of names)', () => {
  it("four and five renames: the door's write (past the rounds every file naming a door word is read)", () => {
    expect.soft(writes(renames(4))).toEqual([{ line: 3, unresolved: false }]);
    expect.soft(writes(renames(5))).toEqual([{ line: 3, unresolved: false }]);
  });
});

/** An agent made `depth` blocks deep in a function whose name hides a top-level string, turned into a tool by a call of the function. */
const deepAgent = (depth: number): Record<string, string> => ({
  'src/deep.ts': lines(
    "import { Agent } from '@openai/agents';",
    "const helper = 'not an agent';",
    `function specialist() { ${'{ '.repeat(depth)}const helper = new Agent({ name: 'h', instructions: 'Help.' }); return helper; ${'} '.repeat(depth)}}`,
    "export const asked = specialist().asTool({ toolName: 'ask', toolDescription: 'Ask.' });",
    'console.log(helper);',
  ),
});

describe('the scope of a value read far down the tree (agent-values.ts `ancestorsTo`, 500 levels before)', () => {
  const found = (depth: number) =>
    lintRepo(deepAgent(depth), { project: testProject(), ruleId: 'unprotected-agent-tool', file: 'src/deep.ts' }).map((f) => f.line);
  it('an agent 100 blocks down is read in its own scope (the control)', () => {
    expect(found(100)).toEqual([4]);
  });
  it('an agent 600 blocks down too (the parser bounds a tree at 1,000 levels)', () => {
    expect(found(600)).toEqual([4]);
  });
});

describe('an alias whose condition or value runs past the 500 characters the writer search read ahead', () => {
  const long = Array.from({ length: 30 }, (_, i) => `process.env.FLAG === 'f${i}'`).join(' || ');
  const files = (cond: string) => ({
    'src/doors.ts': DOORS,
    'src/alias.ts': lines("import { shellTool } from './doors.js';", 'const settings = { retries: 3 };', `export const gh = ${cond} ? shellTool : settings;`),
    'src/ops.ts': lines("import { gh } from './alias.js';", 'declare const evil: any;', 'gh.shell = evil;'),
  });
  it('a short condition: a write check cannot tell (the control)', () => {
    expect(writes(files("process.env.FLAG === 'a'"))).toEqual([{ line: 3, unresolved: true }]);
  });
  it(`a condition of ${long.length} characters: the same`, () => {
    expect(writes(files(long))).toEqual([{ line: 3, unresolved: true }]);
  });
  it(`the default export: a condition of ${long.length} characters`, () => {
    const f = files('');
    f['src/alias.ts'] = lines("import { shellTool } from './doors.js';", 'const settings = { retries: 3 };', `export default ${long} ? shellTool : settings;`);
    f['src/ops.ts'] = lines("import main from './alias.js';", 'declare const evil: any;', 'main.shell = evil;');
    expect(writes(f)).toEqual([{ line: 3, unresolved: true }]);
  });
  it('a value of names over 500 characters (`a || b || … || shellTool`): the same', () => {
    const names = Array.from({ length: 12 }, (_, i) => `settings${'_'.repeat(40)}${i}`);
    const f = files('');
    f['src/alias.ts'] = lines(
      "import { shellTool } from './doors.js';",
      ...names.map((n) => `const ${n} = { retries: 3 };`),
      `export const gh = ${names.join(' || ')} || shellTool;`,
    );
    expect(writes(f)).toEqual([{ line: 3, unresolved: true }]);
  });
});
