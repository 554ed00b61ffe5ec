// A process spending one budget: opens the store (dist/), says {"ready":true}, waits for "go" on
// stdin, reserves each of its effect keys with the same charge, and says {"outcome":"reserved,budget_exhausted,…"}.
import { createInterface } from 'node:readline';
import { sqliteStore } from '../../../dist/runtime/sqlite.js';
import { postgresStore } from '../../../dist/runtime/postgres.js';

const config = JSON.parse(process.argv[2]);
const say = (event) => process.stdout.write(`${JSON.stringify(event)}\n`);
const store =
  config.store.kind === 'sqlite'
    ? sqliteStore({ path: config.store.path, ...(config.store.driver ? { driver: config.store.driver } : {}) })
    : postgresStore({ connectionString: config.store.connectionString, schema: config.store.schema, max: 2 });
try {
  await store.getEffect('warm-up'); // open and migrate before the race
  say({ ready: true });
  await new Promise((resolve) => {
    const lines = createInterface({ input: process.stdin });
    lines.on('line', (line) => {
      if (line.trim() === 'go') {
        lines.close();
        resolve();
      }
    });
  });
  const outcomes = [];
  for (const key of config.keys) {
    const r = await store.reserveEffect({
      key,
      action: 'stripe.refund',
      attemptId: key,
      maxAttempts: 1,
      now: config.now,
      leaseMs: 60_000,
      charges: [config.charge],
    });
    outcomes.push(r.outcome);
  }
  say({ outcome: outcomes.join(',') });
} catch (error) {
  say({ error: error instanceof Error ? error.message : String(error) });
} finally {
  await store.close();
  process.exit(0); // stdin stays open otherwise
}
