import { formatGithub } from './github.js';
import { formatJson } from './json.js';
import { formatSarif } from './sarif.js';
import { formatText } from './text.js';
import type { CheckReport, Format, SourceReader } from './types.js';

export { buildReport } from './build.js';
export type { CheckReport, Format, ReportSummary, SourceReader } from './types.js';
export { FORMATS } from './types.js';

/** Renders a report in one of the formats. */
export function formatReport(format: Format, report: CheckReport, options: { color: boolean; readSource: SourceReader }): string {
  switch (format) {
    case 'text':
      return formatText(report, options);
    case 'json':
      return formatJson(report);
    case 'sarif':
      return formatSarif(report, options);
    case 'github':
      return formatGithub(report);
  }
}
