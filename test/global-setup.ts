import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm test` brings its own PostgreSQL when none is configured: if CTRLRUN_TEST_PG_URL is unset and
 * the server's binaries are installed, `.ci/postgres.sh` starts a throwaway cluster on a free
 * loopback port for this run and stops it afterwards. In CI `.ci/run` has already started one.
 */
const SCRIPT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../.ci/postgres.sh');

/** The property tests' seed in CI: the same every run, so CI fails only on a change. */
export const CI_FAST_CHECK_SEED = 20_260_430;

/**
 * The seed of this run's property tests (test/fast-check-seed.ts): CTRLRUN_FC_SEED when given (a
 * replay, or .ci/run's rotating run), the fixed one in CI, a random one elsewhere; printed once.
 */
export function chooseFastCheckSeed(env: NodeJS.ProcessEnv): number {
  const given = Number(env.CTRLRUN_FC_SEED);
  if (env.CTRLRUN_FC_SEED && Number.isSafeInteger(given)) return given;
  return env.CI === 'true' ? CI_FAST_CHECK_SEED : Math.floor(Math.random() * 2 ** 31);
}

export default function setup(): (() => void) | undefined {
  const seed = chooseFastCheckSeed(process.env);
  process.env.CTRLRUN_FC_SEED = String(seed);
  console.log(`fast-check seed ${seed} (replay a property test with CTRLRUN_FC_SEED=${seed})`);
  return startPostgres();
}

function startPostgres(): (() => void) | undefined {
  if (process.env.CTRLRUN_TEST_PG_URL) return undefined;
  const started = spawnSync(
    'bash',
    [
      '-c',
      `source "${SCRIPT}"; find_pg_bin >/dev/null || exit 3; start_postgres >&2 || exit 4; printf '%s\\n%s\\n%s\\n' "$CTRLRUN_TEST_PG_URL" "$PG_DATA" "$PG_BIN"`,
    ],
    { encoding: 'utf8', timeout: 120_000 },
  );
  if (started.status !== 0) {
    if (started.status !== 3) console.warn(`could not start a test PostgreSQL: ${started.stderr.trim()}`);
    return undefined;
  }
  const [url, data, bin] = started.stdout.trim().split('\n');
  process.env.CTRLRUN_TEST_PG_URL = url;
  return () => {
    spawnSync('bash', ['-c', `source "${SCRIPT}"; PG_DATA="${data}" PG_BIN="${bin}" stop_postgres`], { timeout: 60_000 });
  };
}
