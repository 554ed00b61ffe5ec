import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Reading files a repository names (a policy, a manifest, a source file for a code frame) without
 * hanging or leaking: only regular files, never the kernel's pseudo-files, never more than a cap.
 *
 * - The file is opened non-blocking (a FIFO does not wait for a writer) and checked with `fstat` on
 *   the open descriptor (no swap between the check and the read); a device, FIFO, socket or
 *   directory is refused before a byte is read.
 * - `/proc`, `/sys` and `/dev` (after symlinks are resolved) are refused: `/proc/self/environ` is a
 *   "regular file" of size 0 holding the process's secrets.
 * - At most `maxBytes` are read, whatever the file's size says.
 */
export type CappedRead =
  | { ok: true; text: string }
  | { ok: false; reason: 'not-found' | 'not-a-file' | 'system-file' | 'too-large' | 'permission-denied' | 'unreadable'; message: string };

const SYSTEM_ROOTS = ['/proc', '/sys', '/dev'];

export function isSystemPath(real: string): boolean {
  return process.platform !== 'win32' && SYSTEM_ROOTS.some((root) => real === root || real.startsWith(`${root}/`));
}

export function readCapped(file: string, maxBytes: number): CappedRead {
  let real: string;
  try {
    real = realpathSync(file);
  } catch (error) {
    return failure(error);
  }
  if (isSystemPath(real))
    return { ok: false, reason: 'system-file', message: `it is a system file (${real.split('/').slice(0, 2).join('/')}/…), not a file of the repository` };
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    return failure(error);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { ok: false, reason: 'not-a-file', message: `it is ${describeStat(stat)}, not a regular file` };
    if (stat.size > maxBytes) return tooLarge(stat.size, maxBytes);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(Math.min(64 * 1024, maxBytes + 1 - total));
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      chunks.push(buf.subarray(0, n));
      total += n;
      if (total > maxBytes) return tooLarge(undefined, maxBytes);
    }
    return { ok: true, text: Buffer.concat(chunks, total).toString('utf8') };
  } catch (error) {
    return failure(error);
  } finally {
    closeSync(fd);
  }
}

/**
 * A file's bytes, read as `readFileSync` would, but never waiting: a FIFO, socket or device (a
 * repository can hold one under a source file's name, or git can list a tracked file that became
 * one) throws an error with code `ENOTREG` instead of blocking the process for a writer, and a
 * directory throws `EISDIR`. For the scanner's hot path: no cap, no realpath, one open and one fstat.
 */
export function readRegularFile(file: string, options: { follow?: boolean } = {}): Buffer {
  // follow: false — a symbolic link throws ELOOP (O_NOFOLLOW: no extra system call to find links)
  const noFollow = options.follow === false ? (constants.O_NOFOLLOW ?? 0) : 0;
  const fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | noFollow);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) {
      const code = stat.isDirectory() ? 'EISDIR' : 'ENOTREG';
      throw Object.assign(new Error(`${code}: ${file} is ${describeStat(stat)}, not a regular file`), { code, path: file, syscall: 'read' });
    }
    // As readFileSync: up to the size fstat gave; a size of 0 (a pseudo-file) is read to its end.
    if (stat.size > 0) {
      const buf = Buffer.allocUnsafe(stat.size);
      let total = 0;
      while (total < buf.length) {
        const n = readSync(fd, buf, total, buf.length - total, null);
        if (n === 0) break;
        total += n;
      }
      return total === buf.length ? buf : buf.subarray(0, total);
    }
    const chunks: Buffer[] = [];
    for (;;) {
      const chunk = Buffer.allocUnsafe(8192);
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) return Buffer.concat(chunks);
      chunks.push(chunk.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
}

/** `readRegularFile` as UTF-8 text (what `readFileSync(file, 'utf8')` gives). */
export function readRegularText(file: string): string {
  return readRegularFile(file).toString('utf8');
}

function tooLarge(size: number | undefined, maxBytes: number): CappedRead {
  const what = size === undefined ? `over ${maxBytes} bytes` : `${size} bytes`;
  return { ok: false, reason: 'too-large', message: `it is ${what}; the limit is ${maxBytes}` };
}

function describeStat(stat: ReturnType<typeof fstatSync>): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a named pipe (FIFO)';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isSocket()) return 'a socket';
  return 'not a regular file';
}

function failure(error: unknown): CappedRead {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, reason: 'not-found', message: 'it does not exist' };
  if (code === 'EISDIR') return { ok: false, reason: 'not-a-file', message: 'it is a directory, not a regular file' };
  if (code === 'EACCES' || code === 'EPERM') return { ok: false, reason: 'permission-denied', message: 'permission denied (this user may not read it)' };
  if (code === 'ELOOP') return { ok: false, reason: 'unreadable', message: 'it is a loop of symbolic links' };
  return { ok: false, reason: 'unreadable', message: code ?? (error instanceof Error ? error.message : String(error)) };
}

/** The directory holding `.git` at or above `dir`, or undefined when `dir` is in no git work tree. */
export function gitRootOf(dir: string): string | undefined {
  let at = path.resolve(dir);
  for (;;) {
    try {
      // (no exception for the usual miss: an editor asks on every file it lints)
      if (statSync(path.join(at, '.git'), { throwIfNoEntry: false })) return at;
    } catch {
      // unreadable here; go up
    }
    const parent = path.dirname(at);
    if (parent === at) return undefined;
    at = parent;
  }
}

/** Whether `file`, with symlinks resolved as far as it exists, lies inside `root` (also resolved). */
export function isInside(root: string, file: string): boolean {
  const realRoot = realOrResolved(root);
  const real = realOrResolved(file);
  const rel = path.relative(realRoot, real);
  return rel !== '' && !rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel);
}

/** The real path of the longest existing prefix of `file`, with the rest appended. */
function realOrResolved(file: string): string {
  let at = path.resolve(file);
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(realpathSync(at), ...rest);
    } catch {
      const parent = path.dirname(at);
      if (parent === at) return path.resolve(file);
      rest.unshift(path.basename(at));
      at = parent;
    }
  }
}

/**
 * Whether text declares itself a ctrlrun policy or manifest (`schema: ctrlrun.…` on a line of its
 * own, quoted or not, or as a flow mapping's first key). Only such files are shown in code frames
 * or reported on line by line: a `.env`, a key, `/proc/self/environ` named as a policy is not.
 */
export function declaresCtrlrunSchema(text: string): boolean {
  return /^[ \t]*\{?[ \t]*["']?schema["']?[ \t]*:[ \t]*["']?ctrlrun\./m.test(text);
}
