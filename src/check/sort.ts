import type { Finding } from './types.js';

function cmp(a: string | number, b: string | number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Stable order: file, line, column, ruleId, then message. */
export function compareFindings(a: Finding, b: Finding): number {
  return cmp(a.file, b.file) || cmp(a.line, b.line) || cmp(a.column, b.column) || cmp(a.ruleId, b.ruleId) || cmp(a.message, b.message);
}
