/**
 * Writing a set of files all or nothing (issue 21 item 9): `init` and `codemod --write` plan every
 * write first, then hand the set here.
 *
 * 1. Stage: each file's text goes to a temp file beside its target (same directory, so the rename
 *    below stays on one file system and cannot half-copy), its missing directories created first.
 *    An unwritable directory fails here, before any target is touched.
 * 2. Commit: each temp file is renamed over its target, in order. When a rename fails, the targets
 *    already renamed are put back (an original's bytes and mode restored, a new file removed) and
 *    the directories this call created are removed.
 *
 * Either way a failure is a {@link WriteSetError} naming the file that could not be written; the
 * caller turns it into a located user error (exit 2). Only node:fs: a floor every command may use.
 */
import { accessSync, constants, mkdirSync, readFileSync, renameSync, rmdirSync, statSync, unlinkSync, writeFileSync, type Stats } from 'node:fs';
import path from 'node:path';

export interface PlannedWrite {
  /** Absolute path of the target. */
  file: string;
  text: string | Buffer;
}

/** One planned write could not be made; `file` is the target it was for. Nothing of the set is left written. */
export class WriteSetError extends Error {
  readonly file: string;
  constructor(file: string, cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'WriteSetError';
    this.file = file;
  }
}

const FAILURES: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  ENOTDIR: 'a path above it is a file, not a folder',
  EISDIR: 'it is a folder',
};

/** What went wrong, in words, without the absolute temp path the system message names: `permission denied (EACCES)`. */
export function describeWriteFailure(error: WriteSetError): string {
  const code = (error.cause as NodeJS.ErrnoException | undefined)?.code;
  return code !== undefined && code in FAILURES ? `${FAILURES[code]} (${code})` : error.message;
}

/** The file system calls the set uses; tests pass a wrapper that fails on a chosen call. */
export interface WriteFs {
  mkdir: (dir: string) => void;
  write: (file: string, text: string | Buffer, mode: number | undefined) => void;
  rename: (from: string, to: string) => void;
  unlink: (file: string) => void;
  rmdir: (dir: string) => void;
  /** The target as it is (bytes and mode), undefined when there is none; throws when it may not be replaced. */
  read: (file: string) => { bytes: Buffer; mode: number } | undefined;
}

export const NODE_FS: WriteFs = {
  mkdir: (dir) => void mkdirSync(dir),
  write: (file, text, mode) => writeFileSync(file, text, mode === undefined ? { flag: 'wx' } : { flag: 'wx', mode }),
  rename: renameSync,
  unlink: unlinkSync,
  rmdir: rmdirSync,
  read: (file) => {
    let stat: Stats;
    try {
      stat = statSync(file);
    } catch {
      return undefined; // a new file
    }
    // a file its owner made read-only is not replaced behind their back (a rename would)
    accessSync(file, constants.W_OK);
    return { bytes: readFileSync(file), mode: stat.mode & 0o7777 };
  },
};

/** The temp file beside `file` that stages its new text (node:crypto loaded only by a write: start-up of a check that writes nothing). */
export function tempBeside(file: string): string {
  return path.join(
    path.dirname(file),
    `.${path.basename(file)}.ctrlrun-${process.pid}-${process.getBuiltinModule('node:crypto').randomBytes(4).toString('hex')}.tmp`,
  );
}

/** The directories above `file` that do not exist yet, outermost first. */
function missingDirs(file: string, exists: (dir: string) => boolean): string[] {
  const dirs: string[] = [];
  for (let dir = path.dirname(file); !exists(dir) && path.dirname(dir) !== dir; dir = path.dirname(dir)) dirs.unshift(dir);
  return dirs;
}

const dirExists = (dir: string): boolean => {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
};

/**
 * Writes every planned file or none (see the module comment). A file planned twice keeps the last
 * text. Throws {@link WriteSetError} after undoing what it did.
 */
export function writeAll(writes: readonly PlannedWrite[], fs: WriteFs = NODE_FS, exists: (dir: string) => boolean = dirExists): void {
  const byFile = new Map<string, string | Buffer>();
  for (const w of writes) byFile.set(path.resolve(w.file), w.text);
  const createdDirs: string[] = [];
  const staged: Array<{ file: string; tmp: string; original: { bytes: Buffer; mode: number } | undefined }> = [];
  const undoStaging = () => {
    for (const s of staged) tryTo(() => fs.unlink(s.tmp));
    for (const dir of [...createdDirs].reverse()) tryTo(() => fs.rmdir(dir));
  };
  for (const [file, text] of byFile) {
    const step = { file, tmp: tempBeside(file), original: undefined as { bytes: Buffer; mode: number } | undefined };
    try {
      for (const dir of missingDirs(file, (d) => createdDirs.includes(d) || exists(d))) {
        fs.mkdir(dir);
        createdDirs.push(dir);
      }
      step.original = fs.read(file);
      fs.write(step.tmp, text, step.original?.mode);
      staged.push(step);
    } catch (error) {
      tryTo(() => fs.unlink(step.tmp));
      undoStaging();
      throw new WriteSetError(file, error);
    }
  }
  const renamed: typeof staged = [];
  for (const s of staged) {
    try {
      fs.rename(s.tmp, s.file);
      renamed.push(s);
    } catch (error) {
      for (const done of renamed.reverse()) restore(done, fs);
      undoStaging();
      throw new WriteSetError(s.file, error);
    }
  }
}

/** Puts one renamed target back as it was: its original bytes (through a temp file and a rename), or no file. */
function restore(s: { file: string; original: { bytes: Buffer; mode: number } | undefined }, fs: WriteFs): void {
  if (s.original === undefined) {
    tryTo(() => fs.unlink(s.file));
    return;
  }
  const back = tempBeside(s.file);
  tryTo(() => {
    fs.write(back, s.original!.bytes, s.original!.mode);
    fs.rename(back, s.file);
  });
}

function tryTo(step: () => void): void {
  try {
    step();
  } catch {
    // best effort while undoing: the first failure is the one reported
  }
}
