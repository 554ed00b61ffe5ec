import type { UnreadablePath } from '../../scan/types.js';
import type { Finding, RuleMeta } from '../types.js';
import { findingOf } from './rule-finding.js';

export const unreadableFileMeta: RuleMeta = {
  id: 'unreadable-file',
  severity: 'error',
  short: 'A source file or directory could not be read or decoded, so it was not checked.',
  full: 'check looks at every file git tracks and every untracked file .gitignore does not exclude. A file it cannot open (permissions), a directory it cannot list, or a file that is not valid UTF-8 or UTF-16 (byte-order marks are honoured) is reported rather than skipped in silence: a door in it would go unseen.',
  help: 'Make the file readable by the CI user, or save it as UTF-8; if it is not source code, give it another extension or ignore it in .gitignore (untracked files only).',
};

/** `unreadable-file`: from the repo listing, not from a parsed file. */
export function unreadableFindings(items: readonly UnreadablePath[]): Finding[] {
  return items.map((u) =>
    findingOf(
      unreadableFileMeta,
      u.file,
      { line: 1, column: 1 },
      `${u.message}, so it was not checked.`,
      'Make it readable by the CI user, or save it as UTF-8; if it is not source code, rename or ignore it.',
    ),
  );
}
