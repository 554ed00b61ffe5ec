import type { Finding } from '../types.js';
import type { CheckReport } from './types.js';

/** The report of a run: findings capped at `maxFindings` (in their stable order), counts over all. */
export function buildReport(findings: Finding[], counts: { filesConsidered: number; filesParsed: number }, maxFindings?: number): CheckReport {
  const shown = maxFindings !== undefined && maxFindings >= 0 ? findings.slice(0, maxFindings) : findings;
  return {
    findings: shown,
    summary: {
      errors: findings.filter((f) => f.severity === 'error').length,
      warnings: findings.filter((f) => f.severity === 'warning').length,
      total: findings.length,
      omitted: findings.length - shown.length,
      filesConsidered: counts.filesConsidered,
      filesParsed: counts.filesParsed,
    },
  };
}
