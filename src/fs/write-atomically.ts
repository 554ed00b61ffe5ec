import { renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tempBeside } from './write-all.js';

/** Writes `text` to `file` atomically: a temp file in the same directory (same mode), then a rename. */
export function writeAtomically(file: string, text: string | Buffer): void {
  const tmp = tempBeside(file);
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
