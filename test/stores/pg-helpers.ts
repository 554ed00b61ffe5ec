import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, it } from 'vitest';

/** The test server, from CTRLRUN_TEST_PG_URL (CI exports it; see docs/postgres.md). */
export const PG_URL = process.env.CTRLRUN_TEST_PG_URL;

/**
 * `describe` for Postgres tests. `npm test` starts a server itself when the binaries are installed
 * (test/global-setup.ts). With no server URL: in CI (`CI=true`) the block FAILS (a test that throws,
 * naming the variable); locally it is skipped with a message saying how to run it.
 */
export function describePostgres(name: string, body: (url: string) => void): void {
  if (PG_URL) {
    describe(name, () => body(PG_URL));
    return;
  }
  const message = `${name}: CTRLRUN_TEST_PG_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/postgres)`;
  if (process.env.CI === 'true') {
    describe(name, () => {
      it('needs a Postgres server in CI', () => {
        throw new Error(`${message}; in CI the Postgres tests must run`);
      });
    });
    return;
  }
  // Locally, with no server binaries to start one (see test/global-setup.ts): said, then skipped.
  console.warn(`skipped: ${message}`);
  describe.skipIf(true)(name, () => body(''));
}

/** A fresh schema name per test file, so runs never collide. */
export function freshSchema(): string {
  return `ctrlrun_test_${randomBytes(6).toString('hex')}`;
}

export async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
