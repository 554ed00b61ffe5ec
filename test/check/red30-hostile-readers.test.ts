import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatedImportUnresolvedRule } from '../../src/check/rules/generated-import-unresolved.js';
import { scanSource } from '../../src/scan/index.js';
import { createModuleSettingsLookup } from '../../src/scan/specifier.js';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Issue 40, item 1, against session 29's readers that follow values (file/door-holders.ts,
 * door-exports.ts, imported-door-writes.ts, unlisted-imports.ts, the Deno config): trees built to
 * make them recurse, loop or do quadratic work. Each must end, fast, with located findings.
 */

/** A file holding a protected shell tool `shellTool` and a shell `other` to swap in. */
const HEAD = lines(
  "import type { Shell } from '@openai/agents';",
  "import { protectShellTool } from './ctrlrun.generated.js';",
  'declare const shell: Shell;',
  'declare const other: Shell;',
  "const shellTool = protectShellTool('host.shell', { shell });",
);
const HEAD_LINES = 5;

const findings = (files: Record<string, string>, file = 'src/m.ts') =>
  lintRepo(files, { project: testProject(), file })
    .filter((f) => f.ruleId !== 'tracing-sensitive-data')
    .map((f) => `${f.line}:${f.column} ${f.ruleId}: ${f.message}`);

describe('a tree deeper than the readers walk (a chain the parser reads in a loop)', () => {
  // name, the code of `n` links, the line (after HEAD) of the deep node
  const chains: Array<[string, (n: number) => string, number]> = [
    ["a string of 3,000 `'x' +`", (n) => `const s = ${"'x' + ".repeat(n)}'y';`, 1],
    ['a member chain `o.a.a…` 3,000 long, written', (n) => `const o: any = shellTool;\no${'.a'.repeat(n)}.shell = other;`, 2],
    ['3,000 `.then(f)` calls', (n) => `const p: any = shellTool${'.then((x: any) => x)'.repeat(n)};`, 1],
    ['a comma list of 3,000', (n) => `const q = (${'shellTool, '.repeat(n)}shellTool);`, 1],
  ];
  for (const [name, body, line] of chains) {
    it(`${name}: not parsed, one located finding, no internal error`, () => {
      const found = findings({ 'src/m.ts': `${HEAD}${body(3000)}\n` });
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(
        new RegExp(`^${HEAD_LINES + line}:\\d+ parse-error: .*nests too deeply to read \\(an expression over 1000 levels deep here\\); it is not scanned`),
      );
    });
  }

  it('the same chains 300 long are read as before, and a door written after one is reported', () => {
    for (const [, body] of chains) {
      expect(findings({ 'src/m.ts': `${HEAD}${body(300)}\n` }).filter((f) => f.includes('parse-error'))).toEqual([]);
    }
    const after = `${HEAD}${chains[0]![1](300)}\nshellTool.shell = other;\n`;
    expect(findings({ 'src/m.ts': after }).map((f) => f.split(' ').slice(0, 2).join(' '))).toEqual([`${HEAD_LINES + 2}:1 invoke-replaced:`]);
  });
});

describe('a chain the parser itself overflows on, with few brackets', () => {
  it('`a = b = …` 20,000 long: located at the file, no bracket count', () => {
    const found = findings({ 'src/m.ts': `${HEAD}let a: any, b: any;\n${'a = b = '.repeat(20_000)}shellTool;\n` });
    expect(found).toEqual([
      '1:1 parse-error: This file does not parse (the file nests too deeply to parse (an expression or statement the parser reads one inside another, as `a = b = …` thousands long); it is not scanned), so it was not checked.',
    ]);
  });
});

describe('a parameter followed through many calls', () => {
  it('a door passed 10,000 times in a file of 10,000 statements: reported at the write, in seconds', () => {
    const calls = Array.from({ length: 10_000 }, (_, i) => `const v${i} = f(${i % 2 ? 'shellTool' : String(i)});`).join('\n');
    const t0 = Date.now();
    const found = findings({ 'src/m.ts': `${HEAD}function f(t: any) { t.shell = other; return f(t); }\n${calls}\n` });
    // before: every call's name resolved against every top-level statement (10^8 steps, tens of seconds)
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(found.map((f) => f.split(' ').slice(0, 2).join(' '))).toEqual([`${HEAD_LINES + 1}:22 invoke-replaced:`]);
  });
});

describe('many names of the file read', () => {
  it('5,000 objects each written `shell`: silent (none is a door), in seconds', () => {
    const writes = Array.from({ length: 5_000 }, (_, i) => `const o${i}: any = {};\no${i}.shell = other;`).join('\n');
    const t0 = Date.now();
    const found = findings({ 'src/m.ts': `${HEAD}${writes}\nshellTool.shell = other;\n` });
    // before: each write's name looked up through every top-level statement (5,000 x 10,000)
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(found.map((f) => f.split(' ').slice(0, 2).join(' '))).toEqual([`${HEAD_LINES + 10_001}:1 invoke-replaced:`]);
  });
});

