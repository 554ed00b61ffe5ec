import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ts } from 'ts-morph';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';

/**
 * Plain JavaScript projects: `init` picks JavaScript files in the project's module system,
 * `generate` writes the JavaScript module and its declaration file, the codemod's import names a
 * file that exists, and `check` / `generate --check` see either file go stale. `init` also marks
 * the generated files for GitHub in `.gitattributes`.
 */
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

const TOOL_ESM = `import { Agent, tool } from '@openai/agents';
import { z } from 'zod';

export const refund = tool({
  name: 'refund',
  description: 'Refund a payment.',
  parameters: z.object({ payment_id: z.string(), amount: z.number().int() }),
  execute: async ({ payment_id }) => \`refunded \${payment_id}\`,
});

export const agent = new Agent({ name: 'desk', instructions: 'Refunds.', tools: [refund] });
`;

const TOOL_CJS = `const { Agent, tool } = require('@openai/agents');
const { z } = require('zod');

const refund = tool({
  name: 'refund',
  description: 'Refund a payment.',
  parameters: z.object({ payment_id: z.string(), amount: z.number().int() }),
  execute: async ({ payment_id }) => \`refunded \${payment_id}\`,
});

module.exports = { agent: new Agent({ name: 'desk', instructions: 'Refunds.', tools: [refund] }) };
`;

function repo(files: Record<string, string>): string {
  const dir = makeTempDir('init-js-');
  dirs.push(dir);
  writeFiles(dir, files);
  return dir;
}

const read = (dir: string, file: string): string => readFileSync(path.join(dir, file), 'utf8');

