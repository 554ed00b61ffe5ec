import { randomBytes } from 'node:crypto';
import { renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { encodeSource } from '../scan/decode.js';
import { readSourceText } from '../scan/repo.js';
import type { FileChange } from './types.js';

/** Writes `text` to `file` atomically: a temp file in the same directory (same mode), then a rename. */
export function writeAtomically(file: string, text: string | Buffer): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.ctrlrun-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  let mode: number | undefined;
  try {
    mode = statSync(file).mode & 0o7777;
  } catch {
    mode = undefined;
  }
  try {
    writeFileSync(tmp, text, mode === undefined ? {} : { mode });
    renameSync(tmp, file);
  } catch (error) {
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
    throw error;
  }
}

/**
 * Writes each change atomically, but only over a file that still holds the text that was analysed
 * (fail closed on a race): such a file is left alone and listed in `changedOnDisk`.
 */
export function writeChanges(changes: readonly FileChange[]): { written: string[]; changedOnDisk: string[] } {
  const written: string[] = [];
  const changedOnDisk: string[] = [];
  for (const change of changes) {
    if (readSourceText(change.file) !== change.before) {
      changedOnDisk.push(change.file);
      continue;
    }
    writeAtomically(change.file, change.encoding ? encodeSource(change.after, change.encoding) : change.after);
    written.push(change.file);
  }
  return { written, changedOnDisk };
}
