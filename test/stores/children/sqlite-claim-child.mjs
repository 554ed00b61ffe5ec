// One claim on a SQLite file, then an end: `node sqlite-claim-child.mjs '{"file","driver","after"}'`.
// Prints the claim's answer as one JSON line (written synchronously), then with `after: "kill"`
// kills its own process at once (SIGKILL: no close, no exit handler, nothing after the answer).
import { writeSync } from 'node:fs';
import { sqliteStore } from '../../../dist/runtime/sqlite.js';

const { file, driver, after } = JSON.parse(process.argv[2]);
const store = sqliteStore({ path: file, driver });
await store.getRequest('c1'); // opened before the claim: the claim is the only write
let answer;
try {
  const result = await store.claimApproval('c1', 4_000, { action: 'stripe.refund', argsHash: 'a'.repeat(64), policyHash: 'p'.repeat(64), principal: 'alice' });
  answer = { outcome: result.outcome, request: result.request };
} catch (error) {
  answer = { error: error.message, code: error.code };
}
writeSync(1, `${JSON.stringify(answer)}\n`);
if (after === 'kill') process.kill(process.pid, 'SIGKILL');
await store.close();
