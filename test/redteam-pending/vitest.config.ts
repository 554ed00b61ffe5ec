import { defineConfig } from 'vitest/config';

/**
 * Failing tests the red team found and left for a later session (the main config does not pick
 * them up: `*.pending.ts`). Run one with
 * `npx vitest run --config test/redteam-pending/vitest.config.ts <file>`; move it beside its
 * neighbours as `*.test.ts` once it passes.
 */
export default defineConfig({
  test: {
    include: ['test/redteam-pending/**/*.pending.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/fast-check-seed.ts'],
    pool: 'forks',
    testTimeout: 60_000,
  },
});
