import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NODE_FS, WriteSetError, describeWriteFailure, writeAll, type WriteFs } from '../../src/fs/write-all.js';
import { filesOf, makeTempDir, removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));
const temp = () => {
  const dir = makeTempDir('write-all-');
  dirs.push(dir);
  return dir;
};

/** The real file system, failing the chosen call with EACCES. */
function failing(on: { call: keyof WriteFs; when: (p: string) => boolean }): WriteFs {
  const refuse = (p: string) => Object.assign(new Error(`EACCES: permission denied, ${p}`), { code: 'EACCES', path: p });
  const wrap =
    <K extends keyof WriteFs>(call: K) =>
    (...args: Parameters<WriteFs[K]>): ReturnType<WriteFs[K]> => {
      if (call === on.call && on.when(String(args[call === 'rename' ? 1 : 0]))) throw refuse(String(args[0]));
      return (NODE_FS[call] as (...a: unknown[]) => ReturnType<WriteFs[K]>)(...args);
    };
  return { mkdir: wrap('mkdir'), write: wrap('write'), rename: wrap('rename'), unlink: wrap('unlink'), rmdir: wrap('rmdir'), read: wrap('read') };
}

describe('writeAll: a set of files, all or nothing', () => {
  it('writes every file (new folders made, an existing file keeps its mode) and leaves no temp file', () => {
    const dir = temp();
    writeFileSync(path.join(dir, 'a.txt'), 'old');
    chmodSync(path.join(dir, 'a.txt'), 0o640);
    writeAll([
      { file: path.join(dir, 'a.txt'), text: 'new a' },
      { file: path.join(dir, 'deep/er/b.txt'), text: 'b' },
    ]);
    expect(filesOf(dir)).toEqual({ 'a.txt': 'new a', [path.join('deep/er/b.txt')]: 'b' });
    expect(statSync(path.join(dir, 'a.txt')).mode & 0o777).toBe(0o640);
  });

  it('a file that cannot be staged: nothing is written, no temp file or new folder is left', () => {
    const dir = temp();
    writeFileSync(path.join(dir, 'a.txt'), 'old');
    const before = filesOf(dir);
    const fs = failing({ call: 'write', when: (p) => p.includes(`${path.sep}new${path.sep}`) });
    let error: unknown;
    try {
      writeAll(
        [
          { file: path.join(dir, 'a.txt'), text: 'new a' },
          { file: path.join(dir, 'new/b.txt'), text: 'b' },
        ],
        fs,
      );
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WriteSetError);
    expect((error as WriteSetError).file).toBe(path.join(dir, 'new/b.txt'));
    expect(describeWriteFailure(error as WriteSetError)).toBe('permission denied (EACCES)');
    expect(filesOf(dir)).toEqual(before);
    expect(existsSync(path.join(dir, 'new'))).toBe(false);
  });

  it('a rename that fails after others were made: the renamed files are put back (bytes and mode), new ones removed', () => {
    const dir = temp();
    writeFileSync(path.join(dir, 'a.txt'), 'old a');
    chmodSync(path.join(dir, 'a.txt'), 0o600);
    writeFileSync(path.join(dir, 'c.txt'), 'old c');
    const before = filesOf(dir);
    const fs = failing({ call: 'rename', when: (to) => to.endsWith('c.txt') });
    expect(() =>
      writeAll(
        [
          { file: path.join(dir, 'a.txt'), text: 'new a' },
          { file: path.join(dir, 'sub/b.txt'), text: 'b' },
          { file: path.join(dir, 'c.txt'), text: 'new c' },
        ],
        fs,
      ),
    ).toThrow(WriteSetError);
    expect(filesOf(dir)).toEqual(before);
    expect(statSync(path.join(dir, 'a.txt')).mode & 0o777).toBe(0o600);
    expect(existsSync(path.join(dir, 'sub'))).toBe(false);
  });

  it('an existing file its owner made read-only is refused before anything is written', () => {
    if (process.getuid?.() === 0) {
      // root may write any file (CAP_DAC_OVERRIDE): the check is the same access(W_OK) call, failing here through the wrapper
      const dir = temp();
      writeFileSync(path.join(dir, 'a.txt'), 'old');
      const fs = failing({ call: 'read', when: (p) => p.endsWith('a.txt') });
      expect(() =>
        writeAll(
          [
            { file: path.join(dir, 'b.txt'), text: 'b' },
            { file: path.join(dir, 'a.txt'), text: 'x' },
          ],
          fs,
        ),
      ).toThrow(WriteSetError);
      expect(filesOf(dir)).toEqual({ 'a.txt': 'old' });
      return;
    }
    const dir = temp();
    mkdirSync(path.join(dir, 'ro'));
    writeFileSync(path.join(dir, 'ro/a.txt'), 'old');
    chmodSync(path.join(dir, 'ro/a.txt'), 0o444);
    expect(() =>
      writeAll([
        { file: path.join(dir, 'b.txt'), text: 'b' },
        { file: path.join(dir, 'ro/a.txt'), text: 'x' },
      ]),
    ).toThrow(WriteSetError);
    expect(filesOf(dir)).toEqual({ [path.join('ro/a.txt')]: 'old' });
  });
});
