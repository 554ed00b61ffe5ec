import type { Diagnostic } from '../../diagnostics.js';
import type { Finding, RuleMeta } from '../types.js';

export const policyInvalidMeta: RuleMeta = {
  id: 'policy-invalid',
  severity: 'error',
  short: 'The policy or the tool manifest does not load.',
  full: "Nothing can be checked against a policy that does not load: the finding is the loader's own located error (the same as `validate` prints), and `check` exits 2 (a configuration error).",
  help: 'Fix the file at the location given (`npx ctrlrun-gen validate` lists every error), or create it with `npx ctrlrun-gen init`.',
};

const DEFAULT_HINT = 'Fix the file at this location (`npx ctrlrun-gen validate` lists every error), or create the files with `npx ctrlrun-gen init`.';

/** The loader's located errors as `policy-invalid` findings (`toFile` makes the path relative). */
export function policyInvalidFindings(diagnostics: Diagnostic[], toFile: (file: string) => string): Finding[] {
  return diagnostics
    .filter((d) => d.severity === 'error')
    .map((d) => ({
      ruleId: policyInvalidMeta.id,
      severity: policyInvalidMeta.severity,
      file: toFile(d.file),
      line: Math.max(1, d.line),
      column: Math.max(1, d.column),
      message: d.path ? `${d.message} (at ${d.path})` : d.message,
      hint: d.hint ?? DEFAULT_HINT,
    }));
}
