import { lstatSync } from 'node:fs';
import { UserError } from '../diagnostics.js';
import { displayPath } from '../format-diagnostics.js';
import { describeWriteFailure, WriteSetError, writeAll, type WriteFs } from '../fs/write-all.js';
import { encodeSource } from '../scan/decode.js';
import { readSourceText } from '../scan/repo.js';
import type { FileChange } from './types.js';

/**
 * A file of a write set: a rewrite's `FileChange`, or a file made anew (`before` undefined: it must
 * still not exist when the set is written; `check --fix` plans a missing generated module so).
 */
export type SetChange = Omit<FileChange, 'before'> & { before: string | undefined };

/**
 * Writes the changes all or nothing (src/fs/write-all.ts), and only when every file still holds the
 * text that was analysed (fail closed on a race): otherwise nothing is written and the files that
 * changed are listed in `changedOnDisk`. A write that fails throws WriteSetError with nothing written.
 */
export function writeChanges(changes: readonly SetChange[], fs?: WriteFs): { written: string[]; changedOnDisk: string[] } {
  const changedOnDisk = changes.filter(changedSincePlanned).map((c) => c.file);
  if (changedOnDisk.length > 0) return { written: [], changedOnDisk };
  writeAll(
    changes.map((c) => ({ file: c.file, text: c.encoding ? encodeSource(c.after, c.encoding) : c.after })),
    fs,
  );
  return { written: changes.map((c) => c.file), changedOnDisk: [] };
}

/** Whether a file no longer holds what was planned from: other text, or there at all when it was planned as new (even a dangling link). */
function changedSincePlanned(change: SetChange): boolean {
  if (change.before !== undefined) return readSourceText(change.file) !== change.before;
  try {
    lstatSync(change.file);
    return true;
  } catch {
    return false;
  }
}

/** What a write set did: the files written (all the set's, or none) and the files that changed while the codemod ran. */
export interface WriteOutcome {
  written: string[];
  changedOnDisk: string[];
}

/** A set's writer: `writeChanges`; tests hand in one that changes a file or fails between the plan and the write. */
export type ChangeWriter = (changes: readonly SetChange[]) => WriteOutcome;

/**
 * The rewrite as a command writes it (`codemod --write`, `check --fix`): all or nothing through
 * `write`; a file that cannot be written is a located user error naming the command.
 */
export function writeChangeSet(changes: readonly SetChange[], cwd: string, command: string, write: ChangeWriter = writeChanges): WriteOutcome {
  try {
    return write(changes);
  } catch (error) {
    if (!(error instanceof WriteSetError)) throw error;
    const n = changes.length;
    throw new UserError(
      `${command}: cannot write ${displayPath(error.file, cwd)}: ${describeWriteFailure(error)}; nothing was written (${n} file${n === 1 ? '' : 's'} planned, every one left as it was). Make it writable and run again`,
    );
  }
}
