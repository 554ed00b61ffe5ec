import { writeAll, type WriteFs } from '../fs/write-all.js';
import { encodeSource } from '../scan/decode.js';
import { readSourceText } from '../scan/repo.js';
import type { FileChange } from './types.js';

/**
 * Writes the changes all or nothing (src/fs/write-all.ts), and only when every file still holds the
 * text that was analysed (fail closed on a race): otherwise nothing is written and the files that
 * changed are listed in `changedOnDisk`. A write that fails throws WriteSetError with nothing written.
 */
export function writeChanges(changes: readonly FileChange[], fs?: WriteFs): { written: string[]; changedOnDisk: string[] } {
  const changedOnDisk = changes.filter((c) => readSourceText(c.file) !== c.before).map((c) => c.file);
  if (changedOnDisk.length > 0) return { written: [], changedOnDisk };
  writeAll(
    changes.map((c) => ({ file: c.file, text: c.encoding ? encodeSource(c.after, c.encoding) : c.after })),
    fs,
  );
  return { written: changes.map((c) => c.file), changedOnDisk: [] };
}
