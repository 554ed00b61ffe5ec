import type { Diagnostic } from '../../diagnostics.js';
import type { Finding } from '../types.js';

const DEFAULT_HINT = 'Fix the file at this location (`npx ctrlrun-gen validate` lists every error), or create the files with `npx ctrlrun-gen init`.';

/** The loader's located errors as `policy-invalid` findings (`toFile` makes the path relative). */
export function policyInvalidFindings(diagnostics: Diagnostic[], toFile: (file: string) => string): Finding[] {
  return diagnostics
    .filter((d) => d.severity === 'error')
    .map((d) => ({
      ruleId: 'policy-invalid',
      severity: 'error' as const,
      file: toFile(d.file),
      line: Math.max(1, d.line),
      column: Math.max(1, d.column),
      message: d.path ? `${d.message} (at ${d.path})` : d.message,
      hint: d.hint ?? DEFAULT_HINT,
    }));
}
