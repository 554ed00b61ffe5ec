import type { RepoScan } from '../scan/types.js';
import { findTools } from './render.js';

/**
 * The tools init leaves alone because they are declared only in test files (the scanner keeps those
 * apart: src/scan/test-files.ts): a tool name the app also declares is the app's, mapped from the
 * app's declaration; the others are test doubles.
 */
export interface TestOnlyTools {
  /** How many: the test-only names, and each unnamed tool() call of a test file. */
  count: number;
  /** Where they are declared, `file:line`, in scan order (unnamed tool() calls of test files included). */
  places: string[];
}

export function testOnlyTools(scan: RepoScan, appNames: ReadonlySet<string>): TestOnlyTools {
  const found = findTools({ ...scan, files: scan.testFiles ?? [] });
  const tools = found.tools.filter((t) => !appNames.has(t.name));
  return {
    count: tools.length + found.unnamed.length,
    places: [...tools.flatMap((t) => t.places), ...found.unnamed].map((p) => `${p.file}:${p.line}`),
  };
}

/** The line init prints about them, or undefined when there are none. */
export function testOnlyToolsNote(left: TestOnlyTools): string | undefined {
  const n = left.count;
  if (n === 0) return undefined;
  const shown = left.places.slice(0, 3).join(', ') + (left.places.length > 3 ? ', …' : '');
  return (
    `note: ${n} tool${n === 1 ? '' : 's'} found only in test files, left as they are (${shown}): a test double is not one of the app's doors. ` +
    'To protect one anyway, map it in ctrlrun.tools.yaml and name its file to the codemod (`ctrlrun-gen codemod --write <file>`)\n'
  );
}
