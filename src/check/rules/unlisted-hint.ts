import { UNLISTED_HINT, type UnlistedKind } from '../../scan/unlisted-imports.js';
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

/**
 * What replaces "the codemod rewrites it" in another rule's hint in such a module: the codemod
 * leaves it (session 28), so the fix is made in its own package, or by its generator.
 */
const UNLISTED_CODEMOD_NOTE: Readonly<Record<UnlistedKind, string>> = {
  outside:
    'The codemod does not rewrite this module (it is outside this package, which imports it): make the fix in its own package (`npx ctrlrun-gen init` there, then generate and codemod), or move the door into this package. The fix',
  ignored:
    'The codemod does not rewrite this module (git ignores it: built at build time?): make its generator write the fix, or declare the door in a file of the repository. The fix',
};

/**
 * Any other finding in such a module whose hint sends the user to the codemod (or `check --fix`)
 * says first that the codemod leaves the module, then what the fix is (issue 40 item 4).
 */
export function inUnlistedModule(scan: FileScan, f: Finding): Finding {
  const kind = scan.unlisted;
  if (kind === undefined || f.file !== scan.file || f.hint === UNLISTED_HINT[kind] || !/codemod|--fix/.test(f.hint)) return f;
  return { ...f, hint: `${UNLISTED_CODEMOD_NOTE[kind]}: ${f.hint}` };
}
