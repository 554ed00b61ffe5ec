import type { Finding, RuleMeta } from '../types.js';
import { findingOf } from './rule-finding.js';

export const staleGeneratedMeta: RuleMeta = {
  id: 'stale-generated',
  severity: 'error',
  short: 'The generated module differs from what `generate` would write.',
  full: 'The protected tools enforce the policy compiled into the generated module; when ctrlrun.yaml or ctrlrun.tools.yaml changed since it was written, the code enforces an old policy (or the file is missing).',
  help: 'Run `npx ctrlrun-gen generate` and commit the result.',
};

/**
 * `stale-generated`: compares what `generate` would write with the file on disk (`undefined`: no file).
 * `file` is the path findings name (relative to the working directory).
 */
export function staleGeneratedRule(file: string, expected: string, actual: string | undefined): Finding[] {
  if (actual === expected) return [];
  if (actual === undefined) {
    return [
      findingOf(
        staleGeneratedMeta,
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
    findingOf(
      staleGeneratedMeta,
      file,
      { line: lineNo, column: 1 },
      `The generated module is stale: it differs from what \`generate\` would write from line ${line + 1} on, so the code enforces an old policy.`,
      'Run `npx ctrlrun-gen generate` and commit the result (never edit the generated module by hand).',
    ),
  ];
}
