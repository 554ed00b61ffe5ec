import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm test` brings its own PostgreSQL when none is configured: if CTRLRUN_TEST_PG_URL is unset and
 * the server's binaries are installed, `.ci/postgres.sh` starts a throwaway cluster on a free
 * loopback port for this run and stops it afterwards. In CI `.ci/run` has already started one.
 */
const SCRIPT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../.ci/postgres.sh');

export default function setup(): (() => void) | undefined {
  if (process.env.CTRLRUN_TEST_PG_URL) return undefined;
  const started = spawnSync(
    'bash',
    ['-c', `source "${SCRIPT}"; find_pg_bin >/dev/null || exit 3; start_postgres >&2 || exit 4; printf '%s\\n%s\\n%s\\n' "$CTRLRUN_TEST_PG_URL" "$PG_DATA" "$PG_BIN"`],
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
