import { appendFileSync, cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCheckCommand } from '../../src/cli/commands/check.js';
import { writeChanges } from '../../src/codemod/index.js';
import type { SetChange } from '../../src/codemod/write.js';
import { UserError } from '../../src/diagnostics.js';
import { NODE_FS, type WriteFs } from '../../src/fs/write-all.js';
import { renderGeneratedModule } from '../../src/generate/index.js';
import { loadProject } from '../../src/manifest/load.js';
import { FIXTURES } from '../helpers/paths.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * Issue 40, "no false green", for `check --fix`: at a workspace root every package is planned, then
 * every package's rewrite goes through the codemod's writer as one set (before, package by package:
 * a failure in a later package left the earlier ones written); and what it prints is what was
 * written (before, a file changed on disk gave "N tool(s) protected in 0 file(s)"). The failure
 * and the disk change are made by the writer handed in: no timing race.
 */
function addPackage(dir: string, name: string): void {
  cpSync(path.join(FIXTURES, 'codemod/_shared'), dir, { recursive: true });
  cpSync(path.join(FIXTURES, 'codemod/named/input'), dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  const module = renderGeneratedModule(loadProject({ cwd: dir }));
  writeFileSync(module.path, module.text);
}

function workspace(): string {
  const root = makeTempDir('check-fix-ws-');
  dirs.push(root);
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'ws', private: true, workspaces: ['packages/*'] }));
  for (const name of ['a', 'b']) addPackage(path.join(root, 'packages', name), name);
  return root;
}

function singlePackage(): string {
  const root = makeTempDir('check-fix-one-');
  dirs.push(root);
  addPackage(root, 'one');
  return root;
}

type Writer = (changes: readonly SetChange[]) => ReturnType<typeof writeChanges>;

async function fix(root: string, write: Writer) {
  let stderr = '';
  const ctx = {
    cwd: root,
    color: false,
    debug: false,
    isTTY: false,
    env: {},
    stdout: () => {},
    stderr: (t: string) => {
      stderr += t;
    },
  };
  const args = { fix: true, allowDirty: true, format: 'json' as const, failOn: 'error' as const };
  const code = await runCheckCommand(args, ctx, write);
  return { code, stderr };
}

const tools = (root: string, name?: string) => path.join(root, ...(name ? ['packages', name] : []), 'src/tools.ts');
const read = (file: string) => readFileSync(file, 'utf8');

/** The real file system, except that renaming over `target` fails as a read-only file would. */
function failingOn(target: string): WriteFs {
  return {
    ...NODE_FS,
    rename: (from, to) => {
      if (to === target) throw Object.assign(new Error(`EACCES: permission denied, rename '${from}'`), { code: 'EACCES' });
      NODE_FS.rename(from, to);
    },
  };
}

describe('check --fix at a workspace root: one write set', () => {
  it("a write failing in the last package leaves the first package's files as they were (exit 2)", async () => {
    const root = workspace();
    const before = { a: read(tools(root, 'a')), b: read(tools(root, 'b')) };
    const sets: string[][] = [];
    const run = fix(root, (changes) => {
      sets.push(changes.map((c) => path.relative(root, c.file)));
      return writeChanges(changes, failingOn(tools(root, 'b')));
    });
    await expect(run).rejects.toThrow(UserError);
    await expect(run).rejects.toThrow(/cannot write packages\/b\/src\/tools\.ts: permission denied \(EACCES\); nothing was written/);
    expect(sets).toEqual([['packages/a/src/tools.ts', 'packages/b/src/tools.ts']]);
    expect(read(tools(root, 'a'))).toBe(before.a);
    expect(read(tools(root, 'b'))).toBe(before.b);
  });

  it('nothing in the way: both packages written in one set, each line counts what it wrote', async () => {
    const root = workspace();
    let calls = 0;
    const r = await fix(root, (changes) => {
      calls++;
      return writeChanges(changes);
    });
    expect(calls).toBe(1);
    expect(read(tools(root, 'a'))).toContain('protectedTool(');
    expect(read(tools(root, 'b'))).toContain('protectedTool(');
    expect(r.stderr).toMatch(/check --fix: packages\/a: [1-9]\d* tool\(s\) protected in 1 file\(s\)/);
    expect(r.stderr).toMatch(/check --fix: packages\/b: [1-9]\d* tool\(s\) protected in 1 file\(s\)/);
  });

  it('a file of the last package edited between the plan and the write: nothing written, and the output says so', async () => {
    const root = workspace();
    const before = read(tools(root, 'a'));
    const r = await fix(root, (changes) => {
      appendFileSync(tools(root, 'b'), '\n// edited while check --fix ran\n');
      return writeChanges(changes);
    });
    expect(read(tools(root, 'a'))).toBe(before);
    expect(read(tools(root, 'b'))).not.toContain('protectedTool(');
    expect(r.stderr).toContain('check --fix: nothing rewritten: packages/b/src/tools.ts changed on disk while the codemod ran; no file was written');
    expect(r.stderr).not.toMatch(/[1-9]\d* tool\(s\) protected in 0 file/);
    expect(r.stderr).toMatch(/check --fix: packages\/a: 0 tool\(s\) protected in 0 file\(s\)/);
  });
});

