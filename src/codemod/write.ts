import { randomBytes } from 'node:crypto';
import { renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Writes `text` to `file` atomically: a temp file in the same directory (same mode), then a rename. */
export function writeAtomically(file: string, text: string): void {
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
