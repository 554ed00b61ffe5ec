import { statSync } from 'node:fs';
import path from 'node:path';

/*
 * The repo walk reads no `.d.ts` (it holds no code to scan), but a type written in one is still
 * the app's (issue 40: `types.d.ts` declaring `interface Pending { state: RunState }`, imported as
 * `./types.js`). TypeScript resolves a relative specifier to it when no source file answers; the
 * readers of another file's types follow it the same way, inside the repo only.
 */

/** The declaration file a relative `specifier` of `fromFile` names (`./types.js` -> `types.d.ts`), or undefined. */
export function declarationFileFor(specifier: string, fromFile: string, root: string): string | undefined {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  const abs = path.resolve(path.dirname(fromFile), specifier);
  const inside = path.relative(root, abs);
  if (inside.startsWith('..') || path.isAbsolute(inside) || inside.split(path.sep).includes('node_modules')) return undefined;
  const stem = abs.replace(/\.[mc]?[jt]s$/, '');
  const candidates = /\.d\.[mc]?ts$/.test(abs) ? [abs] : [`${stem}.d.ts`, `${stem}.d.mts`, `${stem}.d.cts`, path.join(abs, 'index.d.ts')];
  return candidates.find(isFile);
}

function isFile(abs: string): boolean {
  try {
    return statSync(abs).isFile();
  } catch {
    return false;
  }
}
