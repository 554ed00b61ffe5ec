import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { runCodemod, writeChanges, type CodemodResult } from '../../src/codemod/index.js';
import { renderGeneratedModule } from '../../src/generate/index.js';
import { loadProject } from '../../src/manifest/load.js';
import { FIXTURES, REPO_ROOT } from '../helpers/paths.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';
import { typeCheck } from '../helpers/typecheck.js';

/**
 * jscodeshift-style fixtures: `fixtures/codemod/<case>/input` (on top of `_shared`) is rewritten
 * and compared byte for byte with `expected`; a second run changes nothing; the input and the
 * output both type-check against the real SDK types with the real generated module.
 * `UPDATE_CODEMOD_FIXTURES=1` rewrites `expected/` from the output (review the diff!).
 */
const ROOT = path.join(FIXTURES, 'codemod');
const CASES = readdirSync(ROOT, { withFileTypes: true })
  .filter((d) => d.isDirectory() && !d.name.startsWith('_'))
  .map((d) => d.name)
  .sort();
const UPDATE = process.env.UPDATE_CODEMOD_FIXTURES === '1';

interface CaseSpec {
  exitCode: 0 | 1;
  summary?: Partial<CodemodResult['summary']>;
  /** Finding kinds expected at least once. */
  findings?: string[];
  /** Every door left alone, exactly: where, which door, why, and the message and hint the user reads. */
  doorsLeft?: Array<{ line: number; door: string; reason: string; message: string; hint: string }>;
  /** Files left out of the type check (a file that does not parse). */
  typecheckExclude?: string[];
  /** `own-copy`: the repo's package resolves its own copy of the SDK and ctrlrun-gen another. */
  sdk?: 'own-copy';
}

/**
 * Two copies of the SDK, as sibling packages with their own installs have them: the repo gets its
 * own `node_modules/@openai/*` and the type check keeps links as paths (`preserveSymlinks`), so the
 * repo's imports and ctrlrun-gen's (through its own `node_modules`) are two copies whose classes
 * (`RunContext`) TypeScript tells apart. TypeScript merges two copies of one version whose peers
 * resolve alike (the real layout had another zod beside each), so the repo's copy is the installed
 * files under another version number.
 */
function ownSdkCopy(dir: string): ts.CompilerOptions {
  const installed = path.join(REPO_ROOT, 'node_modules', '@openai');
  for (const name of readdirSync(installed)) {
    const copy = path.join(dir, 'node_modules', '@openai', name);
    mkdirSync(copy, { recursive: true });
    for (const entry of readdirSync(path.join(installed, name))) {
      if (entry !== 'package.json') symlinkSync(path.join(installed, name, entry), path.join(copy, entry));
    }
    const manifest = JSON.parse(readFileSync(path.join(installed, name, 'package.json'), 'utf8')) as { version: string };
    writeFileSync(path.join(copy, 'package.json'), JSON.stringify({ ...manifest, version: `${manifest.version}-own` }));
  }
  // and a declaration build: `protectedTool`'s type must be nameable from this package (TS2883)
  return { preserveSymlinks: true, declaration: true };
}

function listFiles(dir: string, base = dir): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? listFiles(path.join(dir, e.name), base) : [path.relative(base, path.join(dir, e.name))]))
    .sort();
}

async function codemod(dir: string): Promise<CodemodResult> {
  const project = loadProject({ cwd: dir });
  const result = await runCodemod({ manifest: project.manifest, policy: project.policy });
  // as the CLI writes: each file in its own encoding (UTF-16 and byte-order marks kept)
  writeChanges(result.changes);
  return result;
}

function generate(dir: string): void {
  const module = renderGeneratedModule(loadProject({ cwd: dir }));
  writeFileSync(module.path, module.text);
}

