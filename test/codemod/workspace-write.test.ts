import { appendFileSync, cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runWorkspaceCodemod } from '../../src/cli/commands/codemod.js';
import { workspaceManifests } from '../../src/cli/workspace.js';
import { writeChanges } from '../../src/codemod/index.js';
import type { SetChange } from '../../src/codemod/write.js';
import { renderGeneratedModule } from '../../src/generate/index.js';
import { loadProject } from '../../src/manifest/load.js';
import { FIXTURES } from '../helpers/paths.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * Issue 40, "no false green": `codemod --write` at a workspace root writes every package's rewrite
 * as one set. When a file of any package changes between the plan and the write, nothing is written
 * and no package's report names a file as written (before, an earlier package's `written` list
 * named files the run never wrote, and an earlier package's file edited while a later one was
 * planned was overwritten). The change is made by the writer handed in: no timing race.
 */
function workspace(): string {
  const root = makeTempDir('codemod-ws-write-');
  dirs.push(root);
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'ws', private: true, workspaces: ['packages/*'] }));
  for (const name of ['a', 'b']) {
    const dir = path.join(root, 'packages', name);
    cpSync(path.join(FIXTURES, 'codemod/_shared'), dir, { recursive: true });
    cpSync(path.join(FIXTURES, 'codemod/named/input'), dir, { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
    const module = renderGeneratedModule(loadProject({ cwd: dir }));
    writeFileSync(module.path, module.text);
  }
  return root;
}

interface PackageReport {
  package: string;
  exitCode: number;
  outcome: { exitReasons: string[] };
  files: Array<{ file: string; written: boolean }>;
  changedOnDisk?: string[];
}

async function run(root: string, format: 'json' | 'text', write: (changes: readonly SetChange[]) => ReturnType<typeof writeChanges>) {
  let stdout = '';
  let stderr = '';
  const ctx = {
    cwd: root,
    color: false,
    debug: false,
    isTTY: false,
    env: {},
    stdout: (t: string) => {
      stdout += t;
    },
    stderr: (t: string) => {
      stderr += t;
    },
  };
  const args = { write: true, allowDirty: true, json: format === 'json', format };
  const code = await runWorkspaceCodemod(workspaceManifests(root) ?? [], args, ctx, write);
  return { code, stdout, stderr };
}

const tools = (root: string, name: string) => path.join(root, 'packages', name, 'src/tools.ts');

describe('codemod --write at a workspace root: one write set, reported as it is on disk', () => {
  for (const edited of ['a', 'b'] as const) {
    it(`package ${edited}'s file edited between the plan and the write: nothing written, no report says written`, async () => {
      const root = workspace();
      const before = { a: readFileSync(tools(root, 'a'), 'utf8'), b: readFileSync(tools(root, 'b'), 'utf8') };
      const r = await run(root, 'json', (changes) => {
        appendFileSync(tools(root, edited), '\n// edited while the codemod ran\n');
        return writeChanges(changes);
      });
      expect(r.code).toBe(1);
      const { packages } = JSON.parse(r.stdout) as { packages: PackageReport[] };
      expect(packages.map((p) => p.package)).toEqual(['packages/a', 'packages/b']);
      for (const p of packages) {
        expect(p.files.length).toBe(1);
        expect(
          p.files.every((f) => !f.written),
          `${p.package} says written`,
        ).toBe(true);
        expect(p.exitCode).toBe(1);
        expect(p.outcome.exitReasons).toContain('changed-on-disk');
        expect(p.changedOnDisk).toEqual([`packages/${edited}/src/tools.ts`]);
      }
      const other = edited === 'a' ? 'b' : 'a';
      expect(readFileSync(tools(root, other), 'utf8')).toBe(before[other]);
      expect(readFileSync(tools(root, edited), 'utf8')).toBe(`${before[edited]}\n// edited while the codemod ran\n`);
    });
  }

  it('text: no `wrote` line, one error naming the edited file', async () => {
    const root = workspace();
    const r = await run(root, 'text', (changes) => {
      appendFileSync(tools(root, 'b'), '\n// edited\n');
      return writeChanges(changes);
    });
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain('wrote ');
    expect(r.stderr.match(/changed while the codemod ran; nothing was written/g)).toHaveLength(1);
    expect(r.stderr).toContain('packages/b/src/tools.ts changed while the codemod ran');
  });

  it('nothing edited: both packages written and said written', async () => {
    const root = workspace();
    const r = await run(root, 'json', writeChanges);
    expect(r.code).toBe(0);
    const { packages } = JSON.parse(r.stdout) as { packages: PackageReport[] };
    for (const p of packages) expect(p.files.map((f) => f.written)).toEqual([true]);
    for (const name of ['a', 'b']) expect(readFileSync(tools(root, name), 'utf8')).toContain('protectedTool(');
  });
});
