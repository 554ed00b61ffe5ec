import { doorLeftText } from '../codemod/door-words.js';
import { doorsLeftByHand } from '../codemod/hand-doors.js';
import type { FileScan } from '../scan/types.js';

/**
 * The doors the codemod leaves as conflicts whatever the manifest maps (a door written as an object
 * literal, a function tool written by hand, `needsApproval` given to a protected tool, a handoff's
 * `onInvokeHandoff` written, a door's part written after it is made): init cannot map them either,
 * so its notes name them, counted, at the codemod's places and in its words (issue 40 item 4), before
 * the codemod does. A module outside the package (the codemod names it as a whole) is left out.
 */
export function handDoorNotes(files: readonly FileScan[]): string[] {
  const left = files.filter((f) => f.unlisted === undefined).flatMap((f) => doorsLeftByHand(f, f.file));
  if (left.length === 0) return [];
  const one = left.length === 1;
  const head = `note: ${left.length} door${one ? '' : 's'} the codemod cannot rewrite: it names ${one ? 'it' : 'each'} as a conflict, and check reports ${one ? 'it' : 'each'} until it is rewritten by hand:\n`;
  return [head, ...left.map((f) => `note: ${f.file}:${f.line}:${f.column}: ${doorLeftText(f)}\n    hint: ${f.hint}\n`)];
}