describe('codemod fixtures', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach(removeDir));

  it('has every case the issue lists', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(18);
  });

  it.each(CASES)('%s', async (name) => {
    const caseDir = path.join(ROOT, name);
    const spec = JSON.parse(readFileSync(path.join(caseDir, 'case.json'), 'utf8')) as CaseSpec;
    const dir = makeTempDir(`codemod-${name}-`);
    dirs.push(dir);
    cpSync(path.join(ROOT, '_shared'), dir, { recursive: true });
    cpSync(path.join(caseDir, 'input'), dir, { recursive: true });
    const options = spec.sdk === 'own-copy' ? ownSdkCopy(dir) : {};

    // The input is a repo that type-checks (with its generated module).
    generate(dir);
    expect(typeCheck(dir, spec.typecheckExclude, options), 'input type-checks').toEqual([]);

    const first = await codemod(dir);
    const inputFiles = listFiles(path.join(caseDir, 'input'));
    if (UPDATE) {
      for (const f of inputFiles) {
        mkdirSync(path.dirname(path.join(caseDir, 'expected', f)), { recursive: true });
        cpSync(path.join(dir, f), path.join(caseDir, 'expected', f));
      }
    }
    expect(listFiles(path.join(caseDir, 'expected'))).toEqual(inputFiles);
    for (const f of inputFiles) {
      // byte for byte (an encoding change would show), shown as text when they differ
      const [got, want] = [readFileSync(path.join(dir, f)), readFileSync(path.join(caseDir, 'expected', f))];
      if (!got.equals(want)) expect(got.toString('utf8'), f).toBe(want.toString('utf8'));
      expect(got.equals(want), `${f}: same bytes`).toBe(true);
    }
    expect(first.exitCode).toBe(spec.exitCode);
    if (spec.summary) expect(first.summary).toMatchObject(spec.summary);
    for (const kind of spec.findings ?? []) expect(first.findings.map((f) => f.kind)).toContain(kind);
    if (spec.doorsLeft) {
      const left = first.findings.flatMap((f) =>
        f.kind === 'door-left' ? [{ line: f.line, door: f.door, reason: f.reason, message: f.message, hint: f.hint }] : [],
      );
      expect(left).toEqual(spec.doorsLeft);
    }

    const second = await codemod(dir);
    expect(second.changes, 'second run changes nothing').toEqual([]);
    expect(second.exitCode).toBe(spec.exitCode);

    generate(dir);
    expect(typeCheck(dir, spec.typecheckExclude, options), 'output type-checks').toEqual([]);
  });

  it('the type check is real: an unknown action or a leftover needsApproval fails it', async () => {
    const dir = makeTempDir('codemod-typecheck-');
    dirs.push(dir);
    cpSync(path.join(ROOT, '_shared'), dir, { recursive: true });
    cpSync(path.join(ROOT, 'named', 'expected'), dir, { recursive: true });
    generate(dir);
    expect(typeCheck(dir)).toEqual([]);
    const file = path.join(dir, 'src/tools.ts');
    const good = readFileSync(file, 'utf8');
    writeFileSync(file, good.replace("protectedTool('stripe.refund'", "protectedTool('stripe.refundz'"));
    expect(typeCheck(dir).join('\n')).toMatch(/src\/tools\.ts:\d+:\d+: [\s\S]*"stripe\.refundz"' is not assignable to parameter of type 'ActionId'/);
    writeFileSync(file, good.replace("name: 'refund',", "name: 'refund',\n  needsApproval: true,"));
    expect(typeCheck(dir).join('\n')).toMatch(/src\/tools\.ts:13:3: /);
  });

  it("the own SDK copy is a second copy: tools typed with ctrlrun-gen's copy fail the package's Agent<Caller>", () => {
    const dir = makeTempDir('codemod-own-sdk-');
    dirs.push(dir);
    cpSync(path.join(ROOT, '_shared'), dir, { recursive: true });
    cpSync(path.join(ROOT, 'run-context-own-sdk', 'expected'), dir, { recursive: true });
    const options = ownSdkCopy(dir);
    generate(dir);
    expect(typeCheck(dir, [], options)).toEqual([]);
    // `protectedTool` as it was typed before it took the package's own SDK types
    const file = path.join(dir, 'src/ctrlrun.generated.ts');
    const typed = readFileSync(file, 'utf8');
    const runtimeTyped = typed.replace(
      'export const protectedTool: ProtectedToolType = bindProtectedTool<ActionId>(control, policy) as ProtectedToolType;',
      'export const protectedTool = bindProtectedTool<ActionId>(control, policy);',
    );
    expect(runtimeTyped).not.toBe(typed);
    writeFileSync(file, runtimeTyped);
    const errors = typeCheck(dir, [], options).join('\n');
    expect(errors).toMatch(/src\/desk\.ts:\d+:\d+: .*Tool<Caller>/);
    expect(errors).toMatch(/RunContext/);
  });
});
