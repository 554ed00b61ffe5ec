import { realpathSync } from 'node:fs';
import path from 'node:path';
import { DOOR_WORDS } from './door-words.js';
import { readLayout, type ConfigLayout } from './layout.js';
import { aliasTokens } from './links.js';
import type { RepoListing } from './list.js';
import { isPlainUtf8Read, makePrefilter, NAMES_WORD, PASSES, type Prefilter } from './prefilter.js';
import { readRegularFile, readRegularText } from '../safe-read.js';

/** A file as read: its bytes, or the error code reading it failed with (`ENOENT`, `EACCES`, …). */
export type FileRead = Buffer | { code: string };

/**
 * A prefilter verdict on a file read ahead: plain UTF-8 that the prefilter passes or not (and then
 * whether it names a door word, for the door-writer search: the same latin1 read of the bytes), or
 * not plain UTF-8 (the scan decodes it).
 */
export const PLAIN_SKIP = 0;
export const PLAIN_PARSE = 1;
export const NOT_PLAIN = 2;
export const PLAIN_SKIP_DOOR_WORD = 3;
export type Verdict = typeof PLAIN_SKIP | typeof PLAIN_PARSE | typeof NOT_PLAIN | typeof PLAIN_SKIP_DOOR_WORD;

/**
 * The prefilter a listed repo's scan uses (its tokens: the aliases the listed configs give, or
 * `configs` when the root's were read once) and its verdict on a file's bytes: the one rule of the
 * reading thread (read-worker.ts) and of a read on the calling thread (read-here.ts), so the scan
 * can take either's verdicts for its own.
 */
export function listingPrefilter(listing: RepoListing, configs?: ConfigLayout): { tokens: string[]; verdictOf: (bytes: Buffer) => Verdict } {
  const tokens = aliasTokens(readLayout(listing.files, listing.configs, configs));
  const prefilter = makePrefilter(tokens, DOOR_WORDS);
  return { tokens, verdictOf: (bytes) => fileVerdict(prefilter, bytes) };
}

/**
 * A file's verdict by a prefilter made with the door words (`makePrefilter(tokens, DOOR_WORDS)`):
 * the bytes read as latin1 once, and every question asked of that string.
 */
export function fileVerdict(prefilter: Prefilter, bytes: Buffer): Verdict {
  const latin1 = bytes.toString('latin1');
  if (!isPlainUtf8Read(bytes, latin1)) return NOT_PLAIN;
  const classified = prefilter.classify(bytes, latin1);
  return classified === PASSES ? PLAIN_PARSE : classified === NAMES_WORD ? PLAIN_SKIP_DOOR_WORD : PLAIN_SKIP;
}

/** A repo's listing and the bytes of every listed file, read ahead of the scan (read-worker.ts). */
export interface RepoRead {
  listing: RepoListing;
  files: Map<string, FileRead>;
  /** The prefilter's verdicts on the files read, and the repo tokens it used (the scan uses them only for the same tokens). */
  prefilter?: { tokens: readonly string[]; verdicts: Map<string, Verdict> };
  /** What the listed root's config files say, when it was read once for the reads of several of its folders. */
  root?: RootConfigs;
}

/**
 * A root's config files read once, for the scans of several of its folders (the regions of a
 * workspace root: check/uncovered-packages.ts): the layout they give and which files are tests.
 * Both are functions of the root and its configs alone, so each folder's scan would find the same.
 */
export interface RootConfigs {
  layout: ConfigLayout;
  isTest: (rel: string) => boolean;
}

/** A root listed once, with its configs read: a folder of it is read from `listing` narrowed to the folder. */
export interface ListedRoot {
  listing: RepoListing;
  configs: RootConfigs;
}

/**
 * The files' bytes packed into one buffer, to cross a thread boundary as a single transferable:
 * file `i` is `arena[offsets[i] .. offsets[i] + lengths[i]]`, or failed with `codes[i]` (a length of -1).
 */
export interface PackedFiles {
  arena: ArrayBuffer;
  offsets: Float64Array;
  lengths: Float64Array;
  codes: Array<string | undefined>;
}

