import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { lintFiles } from '../../src/check/engine.js';
import { UserError } from '../../src/diagnostics.js';
import { loadProject } from '../../src/manifest/load.js';
import { scanSource } from '../../src/scan/index.js';
import { testProject } from '../check/rule-tester.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';

// Issue 14.10: the scanner, the lint and the file loaders on hostile input: never a crash, a stack
// overflow or a hang, and every finding or refusal located inside the text. Each property runs
// within a fixed time budget (fast-check stops early, never fails for time).

const BUDGET_MS = 3000;
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const TS_TOKENS = [
  "import { tool, Agent, Runner, run } from '@openai/agents';\n",
  "import { protectedTool } from './ctrlrun.generated.js';\n",
  "const { tool: t } = require('@openai/agents');\n",
  'tool(',
  't(',
  'protectedTool(',
  "'stripe.refund', ",
  '{ ',
  ' }',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  'name: ',
  "'refund'",
  "'close_account'",
  '"lookup_charge"',
  '`x${',
  '}`',
  'errorFunction: null, ',
  'needsApproval: true, ',
  'execute: async () => 1, ',
  'parameters: z.object({}), ',
  'alwaysApprove: true',
  'state.approve(item, ',
  'opts',
  ');\n',
  'const opts = ',
  'new Runner(',
  'tracingDisabled: true',
  '// ctrlrun-ignore unprotected-tool -- ok\n',
  '// ctrlrun-ignore\n',
  '/* ',
  ' */',
  '//',
  "'",
  '"',
  '`',
  '\\',
  'export ',
  'const ',
  'let ',
  'x = ',
  ', ',
  '; ',
  '\n',
  '\r\n',
  '  ',
  '=>',
  '...',
  '?.',
  '!',
  'as any',
  '<T>',
  '</div>',
  '<div>',
  '\u2028',
  '\uFEFF',
  '\u0000',
  'é',
  '😀',
  '['.repeat(300),
  ']'.repeat(300),
  '('.repeat(300),
  '{a:'.repeat(200),
  '['.repeat(3000),
  '('.repeat(3000),
];
const tsish = fc.array(fc.constantFrom(...TS_TOKENS), { maxLength: 80 }).map((t) => t.join(''));

function located(f: { line: number; column: number }, text: string): void {
  const lines = text.split(/\r\n|\r|\n|\u2028|\u2029/);
  expect(f.line).toBeGreaterThanOrEqual(1);
  expect(f.line).toBeLessThanOrEqual(lines.length + 1);
  expect(f.column).toBeGreaterThanOrEqual(1);
}

describe('the scanner and the lint never crash (property, fixed time budget)', () => {
  it('scanSource and lintFiles on TypeScript-ish token soup: no throw, every finding located', () => {
    const project = testProject();
    fc.assert(
      fc.property(tsish, fc.constantFrom('src/a.ts', 'src/a.tsx', 'src/a.js', 'src/a.cjs'), (text, file) => {
        const scan = scanSource(file, text);
        if (scan.parseError) located(scan.parseError, text);
        const findings = lintFiles([scan], project, () => text);
        for (const f of findings) {
          expect(f.file).toBe(file);
          located(f, text);
          expect(f.message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 400, interruptAfterTimeLimit: BUDGET_MS },
    );
  });
});

const YAML_TOKENS = [
  'schema: ctrlrun.tools/v1\n',
  'schema: ctrlrun.policy/v8\n',
  'policy: ',
  'output: ',
  'control: ',
  'tools:\n',
  '  - tool: refund\n',
  '    action: stripe.refund\n',
  'actions:\n',
  '  stripe.refund:\n',
  '    decision: allow\n',
  'ctrlrun.yaml',
  '/proc/self/environ',
  '/dev/zero',
  '../outside.yaml',
  'src/x.ts',
  '"a\\nb.ts"',
  '\n',
  '  ',
  '- ',
  ': ',
  '{',
  '}',
  '[',
  ']',
  '&a ',
  '*a',
  '!!binary ',
  '"',
  "'",
  '# c',
  '---',
  '\t',
  '\u0000',
  '\uFEFF',
  'SECRET=1\n',
];
const yamlish = fc.array(fc.constantFrom(...YAML_TOKENS), { maxLength: 40 }).map((t) => t.join(''));

describe('the file loaders never crash (property, fixed time budget)', () => {
  it('loadProject on random manifest and policy files: a project, or a UserError whose every diagnostic is located', () => {
    const dir = makeTempDir('fuzz-load-');
    dirs.push(dir);
    mkdirSync(path.join(dir, '.git'));
    fc.assert(
      fc.property(yamlish, yamlish, (manifest, policy) => {
        writeFileSync(path.join(dir, 'ctrlrun.tools.yaml'), manifest);
        writeFileSync(path.join(dir, 'ctrlrun.yaml'), policy);
        try {
          loadProject({ cwd: dir });
        } catch (error) {
          expect(error).toBeInstanceOf(UserError);
          for (const d of (error as UserError).diagnostics) {
            expect(d.code, d.message).not.toBe('internal');
            expect([path.join(dir, 'ctrlrun.tools.yaml'), path.join(dir, 'ctrlrun.yaml')]).toContain(path.resolve(dir, d.file));
            const text = path.resolve(dir, d.file).endsWith('tools.yaml') ? manifest : policy;
            located(d, text);
          }
        }
      }),
      { numRuns: 300, interruptAfterTimeLimit: BUDGET_MS },
    );
  });
});
