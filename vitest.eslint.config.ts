import { existsSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * The ESLint plugin's tests against another ESLint than the one in devDependencies:
 * `CTRLRUN_ESLINT_DIR` is an installed `eslint` package directory (the tests' `import ... from
 * 'eslint'` resolve there). `.ci/eslint-range` installs ESLint 9 into a throwaway prefix and runs
 * the plugin's tests and the mirrored rule cases with this config.
 */
const eslint = process.env.CTRLRUN_ESLINT_DIR;
if (!eslint || !existsSync(path.join(eslint, 'package.json'))) throw new Error('CTRLRUN_ESLINT_DIR must name an installed eslint package');

export default defineConfig({
  resolve: { alias: [{ find: /^eslint$/, replacement: path.join(eslint, 'lib/api.js') }] },
  test: {
    include: ['test/eslint/**/*.test.ts', 'test/check/rules/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
