import type { Finding } from '../types.js';

export interface ReportSummary {
  /** Errors among all findings (also those left out by --max-findings). */
  errors: number;
  warnings: number;
  /** All findings. */
  total: number;
  /** Findings left out of `findings` by --max-findings. */
  omitted: number;
  /** Files considered after ignore rules, and those parsed after the text prefilter. */
  filesConsidered: number;
  filesParsed: number;
}

/** What every formatter renders. Paths are relative to the working directory. */
export interface CheckReport {
  findings: Finding[];
  summary: ReportSummary;
}

/** The text of a reported file (relative path), or undefined when it cannot be read. */
export type SourceReader = (file: string) => string | undefined;

export type Format = 'text' | 'json' | 'sarif' | 'github';
export const FORMATS: readonly Format[] = ['text', 'json', 'sarif', 'github'];
