import fc from 'fast-check';

/**
 * Every property test of a run uses one seed (vitest setupFiles: this file runs in each test
 * worker): CTRLRUN_FC_SEED, which test/global-setup.ts picks and prints once per run (fixed in CI,
 * random elsewhere). fast-check names the seed in every failure; replay a run with
 * `CTRLRUN_FC_SEED=<seed> npx vitest run <file>`.
 */
const seed = Number(process.env.CTRLRUN_FC_SEED);
if (Number.isSafeInteger(seed)) fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
