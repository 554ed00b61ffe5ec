import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPlugin } from '../../src/eslint/index.js';
import { DiskState } from '../../src/eslint/disk-state.js';
import { FIXTURES } from '../helpers/paths.js';
import { AUG, HELPER, OWN_STATE, SDK_STATE, TYPES } from './augmentation-app.js';
import { eslintWith } from './helpers.js';

/**
 * An editor's ESLint session outlives changes made on disk by other hands: a `git checkout`, a file
 * written, created or deleted by another tool. The helper's answer (helper.ts) is the SDK's only
 * while another file gives `Pending` the SDK's state; after such a change the session must answer
 * as `check` run afresh would, not from the texts it read at its start.
 */
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Writes a file as another tool would (not through the editor), its time moved on so a stat tells. */
function writeOnDisk(abs: string, text: string): void {
  writeFileSync(abs, text);
  const t = new Date(Date.now() + 5000);
  utimesSync(abs, t, t);
}

function repo(files: Record<string, string>) {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-eslint-disk-'));
  dirs.push(dir);
  cpSync(path.join(FIXTURES, 'check', 'open-doors', 'repo'), dir, { recursive: true });
  for (const [rel, text] of Object.entries({ 'src/types.ts': TYPES, 'src/helper.ts': HELPER, ...files })) writeFileSync(path.join(dir, rel), text);
  return { dir, at: (rel: string) => path.join(dir, rel) };
}

/** An ESLint with a clock the test moves. */
function eslintAt(dir: string) {
  const clock = { t: 0 };
  return { eslint: eslintWith(dir, { plugin: createPlugin({ now: () => clock.t }) }), clock };
}

async function approvalsIn(eslint: ReturnType<typeof eslintWith>, abs: string, text: string): Promise<number> {
  const [result] = await eslint.lintText(text, { filePath: abs });
  return result!.messages.filter((m) => m.ruleId === 'ctrlrun/sdk-approval').length;
}

describe('an ESLint session after changes made on disk', () => {
  it('a module rewritten on disk: the file linted again answers from its new text', async () => {
    const { dir, at } = repo({ 'src/aug.ts': AUG, 'src/state.ts': OWN_STATE });
    const { eslint } = eslintAt(dir);
    expect(await approvalsIn(eslint, at('src/helper.ts'), HELPER)).toBe(0);
    writeOnDisk(at('src/state.ts'), SDK_STATE);
    expect(await approvalsIn(eslint, at('src/helper.ts'), HELPER)).toBe(1);
  });

  it('a file created on disk: the file linted again reads it', async () => {
    const { dir, at } = repo({ 'src/state.ts': SDK_STATE });
    const { eslint } = eslintAt(dir);
    expect(await approvalsIn(eslint, at('src/helper.ts'), HELPER)).toBe(0);
    writeOnDisk(at('src/aug.ts'), AUG);
    expect(await approvalsIn(eslint, at('src/helper.ts'), HELPER)).toBe(1);
  });

  it('a file deleted on disk: the file linted again no longer reads it', async () => {
    const { dir, at } = repo({ 'src/aug.ts': AUG, 'src/state.ts': SDK_STATE });
    const { eslint } = eslintAt(dir);
    expect(await approvalsIn(eslint, at('src/helper.ts'), HELPER)).toBe(1);
    rmSync(at('src/aug.ts'));
    expect(await approvalsIn(eslint, at('src/helper.ts'), HELPER)).toBe(0);
  });

  it('a listed file turned into a FIFO (unreadable as text): the session is built anew, and the lint still answers', async () => {
    const { dir, at } = repo({ 'src/aug.ts': AUG, 'src/state.ts': SDK_STATE });
    const { eslint } = eslintAt(dir);
    expect(await approvalsIn(eslint, at('src/helper.ts'), HELPER)).toBe(1);
    rmSync(at('src/types.ts'));
    execFileSync('mkfifo', [at('src/types.ts')]);
    const t = new Date(Date.now() + 5000);
    utimesSync(at('src/types.ts'), t, t);
    // the listing still holds the name, so only the read of the changed file can tell
    await expect(approvalsIn(eslint, at('src/helper.ts'), HELPER)).resolves.toBeTypeOf('number');
  });

  it('a file linted for the first time a while after the last comparison answers from the disk', async () => {
    const { dir, at } = repo({ 'src/aug.ts': AUG, 'src/state.ts': OWN_STATE });
    const { eslint, clock } = eslintAt(dir);
    // the session is built on another file
    await approvalsIn(eslint, at('src/types.ts'), TYPES);
    writeOnDisk(at('src/state.ts'), SDK_STATE);
    clock.t = 5_000;
    expect(await approvalsIn(eslint, at('src/helper.ts'), HELPER)).toBe(1);
  });
});

describe('DiskState: what moved on disk', () => {
  function folder() {
    const dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-disk-state-'));
    dirs.push(dir);
    const a = path.join(dir, 'a.ts');
    writeFileSync(a, 'export const a = 1;\n');
    return { dir, a, state: new DiskState(dir, [a]) };
  }

  it('nothing moved: no file, no listing', () => {
    expect(folder().state.changes()).toEqual({ files: [], listing: false });
  });

  it("a file saved through a temporary file (an editor's atomic save): the file, not the listing", () => {
    const { dir, a, state } = folder();
    const tmp = path.join(dir, '.a.ts.tmp');
    writeFileSync(tmp, 'export const a = 2;\n');
    renameSync(tmp, a);
    expect(state.changes()).toEqual({ files: [a], listing: false });
    // taken as seen: asked again, nothing more moved
    expect(state.changes()).toEqual({ files: [], listing: false });
  });

  it('a source file or folder created, or a listed file deleted: the listing', () => {
    for (const make of [(dir: string) => writeFileSync(path.join(dir, 'b.ts'), ''), (dir: string) => mkdirSync(path.join(dir, 'sub'))]) {
      const { dir, state } = folder();
      make(dir);
      expect(state.changes().listing).toBe(true);
    }
    const { a, state } = folder();
    rmSync(a);
    expect(state.changes().listing).toBe(true);
  });

  it('a file no listing takes created beside them (notes, a build log): not the listing', () => {
    const { dir, state } = folder();
    writeFileSync(path.join(dir, 'notes.md'), 'x');
    expect(state.changes()).toEqual({ files: [], listing: false });
  });
});