describe('check --fix in one package: the count is what was written', () => {
  it('the file changed on disk during the run: "nothing rewritten", never "N tool(s) protected in 0 file(s)"', async () => {
    const root = singlePackage();
    const r = await fix(root, (changes) => {
      appendFileSync(tools(root), '\n// edited while check --fix ran\n');
      return writeChanges(changes);
    });
    expect(read(tools(root))).not.toContain('protectedTool(');
    expect(r.stderr).toContain('check --fix: nothing rewritten: src/tools.ts changed on disk while the codemod ran; no file was written');
    expect(r.stderr).not.toMatch(/[1-9]\d* tool\(s\) protected in 0 file/);
    expect(r.stderr).toContain('check --fix: 0 tool(s) protected in 0 file(s)');
  });
});

/**
 * The generated module is part of the set (before, it was written after the set through its own
 * writer: a failure there left the rewritten calls importing a module that was not written). The
 * module is made stale by removing it, so `check --fix` must write it anew.
 */
describe('check --fix writes the generated module in the same set as the rewrite', () => {
  const generatedOf = (root: string) => loadProject({ cwd: root }).manifest.output;

  it('the generated module failing to write leaves the rewritten file as it was (exit 2)', async () => {
    const root = singlePackage();
    const module = generatedOf(root);
    const stale = `${read(module)}// stale\n`;
    writeFileSync(module, stale);
    const before = read(tools(root));
    const sets: string[][] = [];
    const run = fix(root, (changes) => {
      sets.push(changes.map((c) => path.relative(root, c.file)));
      return writeChanges(changes, failingOn(module));
    });
    await expect(run).rejects.toThrow(/cannot write src\/ctrlrun\.generated\.ts: permission denied \(EACCES\); nothing was written/);
    expect(sets).toEqual([['src/tools.ts', 'src/ctrlrun.generated.ts']]);
    expect(read(tools(root))).toBe(before);
    expect(read(module)).toBe(stale);
  });

  it('a missing generated module is written with the rewrite, and the line names it', async () => {
    const root = singlePackage();
    const module = generatedOf(root);
    rmSync(module);
    const r = await fix(root, (changes) => writeChanges(changes));
    expect(read(tools(root))).toContain('protectedTool(');
    expect(read(module)).toBe(renderGeneratedModule(loadProject({ cwd: root })).text);
    expect(r.stderr).toMatch(/check --fix: [1-9]\d* tool\(s\) protected in 1 file\(s\); wrote src\/ctrlrun\.generated\.ts/);
  });

  it('a generated module that appears while check --fix runs is not overwritten, nor anything else written', async () => {
    const root = singlePackage();
    const module = generatedOf(root);
    rmSync(module);
    const before = read(tools(root));
    const r = await fix(root, (changes) => {
      writeFileSync(module, '// written by someone else meanwhile\n');
      return writeChanges(changes);
    });
    expect(read(module)).toBe('// written by someone else meanwhile\n');
    expect(read(tools(root))).toBe(before);
    expect(r.stderr).toContain('check --fix: nothing rewritten: src/ctrlrun.generated.ts changed on disk while the codemod ran; no file was written');
  });
});

describe('check --fix where the generated module cannot be written', () => {
  it('a hand-written file at the output path: nothing rewritten, the file kept, and the line says why', async () => {
    const root = singlePackage();
    const module = loadProject({ cwd: root }).manifest.output;
    writeFileSync(module, 'export const mine = 1;\n');
    const before = read(tools(root));
    let calls = 0;
    const r = await fix(root, (changes) => {
      calls++;
      return writeChanges(changes);
    });
    expect(calls).toBe(0);
    expect(read(module)).toBe('export const mine = 1;\n');
    expect(read(tools(root))).toBe(before);
    expect(r.stderr).toContain('check --fix: nothing rewritten: cannot write src/ctrlrun.generated.ts: the file exists and was not written by ctrlrun-gen');
    expect(r.stderr).toContain('and the rewritten calls would import that module');
  });
});
