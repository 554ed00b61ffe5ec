import path from 'node:path';

/** The extensions the scanner reads. `.d.ts` files are excluded by the repo walk, not here. */
export const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'] as const;

export function isSourceFile(file: string): boolean {
  const ext = path.extname(file).toLowerCase();
  if (!(SOURCE_EXTENSIONS as readonly string[]).includes(ext)) return false;
  return !/\.d\.[cm]?ts$/i.test(file);
}
