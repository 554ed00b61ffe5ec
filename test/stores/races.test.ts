import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteStore, type SqliteDriverName } from '../../src/runtime/sqlite.js';
import { postgresStore } from '../../src/runtime/postgres.js';
import type { Store } from '../../src/runtime/types.js';
import { bodyRuns, spawnAgentChild, type ChildEvent } from './child-process.js';
import { verifyChain } from './chain.js';
import { describePostgres, dropSchema, freshSchema } from './pg-helpers.js';
import { describeEachSqliteDriver } from './sqlite-drivers.js';

const BIG = { payment_id: 'pay_big', amount: 512_345 }; // the approve band
const SMALL = { payment_id: 'pay_small', amount: 5_000 }; // the allow band
const N = 8;

type StoreSpec = { kind: 'sqlite'; path: string; driver: SqliteDriverName } | { kind: 'postgres'; connectionString: string; schema: string };

function openSpec(spec: StoreSpec): Store {
  return spec.kind === 'sqlite'
    ? sqliteStore({ path: spec.path, driver: spec.driver })
    : postgresStore({ connectionString: spec.connectionString, schema: spec.schema });
}

async function withStore<T>(spec: StoreSpec, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = openSpec(spec);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** Runs children set up in parallel, releases them at once, and collects their final events. */
async function race(configs: Array<Record<string, unknown>>): Promise<ChildEvent[]> {
  const children = configs.map((c) => spawnAgentChild({ ...c, waitForGo: true }));
  await Promise.all(children.map((c) => c.waitFor((e) => e.ready === true)));
  for (const c of children) c.go();
  const results = await Promise.all(children.map((c) => c.exited));
  return results.map((r) => {
    const last = r.events.at(-1);
    if (!last || (!last.outcome && !last.error)) throw new Error(`a child ended without an outcome: ${r.stderr}`);
    return last;
  });
}

function scenarios(name: string, makeSpec: () => StoreSpec) {
  describe(`races and faults across processes: ${name}`, { timeout: 180_000 }, () => {
    const dir = mkdtempSync(path.join(tmpdir(), `ctrlrun-races-${name}-`));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    let n = 0;
    const files = () => {
      n += 1;
      return { stateFile: path.join(dir, `state-${n}.json`), countFile: path.join(dir, `count-${n}.log`) };
    };

    it(`one approved call, its serialized state resumed by ${N} processes at once: exactly one body runs`, async () => {
      const store = makeSpec();
      const { stateFile, countFile } = files();
      const callId = `call_${name}_${n}`;
      const paused = spawnAgentChild({ mode: 'pause', store, stateFile, countFile, callId, args: BIG });
      await paused.waitFor((e) => e.paused === callId);
      await paused.exited;
      await withStore(store, async (s) => {
        expect((await s.getRequest(callId))?.state).toBe('pending');
        expect((await s.addAnswer(callId, { approver: 'bob', decision: 'approve', at: Date.now() })).outcome).toBe('recorded');
      });

      const outcomes = await race(Array.from({ length: N }, () => ({ mode: 'resume', store, stateFile, countFile })));
      expect(bodyRuns(countFile)).toHaveLength(1);
      const finished = outcomes.filter((o) => o.outcome === 'done');
      const refused = outcomes.filter((o) => o.error);
      // Every process either finished (the winner, or one whose resolve() saw the approval already
      // consumed and told the model so) or got ApprovalMismatch('consumed'); nothing else.
      expect(finished.length + refused.length).toBe(N);
      for (const r of refused) expect(r).toMatchObject({ error: 'ApprovalMismatch', reason: 'consumed' });
      await withStore(store, async (s) => {
        expect((await s.getRequest(callId))?.state).toBe('consumed');
        const receipts = await s.listReceipts();
        expect(verifyChain(receipts)).toBe(null);
        expect(receipts.filter((r) => r.call_id === callId && r.result === 'executed')).toHaveLength(1);
      });
    });

    it(`one effect key executed by ${N} processes at once: exactly one commit; the others DuplicateEffect or AmbiguousEffect`, async () => {
      const store = makeSpec();
      const { countFile } = files();
      const args = { ...SMALL, payment_id: `pay_${name}_${n}` };
      const outcomes = await race(Array.from({ length: N }, (_, i) => ({ mode: 'call', store, countFile, callId: `call_fx_${n}_${i}`, args, bodyMs: 200 })));
      expect(bodyRuns(countFile)).toHaveLength(1);
      expect(outcomes.filter((o) => o.outcome === 'done')).toHaveLength(1);
      for (const o of outcomes.filter((x) => x.error)) expect(['DuplicateEffect', 'AmbiguousEffect']).toContain(o.error);
      expect(outcomes.filter((o) => o.error)).toHaveLength(N - 1);
      await withStore(store, async (s) => {
        expect(await s.getEffect(`refund:${args.payment_id}`)).toMatchObject({ state: 'committed', attempts: 1 });
      });
      // Later: a duplicate, never a second run.
      const later = await race([{ mode: 'call', store, countFile, callId: `call_fx_${n}_later`, args }]);
      expect(later[0]).toMatchObject({ error: 'DuplicateEffect' });
      expect(bodyRuns(countFile)).toHaveLength(1);
    });

    it('a process killed inside the body: after the lease the key is ambiguous, never silently retried', async () => {
      const store = makeSpec();
      const { countFile } = files();
      const args = { ...SMALL, payment_id: `pay_killed_${name}_${n}` };
      const victim = spawnAgentChild({ mode: 'call', store, countFile, callId: `call_kill_${n}`, args, hangInBody: true, effectLeaseMs: 300 });
      await victim.waitFor((e) => e.inBody === true);
      victim.process.kill('SIGKILL');
      const ended = await victim.exited;
      expect(ended.signal).toBe('SIGKILL');
      await new Promise((r) => setTimeout(r, 400)); // past the lease

      const retry = await race([{ mode: 'call', store, countFile, callId: `call_kill_${n}_retry`, args, effectLeaseMs: 300 }]);
      expect(retry[0]).toMatchObject({ error: 'AmbiguousEffect' });
      expect(bodyRuns(countFile)).toHaveLength(1); // only the killed attempt ever started the body
      await withStore(store, async (s) => {
        expect((await s.getEffect(`refund:${args.payment_id}`))?.state).toBe('ambiguous');
        expect((await s.listEffects({ state: 'ambiguous' })).map((e) => e.key)).toContain(`refund:${args.payment_id}`);
      });
    });
  });
}

const sqliteDir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-races-db-'));
afterAll(() => rmSync(sqliteDir, { recursive: true, force: true }));
describeEachSqliteDriver('races on SQLite', (driver) => {
  scenarios(`sqlite-${driver}`, () => ({ kind: 'sqlite', path: path.join(sqliteDir, `state-${driver}.db`), driver }));
});

describePostgres('races on Postgres', (url) => {
  const schema = freshSchema();
  afterAll(() => dropSchema(url, schema));
  scenarios('postgres', () => ({ kind: 'postgres', connectionString: url, schema }));
});
