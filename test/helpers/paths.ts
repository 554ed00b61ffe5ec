import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (where package.json is). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const FIXTURES = path.join(REPO_ROOT, 'fixtures');
/** The built CLI, the file package.json's `bin` names: the bundle (tests run after `npm run build`). */
export const CLI_BIN = path.join(REPO_ROOT, 'dist/bin/ctrlrun-gen.cjs');
