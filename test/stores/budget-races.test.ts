import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { postgresStore } from '../../src/runtime/postgres.js';
import { sqliteStore, type SqliteDriverName } from '../../src/runtime/sqlite.js';
import type { Store } from '../../src/runtime/types.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { describePostgres, dropSchema, freshSchema } from './pg-helpers.js';
import { describeEachSqliteDriver } from './sqlite-drivers.js';

/**
 * CTRLRun's budget race (SPEC-v0.9 §3.6): processes spending one budget at once, each on its own
 * effect keys (so the effects table's uniqueness does not serialise them), never spend past the
 * limit. Run several times: an unlocked sum-then-insert passes now and then (CTRLRun measured it
 * holding the limit in one run of four), so one run proves little.
 */
const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'children', 'budget-child.mjs');
const PROCESSES = 6;
const KEYS_EACH = 2;
const ROUNDS = 3;
const TIMEOUT = 180_000;

type Spec = { kind: 'sqlite'; path: string; driver: SqliteDriverName } | { kind: 'postgres'; connectionString: string; schema: string };

function open(spec: Spec): Store {
  return spec.kind === 'sqlite'
    ? sqliteStore({ path: spec.path, driver: spec.driver })
    : postgresStore({ connectionString: spec.connectionString, schema: spec.schema });
}

async function spendAtOnce(spec: Spec, grantId: string, round: number): Promise<string[]> {
  if (!existsSync(path.join(REPO_ROOT, 'dist/runtime/index.js'))) throw new Error('dist/ is missing: run `npm run build` before these tests');
  const charge = { grantId, metric: 'amount', amount: '10', limit: '50', windowMs: 3_600_000 };
  const children = Array.from({ length: PROCESSES }, (_, p) => {
    const keys = Array.from({ length: KEYS_EACH }, (_, k) => `refund:${grantId}:${round}:${p}:${k}`);
    const child = spawn(process.execPath, [CHILD, JSON.stringify({ store: spec, keys, charge, now: 1_000_000 })], {
      cwd: REPO_ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const events: Array<Record<string, unknown>> = [];
    let stderr = '';
    let buffer = '';
    let onReady: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => (onReady = resolve));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const event = JSON.parse(buffer.slice(0, nl)) as Record<string, unknown>;
        buffer = buffer.slice(nl + 1);
        events.push(event);
        if (event.ready) onReady();
      }
    });
    const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
    return { child, events, ready, exited, stderr: () => stderr };
  });
  await Promise.race([Promise.all(children.map((c) => c.ready)), Promise.all(children.map((c) => c.exited))]);
  for (const c of children) c.child.stdin.end('go\n');
  await Promise.all(children.map((c) => c.exited));
  return children.flatMap((c) => {
    const last = c.events.at(-1);
    if (typeof last?.outcome !== 'string') throw new Error(`a child ended without an outcome: ${JSON.stringify(last)} ${c.stderr()}`);
    return last.outcome.split(',');
  });
}

function scenario(name: string, makeSpec: () => Spec, cleanup: (spec: Spec) => Promise<void> = async () => undefined) {
  it(`${PROCESSES} processes x ${KEYS_EACH} reservations against a budget of 5: exactly 5 reserved, ${ROUNDS} rounds (${name})`, {
    timeout: TIMEOUT,
  }, async () => {
    const spec = makeSpec();
    const store = open(spec);
    try {
      await store.getEffect('migrate-first');
      for (let round = 0; round < ROUNDS; round++) {
        const grantId = `grant-${name}-${round}-${globalThis.crypto.randomUUID().slice(0, 8)}`;
        const outcomes = await spendAtOnce(spec, grantId, round);
        expect(outcomes).toHaveLength(PROCESSES * KEYS_EACH);
        expect(outcomes.filter((o) => o === 'reserved')).toHaveLength(5);
        expect(outcomes.filter((o) => o === 'budget_exhausted')).toHaveLength(PROCESSES * KEYS_EACH - 5);
        const rows = await store.consumptions({ grantId });
        expect(rows).toHaveLength(5);
        expect(rows.reduce((sum, r) => sum + BigInt(r.amount), 0n)).toBe(50n);
      }
    } finally {
      await store.close();
      await cleanup(spec);
    }
  });
}

describeEachSqliteDriver('budgets raced across processes: sqlite', (driver) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-budget-races-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  scenario(`sqlite-${driver}`, () => ({ kind: 'sqlite', path: path.join(dir, 'state.db'), driver }));
});

describePostgres('budgets raced across processes: postgres', (url) => {
  scenario(
    'postgres',
    () => ({ kind: 'postgres', connectionString: url, schema: freshSchema() }),
    async (spec) => dropSchema(url, (spec as { schema: string }).schema),
  );
});
