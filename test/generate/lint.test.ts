import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedFiles, renderGeneratedModule } from '../../src/generate/index.js';
import { loadProject } from '../../src/manifest/load.js';
import { FIXTURES, REPO_ROOT } from '../helpers/paths.js';
import { copyFixture, makeTempDir, removeDir } from '../helpers/temp-repo.js';

/**
 * The generated module is lint-clean where users lint it: zero findings (errors, warnings and
 * infos) under typescript-eslint's `strict-type-checked` config (type-aware, with the repo's own
 * tsconfig) and Biome's recommended rules. A finding there fails `next lint` / `next build` and
 * every `--max-warnings 0` CI, so the module must not need an `eslint-disable` or an ignore entry.
 * Linted: the module of each golden case of fixtures/generate that type-checks as ESM, and the
 * refund-desk sample's; with Biome also a plain JavaScript project's module and declaration file
 * (ESM and CommonJS). Needs `npm run build` (the scratch repos import `ctrlrun-gen/runtime`'s types).
 */
const CASES = ['refund-desk', 'generate/operators', 'generate/after-codemod', 'generate/repeated-argument'];

/** Plain JavaScript projects: the JavaScript module and its declaration file (Biome lints both). */
const JS_CASES = ['generate/plain-js-esm', 'generate/plain-js-cjs'];

const dirs: string[] = [];
const modules = new Map<string, string>();
const jsFiles: string[] = [];

beforeAll(() => {
  for (const fixture of CASES) {
    const dir = copyFixture(path.join(FIXTURES, fixture), `lint-${path.basename(fixture)}-`);
    dirs.push(dir);
    const generated = renderGeneratedModule(loadProject({ cwd: dir }));
    mkdirSync(path.dirname(generated.path), { recursive: true });
    writeFileSync(generated.path, generated.text);
    modules.set(fixture, generated.path);
  }
  for (const fixture of JS_CASES) {
    const dir = copyFixture(path.join(FIXTURES, fixture), `lint-${path.basename(fixture)}-`);
    dirs.push(dir);
    const generated = renderGeneratedModule(loadProject({ cwd: dir }));
    for (const file of generatedFiles(generated)) {
      mkdirSync(path.dirname(file.path), { recursive: true });
      writeFileSync(file.path, file.text);
      jsFiles.push(file.path);
    }
  }
  expect(jsFiles.map((f) => path.basename(f)).sort()).toEqual([
    'ctrlrun.generated.cjs',
    'ctrlrun.generated.d.cts',
    'ctrlrun.generated.d.ts',
    'ctrlrun.generated.js',
  ]);
});
afterAll(() => dirs.forEach(removeDir));

function findingsText(findings: Array<{ file: string; line: number; rule: string; message: string }>): string[] {
  return findings.map((f) => `${f.file}:${f.line}: ${f.rule}: ${f.message}`);
}

describe('the generated module is lint-clean', () => {
  it("typescript-eslint's strict-type-checked config: no finding", async () => {
    const eslint = new ESLint({
      cwd: REPO_ROOT,
      overrideConfigFile: true,
      overrideConfig: [
        ...tseslint.configs.strictTypeChecked,
        // Each scratch repo's own tsconfig.json gives the types (projectService finds the nearest one).
        { languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: REPO_ROOT } } },
      ],
    });
    // A probe beside refund-desk's module: the config really is the type-aware strict one.
    const probe = path.join(path.dirname(modules.get('refund-desk') as string), 'lint-probe.ts');
    writeFileSync(probe, 'export function f(x: unknown, _unused: number): void {\n  if (x === 1 && x === 1) console.log(x);\n}\n');
    const results = await eslint.lintFiles([...modules.values(), probe]);
    const findings = results.flatMap((r) => r.messages.map((m) => ({ file: r.filePath, line: m.line, rule: m.ruleId ?? 'parse', message: m.message })));
    expect(findings.filter((f) => f.file === probe).map((f) => f.rule)).toEqual(
      expect.arrayContaining(['@typescript-eslint/no-unnecessary-condition', '@typescript-eslint/no-unused-vars']),
    );
    expect(results.map((r) => r.filePath).sort()).toEqual([...modules.values(), probe].sort());
    expect(findingsText(findings.filter((f) => f.file !== probe))).toEqual([]);
  }, 300_000);

  it("Biome's recommended rules: no finding, infos included", () => {
    // Biome's defaults (its recommended rules), as a user without a configuration gets: an empty
    // configuration of its own, not the one this repo formats and lints its own source with.
    const defaults = makeTempDir('lint-biome-config-');
    dirs.push(defaults);
    writeFileSync(path.join(defaults, 'biome.json'), '{}\n');
    const biome = (files: string[]) => {
      const args = ['lint', `--config-path=${defaults}`, '--diagnostic-level=info', '--max-diagnostics=none', '--reporter=json', ...files];
      const r = spawnSync(process.execPath, [path.join(REPO_ROOT, 'node_modules/@biomejs/biome/bin/biome'), ...args], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
      });
      const report = JSON.parse(r.stdout) as {
        summary: { unchanged: number };
        diagnostics: Array<{ category: string; message: string; location: { path: string; start: { line: number } } }>;
      };
      return { status: r.status, stderr: r.stderr, report };
    };
    const files = [...modules.values(), ...jsFiles];
    const r = biome(files);
    expect(r.report.diagnostics.map((d) => `${d.location.path}:${d.location.start.line}: ${d.category}: ${d.message}`)).toEqual([]);
    expect(r.report.summary.unchanged).toBe(files.length);
    expect(r.status, r.stderr).toBe(0);
    // The same run reports what its recommended rules catch (the two the module used to trip).
    const base = makeTempDir('lint-biome-');
    dirs.push(base);
    const probe = path.join(base, 'probe.ts');
    writeFileSync(
      probe,
      "export const s = (a: string): string => 'x' + a;\nexport const o = (v: object): boolean => Object.prototype.hasOwnProperty.call(v, 'k');\n",
    );
    expect(biome([probe]).report.diagnostics.map((d) => d.category)).toEqual(['lint/style/useTemplate', 'lint/suspicious/noPrototypeBuiltins']);
  });
});
