import type { Finding } from '../types.js';
import { findingAt } from './finding.js';

/**
 * `stale-generated`: compares what `generate` would write with the file on disk (`undefined`: no file).
 * `file` is the path findings name (relative to the working directory).
 */
export function staleGeneratedRule(file: string, expected: string, actual: string | undefined): Finding[] {
  if (actual === expected) return [];
  if (actual === undefined) {
    return [
      findingAt(
        'stale-generated',
        file,
        { line: 1, column: 1 },
        'The generated module does not exist: protectedTool() has no compiled policy to enforce.',
        'Run `npx ctrlrun-gen generate` and commit the result.',
      ),
    ];
  }
  const expectedLines = expected.split('\n');
  const actualLines = actual.split('\n');
  let line = 0;
  while (line < expectedLines.length && line < actualLines.length && expectedLines[line] === actualLines[line]) line++;
  const lineNo = Math.min(line + 1, Math.max(actualLines.length, 1));
  return [
    findingAt(
      'stale-generated',
      file,
      { line: lineNo, column: 1 },
      `The generated module is stale: it differs from what \`generate\` would write from line ${line + 1} on, so the code enforces an old policy.`,
      'Run `npx ctrlrun-gen generate` and commit the result (never edit the generated module by hand).',
    ),
  ];
}