/**
 * How the scan reads a listed file. Git lists a symbolic link, not what it points to: a link to
 * another listed file is not read a second time under another name (that file is scanned under its
 * own: one finding, one rewrite, the link left a link), it throws with code `ELINKED`. A link to a
 * file outside the listing is read through; a loop or a dangling link throws ELOOP or ENOENT. A FIFO,
 * socket or device throws ENOTREG (readRegularFile) instead of waiting for a writer.
 */
export function listedFileReader(root: string, files: readonly string[]): (abs: string) => Buffer {
  const listed = new Set(files);
  let realRoot: string | undefined;
  return (abs) => {
    try {
      return readRegularFile(abs, { follow: false });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOOP') throw error;
    }
    const real = realpathSync(abs); // a loop: ELOOP; dangling: ENOENT
    realRoot ??= realpathOr(root);
    const inRoot = path.join(root, path.relative(realRoot, real));
    if (real !== abs && (listed.has(real) || listed.has(inRoot))) {
      throw Object.assign(new Error(`ELINKED: ${abs} is a link to a listed file`), { code: 'ELINKED' });
    }
    return readRegularFile(real);
  };
}

function realpathOr(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}

/**
 * Reads each file (synchronously: for many small files it beats the thread pool) and packs the
 * bytes; `onRead` sees each file's bytes as they are read.
 */
export function packFiles(root: string, files: readonly string[], onRead?: (index: number, bytes: Buffer) => void): PackedFiles {
  const read = listedFileReader(root, files);
  const bufs: Array<Buffer | undefined> = [];
  const codes: Array<string | undefined> = [];
  let total = 0;
  for (let i = 0; i < files.length; i++) {
    const abs = files[i]!;
    try {
      const buf = read(abs);
      onRead?.(i, buf);
      bufs.push(buf);
      codes.push(undefined);
      total += buf.length;
    } catch (error) {
      bufs.push(undefined);
      codes.push((error as NodeJS.ErrnoException).code ?? 'error');
    }
  }
  const arena = new ArrayBuffer(total);
  const view = new Uint8Array(arena);
  const offsets = new Float64Array(files.length);
  const lengths = new Float64Array(files.length);
  let at = 0;
  for (let i = 0; i < files.length; i++) {
    const buf = bufs[i];
    offsets[i] = at;
    if (!buf) {
      lengths[i] = -1;
      continue;
    }
    view.set(buf, at);
    lengths[i] = buf.length;
    at += buf.length;
  }
  return { arena, offsets, lengths, codes };
}

/** The verdicts back by file name (NOT_PLAIN where a file was not read: the scan decides). */
export function verdictsByFile(files: readonly string[], verdicts: Uint8Array): Map<string, Verdict> {
  const out = new Map<string, Verdict>();
  for (let i = 0; i < files.length; i++) {
    const v = verdicts[i];
    if (v === PLAIN_SKIP || v === PLAIN_PARSE || v === PLAIN_SKIP_DOOR_WORD) out.set(files[i]!, v);
  }
  return out;
}

/** The files back from a pack: views into the one buffer (no copy). */
export function unpackFiles(files: readonly string[], packed: PackedFiles): Map<string, FileRead> {
  const out = new Map<string, FileRead>();
  for (let i = 0; i < files.length; i++) {
    const length = packed.lengths[i]!;
    out.set(files[i]!, length < 0 ? { code: packed.codes[i] ?? 'error' } : Buffer.from(packed.arena, packed.offsets[i]!, length));
  }
  return out;
}

/**
 * A listed file's text (UTF-8) from the bytes `read` holds, as `readRegularText` would read it from
 * disk: a file the read could not take (a link to another listed file, an error) is read from disk,
 * so the answer, or the error, is the disk's.
 */
export function listedTextReader(read: RepoRead): (file: string) => string {
  return (file) => {
    const bytes = read.files.get(file);
    return Buffer.isBuffer(bytes) ? bytes.toString('utf8') : readRegularText(file);
  };
}