/** Syntax errors of a file parsed as JavaScript (a `.ts` construct in it is one). */
function jsSyntaxErrors(text: string): string[] {
  const r = ts.transpileModule(text, { fileName: 'x.js', reportDiagnostics: true, compilerOptions: { allowJs: true } });
  return (r.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '));
}

describe('init, generate and check in a plain JavaScript project', () => {
  it('ESM without src/: .js files beside package.json, the codemod imports the module that exists', async () => {
    const dir = repo({ 'package.json': '{ "name": "a", "type": "module" }', 'agent.js': TOOL_ESM });
    const init = await cli(['init'], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('wrote ctrlrun.control.js');
    expect(read(dir, 'ctrlrun.tools.yaml')).toMatch(/^output: ctrlrun\.generated\.js\ncontrol: ctrlrun\.control\.js$/m);
    const control = read(dir, 'ctrlrun.control.js');
    expect(control).toContain("import { createControl } from 'ctrlrun-gen/runtime';\nimport { sqliteStore } from 'ctrlrun-gen/runtime/sqlite';");
    expect(control).toContain('export default createControl({');
    expect(jsSyntaxErrors(control)).toEqual([]);
    expect(read(dir, '.gitattributes')).toContain('ctrlrun.generated.js linguist-generated=true\nctrlrun.generated.d.ts linguist-generated=true\n');

    const generate = await cli(['generate'], { cwd: dir });
    expect(generate.code, generate.stderr).toBe(0);
    expect(generate.stdout).toBe('wrote ctrlrun.generated.js\nwrote ctrlrun.generated.d.ts\n');
    expect(jsSyntaxErrors(read(dir, 'ctrlrun.generated.js'))).toEqual([]);

    const codemod = await cli(['codemod', '--write', '--allow-dirty'], { cwd: dir });
    expect(codemod.code, codemod.stdout + codemod.stderr).toBe(0);
    expect(read(dir, 'agent.js')).toContain("import { protectedTool } from './ctrlrun.generated.js';");
    const check = await cli(['check', '--format', 'json'], { cwd: dir });
    expect(check.code, check.stdout).toBe(0);
  });

  it('CommonJS with src/: require() everywhere, module.exports, and a .d.ts', async () => {
    const dir = repo({ 'package.json': '{ "name": "b" }', 'src/agent.js': TOOL_CJS });
    expect((await cli(['init'], { cwd: dir })).code).toBe(0);
    const control = read(dir, 'src/ctrlrun.control.js');
    expect(control).toContain("const { createControl } = require('ctrlrun-gen/runtime');\nconst { sqliteStore } = require('ctrlrun-gen/runtime/sqlite');");
    expect(control).toContain('module.exports = createControl({');
    expect(control).not.toMatch(/^(import|export) /m);
    expect(jsSyntaxErrors(control)).toEqual([]);
    expect((await cli(['generate'], { cwd: dir })).code).toBe(0);
    const module = read(dir, 'src/ctrlrun.generated.js');
    expect(module).toContain(
      "const { bindAgentTools, bindHandoffs, bindHostedMcp, bindLocalTools, bindMcp, bindProtectedTool, bindSandbox } = require('ctrlrun-gen/runtime');",
    );
    expect(
      module
        .trimEnd()
        .endsWith(
          'module.exports = { policy, protectedTool, protectMcpServer, protectMcpTools, protectMcpFunctionTool, protectHostedMcp, protectShellTool, protectApplyPatchTool, protectComputerTool, protectAgentTool, protectAgent, protectSandboxAgent, protectHandoff };',
        ),
    ).toBe(true);
    expect(module).not.toMatch(/^(import|export) /m);
    expect(read(dir, 'src/ctrlrun.generated.d.ts')).toContain('export declare const protectedTool: ProtectedToolType;');
    const codemod = await cli(['codemod', '--write', '--allow-dirty'], { cwd: dir });
    expect(codemod.code, codemod.stdout).toBe(0);
    expect(read(dir, 'src/agent.js')).toContain("const { protectedTool } = require('./ctrlrun.generated.js');");
  });

  it('a project with TypeScript keeps the .ts defaults', async () => {
    const dir = repo({ 'package.json': '{ "name": "c", "type": "module", "devDependencies": { "typescript": "6.0.3" } }', 'src/agent.ts': TOOL_ESM });
    expect((await cli(['init'], { cwd: dir })).code).toBe(0);
    expect(read(dir, 'ctrlrun.tools.yaml')).toMatch(/^output: src\/ctrlrun\.generated\.ts\ncontrol: src\/ctrlrun\.control\.ts$/m);
    expect(read(dir, '.gitattributes')).toBe(
      '# Written by ctrlrun-gen init: generated files (collapsed in diffs).\nsrc/ctrlrun.generated.ts linguist-generated=true\n',
    );
  });

  it('typescript only to check JavaScript (no tsconfig, tools in .cjs/.mjs files): JavaScript output the rewritten files can load', async () => {
    // the layout of the SDK's own node-zod3 integration project: `typescript` for // @ts-check only
    const dir = repo({
      'package.json': '{ "name": "j", "type": "commonjs", "dependencies": { "typescript": "^5.9.3" } }',
      'index.cjs': TOOL_CJS,
      'index.mjs': TOOL_ESM.replace("name: 'refund'", "name: 'refund_esm'"),
    });
    expect((await cli(['init'], { cwd: dir })).code).toBe(0);
    expect(read(dir, 'ctrlrun.tools.yaml')).toMatch(/^output: ctrlrun\.generated\.js\ncontrol: ctrlrun\.control\.js$/m);
    expect((await cli(['generate'], { cwd: dir })).code).toBe(0);
    expect(read(dir, 'ctrlrun.generated.js')).toContain('require(');
    const codemod = await cli(['codemod', '--write', '--allow-dirty'], { cwd: dir });
    expect(codemod.code, codemod.stdout).toBe(0);
    expect(read(dir, 'index.cjs')).toContain("require('./ctrlrun.generated.js')");
    expect(read(dir, 'index.mjs')).toContain("from './ctrlrun.generated.js'");
  });

  it('.gitattributes: appended to (never rewritten), and a path already named is not added twice', async () => {
    const dir = repo({
      'package.json': '{ "name": "d", "type": "module" }',
      'agent.js': TOOL_ESM,
      '.gitattributes': '* text=auto\nctrlrun.generated.js linguist-generated',
    });
    expect((await cli(['init'], { cwd: dir })).code).toBe(0);
    expect(read(dir, '.gitattributes')).toBe('* text=auto\nctrlrun.generated.js linguist-generated\nctrlrun.generated.d.ts linguist-generated=true\n');
    const again = await cli(['init', '--force'], { cwd: dir });
    expect(again.stdout).not.toContain('.gitattributes');
    expect(read(dir, '.gitattributes')).toBe('* text=auto\nctrlrun.generated.js linguist-generated\nctrlrun.generated.d.ts linguist-generated=true\n');
  });

  it('stale-generated and generate --check see the declaration file go stale too', async () => {
    const dir = repo({ 'package.json': '{ "name": "e", "type": "module" }', 'agent.js': TOOL_ESM });
    expect((await cli(['init'], { cwd: dir })).code).toBe(0);
    expect((await cli(['generate'], { cwd: dir })).code).toBe(0);
    expect((await cli(['generate', '--check'], { cwd: dir })).code).toBe(0);
    writeFileSync(path.join(dir, 'ctrlrun.generated.d.ts'), read(dir, 'ctrlrun.generated.d.ts').replace("'refund'", "'refund' | 'other'"));
    const gen = await cli(['generate', '--check'], { cwd: dir });
    expect(gen.code).toBe(1);
    expect(gen.stdout).toContain('ctrlrun.generated.js is up to date\nctrlrun.generated.d.ts is stale');
    const check = await cli(['check', '--format', 'json'], { cwd: dir });
    const report = JSON.parse(check.stdout) as { findings: Array<{ ruleId: string; file: string }> };
    expect(report.findings.filter((f) => f.ruleId === 'stale-generated').map((f) => f.file)).toEqual(['ctrlrun.generated.d.ts']);
    expect(check.code).toBe(1);
  });
});
