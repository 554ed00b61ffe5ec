import path from 'node:path';
import { COMPONENT_EXTENSIONS } from './component-script.js';

/** The extensions the scanner reads. `.d.ts` files are excluded by the repo walk, not here. */
export const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'] as const;

/**
 * A file the scanner reads: a module (`SOURCE_EXTENSIONS`) or a component whose code it reads in
 * place (`COMPONENT_EXTENSIONS`: a tool in a Vue `<script setup>` is a door too).
 */
export function isSourceFile(file: string): boolean {
  const ext = path.extname(file).toLowerCase();
  if (!(SOURCE_EXTENSIONS as readonly string[]).includes(ext)) return (COMPONENT_EXTENSIONS as readonly string[]).includes(ext);
  return !/\.d\.[cm]?ts$/i.test(file);
}
