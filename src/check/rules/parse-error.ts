import type { FileScan } from '../../scan/types.js';
import type { Finding, RuleMeta } from '../types.js';
import { findingOf } from './rule-finding.js';

export const parseErrorMeta: RuleMeta = {
  id: 'parse-error',
  severity: 'error',
  short: 'A source file does not parse, so it could not be checked.',
  full: 'A file with a syntax error is reported rather than skipped in silence: a door in it would go unseen. Nothing else is reported for that file.',
  help: 'Fix the syntax error (your compiler reports the same place).',
};

/** `parse-error`: the file does not parse. */
export function parseErrorRule(scan: FileScan): Finding[] {
  if (!scan.parseError) return [];
  return [
    findingOf(
      parseErrorMeta,
      scan.file,
      scan.parseError,
      `This file does not parse (${scan.parseError.message}), so it was not checked.`,
      'Fix the syntax error; nothing else in this file is checked until it parses.',
    ),
  ];
}
