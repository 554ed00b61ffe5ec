import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostics } from '../../src/format-diagnostics.js';
import { UserError } from '../../src/diagnostics.js';
import { renderGeneratedModule } from '../../src/generate/index.js';
import { loadProject } from '../../src/manifest/load.js';
import { FIXTURES } from '../helpers/paths.js';

/**
 * Golden files: fixtures/generate/<case>/ holds the inputs and what generate must produce, byte for
 * byte: `expected.generated.ts` (the module; `.js`/`.cjs` and its `.d.ts`/`.d.cts` for a JavaScript output), `expected.diagnostics.txt` (warnings, or the errors
 * when generation is refused). `UPDATE_GOLDEN=1 npx vitest run test/generate/golden.test.ts` rewrites them.
 */
const CASES_DIR = path.join(FIXTURES, 'generate');
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const cases = readdirSync(CASES_DIR, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

function outcome(dir: string): { module?: string; typings?: string; diagnostics: string } {
  try {
    const project = loadProject({ cwd: dir });
    const generated = renderGeneratedModule(project);
    return {
      module: generated.text,
      ...(generated.typings ? { typings: generated.typings.text } : {}),
      diagnostics: generated.diagnostics.length ? formatDiagnostics(generated.diagnostics, { cwd: dir, color: false }) : '',
    };
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    return { diagnostics: `${formatDiagnostics(error.diagnostics, { cwd: dir, color: false })}\n${error.message}\n` };
  }
}

function golden(file: string, actual: string | undefined): void {
  if (UPDATE) {
    if (actual === undefined || actual === '') rmSync(file, { force: true });
    else writeFileSync(file, actual);
    return;
  }
  const expected = existsSync(file) ? readFileSync(file, 'utf8') : '';
  expect(actual ?? '', `${path.relative(CASES_DIR, file)} (UPDATE_GOLDEN=1 rewrites it)`).toBe(expected);
}

describe('generated module golden files', () => {
  it('has cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(3);
  });

  for (const name of cases) {
    it(name, () => {
      const dir = path.join(CASES_DIR, name);
      const first = outcome(dir);
      // Named by the output's language: `expected.generated.ts`, or `.js`/`.mjs`/`.cjs` with its declaration file.
      const ext = path.extname(readFileSync(path.join(dir, 'ctrlrun.tools.yaml'), 'utf8').match(/^output:\s*(\S+)/m)?.[1] ?? '.ts');
      golden(path.join(dir, `expected.generated${ext}`), first.module);
      golden(path.join(dir, `expected.generated${{ '.js': '.d.ts', '.mjs': '.d.mts', '.cjs': '.d.cts' }[ext] ?? '.d.ts'}`), first.typings);
      golden(path.join(dir, 'expected.diagnostics.txt'), first.diagnostics);
      // Byte-identical across runs.
      expect(outcome(dir)).toEqual(first);
    });
  }
});
