import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (where package.json is). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const FIXTURES = path.join(REPO_ROOT, 'fixtures');
/** The built CLI, the file package.json's `bin` names: the bundle (tests run after `npm run build`). */
export const CLI_BIN = path.join(REPO_ROOT, 'dist/bin/ctrlrun-gen.cjs');

/**
 * Fails, saying why, when `npm run build` has not written `file` (relative to the root; the
 * runtime's types by default): a test that reads dist/ says so rather than failing on what follows
 * (a type-check's "Cannot find module 'ctrlrun-gen/runtime'"). `why`: what the test reads it for.
 * The test does not build it itself: other test files read dist/ at the same time.
 */
export function requireBuilt(why: string, file = 'dist/runtime/index.d.ts'): void {
  if (!existsSync(path.join(REPO_ROOT, file))) throw new Error(`${file} is missing: run \`npm run build\` before this test (${why})`);
}