describe('loops the readers must not follow forever', () => {
  const DOORS = lines(
    "import { MCPServerStdio } from '@openai/agents';",
    "import { protectMcpServer } from './ctrlrun.generated.js';",
    "export const github = protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' }));",
  );

  it('`export *` loops, a module re-exporting itself, a renaming loop: the door through the loop found, the rest silent', () => {
    const files = {
      'src/doors.ts': DOORS,
      'src/a.ts': "export * from './b.js';\nexport * from './doors.js';\n",
      'src/b.ts': "export * from './a.js';\nexport * from './b.js';\n",
      'src/self.ts': "export * from './self.js';\nexport { github as gh } from './self.js';\n",
      'src/ren.ts': "export { github as g1 } from './ren2.js';\nexport { g1 as github } from './ren.js';\n",
      'src/ren2.ts': "export { github } from './ren.js';\n",
      'src/m.ts': lines(
        "import { github } from './b.js';",
        "import { gh } from './self.js';",
        "import { g1 } from './ren.js';",
        'github.toolInputGuardrails = [];',
        'gh.toolInputGuardrails = [];',
        'g1.toolInputGuardrails = [];',
      ),
    };
    expect(findings(files).map((f) => f.split(' ').slice(0, 2).join(' '))).toEqual(['4:1 mcp-server-unguarded:']);
  });

  it('holders given themselves and functions passing a door to themselves end; the door through `m(t.p)` is found', () => {
    const body = lines(
      'const o: any = { p: o.p, q: shellTool };',
      'o.p.shell = other;',
      'class C { a: any = this.a; constructor() { this.a = this.a; this.b = this.c; this.c = this.b; } b: any; c: any; m() { this.b.shell = other; } }',
      'function f(t: any) { f(t); f(f); t.q.shell = other; }',
      'f(o);',
      'function g(t: any): any { return h(t); }',
      'function h(t: any): any { return g(t); }',
      'g(shellTool);',
      'function m(t: any) { m(t.p); t.shell = other; }',
      'm({ p: shellTool });',
    );
    const found = findings({ 'src/m.ts': `${HEAD}${body}` });
    // `o.p` (its own initializer) and `this.b` (a loop of fields) lead to no value, and `f` is passed
    // as a value (`f(f)`), so its calls are not all seen: objects check cannot follow, reported as
    // such (fail closed); `m`'s parameter is the door itself
    expect(found.map((f) => f.split(' ').slice(0, 2).join(' '))).toEqual([
      `${HEAD_LINES + 2}:1 invoke-replaced:`,
      `${HEAD_LINES + 3}:119 invoke-replaced:`,
      `${HEAD_LINES + 4}:34 invoke-replaced:`,
      `${HEAD_LINES + 9}:30 invoke-replaced:`,
    ]);
    expect(found.filter((f) => f.includes('check cannot tell which object'))).toHaveLength(3);
  });
});

describe('a folder named deno.json', () => {
  it('is no Deno config: the tsconfig above decides, and a `.js` import of the module is not reported', () => {
    const root = path.join(os.tmpdir(), `ctrlrun-red30-deno-${process.pid}`);
    rmSync(root, { recursive: true, force: true });
    try {
      mkdirSync(path.join(root, 'fn/deno.json'), { recursive: true });
      mkdirSync(path.join(root, 'src'), { recursive: true });
      mkdirSync(path.join(root, 'other'), { recursive: true });
      writeFileSync(path.join(root, 'other/deno.json'), '{ "imports": ');
      writeFileSync(path.join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }));
      writeFileSync(path.join(root, 'src/ctrlrun.generated.ts'), 'export {};\n');
      const lookup = createModuleSettingsLookup(root);
      expect(lookup(path.join(root, 'fn')).deno).toBeUndefined();
      // an invalid deno.json is still Deno's (the app does not start on Node's terms either): fail closed
      expect(lookup(path.join(root, 'other')).deno).toBe(path.join(root, 'other/deno.json'));
      const p = testProject();
      const project = { ...p, manifest: { ...p.manifest, root, output: path.join(root, 'src/ctrlrun.generated.ts') } };
      const rule = generatedImportUnresolvedRule();
      const code = "import { protectedTool } from '../src/ctrlrun.generated.js';\n";
      const scan = (dir: string) => scanSource(path.join(root, dir, 'a.ts'), code, { root, generatedModule: project.manifest.output });
      expect(rule(scan('fn'), project)).toEqual([]);
      expect(rule(scan('other'), project).map((f) => f.message)).toEqual([expect.stringContaining('below other/deno.json: Deno loads')]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
