import { UNLISTED_HINT } from '../../scan/unlisted-imports.js';
import type { FileScan } from '../../scan/types.js';
import type { Finding } from '../types.js';

/**
 * A tool finding in a module the listing leaves out (another package's, or one git ignores: the
 * scan reads it because the package's code imports it) gets the advice for that place instead of
 * the codemod's, which does not rewrite such a module (issue 40 item 4).
 */
export function withUnlistedHint(scan: FileScan, findings: Finding[]): Finding[] {
  const kind = scan.unlisted;
  return kind === undefined ? findings : findings.map((f) => ({ ...f, hint: UNLISTED_HINT[kind] }));
}
