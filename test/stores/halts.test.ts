import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryStore } from '../../src/runtime/index.js';
import { postgresStore } from '../../src/runtime/postgres.js';
import { sqliteStore } from '../../src/runtime/sqlite.js';
import { isHaltsChanged } from '../../src/runtime/stores/errors.js';
import type { Halt, ReceiptBody, Store } from '../../src/runtime/types.js';
import { twoTenants, type TenantsFixture } from '../serve/tenant-fixture.js';
import { dropSchema, freshSchema, PG_URL } from './pg-helpers.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const halt = (id: string, extra: Partial<Halt> = {}): Halt => ({
  id,
  target: 'action',
  value: 'stripe.refund',
  hard: false,
  reason: 'incident',
  by: 'carol',
  at: 1,
  ...extra,
});
const body = (n: number): ReceiptBody => ({
  at: n,
  action: 'stripe.refund',
  call_id: `c${n}`,
  args_hash: null,
  principal: 'alice',
  decision: 'allow',
  reason: 'rule[0]',
  approvers: [],
  effect_key: null,
  result: 'allowed',
  policy_hash: 'p',
  mode: 'enforce',
  environment: null,
});

async function rejects(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => undefined,
    (e: unknown) => e,
  );
}

/** The halt contract every store keeps: each change raises the epoch; an append conditional on a stale epoch appends nothing. */
function haltContract(name: string, make: () => Promise<{ store: Store; done?: () => Promise<void> }>) {
  it(`${name}: set and lift raise the epoch; an append on a stale epoch is HaltsChanged and appends nothing`, async () => {
    const { store, done } = await make();
    try {
      expect(await store.readHalts!()).toEqual({ epoch: 0, halts: [] });
      await store.appendReceipt(body(1), { haltEpoch: 0 });
      const set = await store.putHalt!(halt('h1', { hard: true }));
      expect(set.epoch).toBe(1);
      expect(set.halts).toEqual([halt('h1', { hard: true })]);
      expect((await store.putHalt!(halt('h1', { reason: 'other' }))).epoch).toBe(1); // an id already in force: nothing changes
      const stale = await rejects(store.appendReceipt(body(2), { haltEpoch: 0 }));
      expect(isHaltsChanged(stale) && stale.epoch).toBe(1);
      expect((await store.listReceipts()).map((r) => r.call_id)).toEqual(['c1']);
      await store.appendReceipt(body(3), { haltEpoch: 1 });
      await store.appendReceipt(body(4)); // unconditional
      const lifted = await store.liftHalt!('h1');
      expect(lifted.lifted).toEqual(halt('h1', { hard: true }));
      expect(lifted.state).toEqual({ epoch: 2, halts: [] });
      expect(await store.liftHalt!('h1')).toEqual({ lifted: null, state: { epoch: 2, halts: [] } });
      expect(isHaltsChanged(await rejects(store.appendReceipt(body(5), { haltEpoch: 1 })))).toBe(true);
      expect((await store.listReceipts()).map((r) => r.call_id)).toEqual(['c1', 'c3', 'c4']);
    } finally {
      await done?.();
    }
  });
}

describe('halts in every store', () => {
  haltContract('memory', async () => ({ store: memoryStore() }));
  haltContract('sqlite', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-halts-'));
    dirs.push(dir);
    const store = sqliteStore({ path: path.join(dir, 'state.db') });
    return { store, done: () => store.close() };
  });
  const url = PG_URL;
  if (url) {
    haltContract('postgres', async () => {
      const schema = freshSchema();
      const store = postgresStore({ connectionString: url, schema });
      return {
        store,
        done: async () => {
          await store.close();
          await dropSchema(url, schema);
        },
      };
    });
  }
});

describe('halts through serve, with tenants (httpStore reads, operators set and lift)', () => {
  let t: TenantsFixture;
  const api = async (token: string, route: string, payload?: unknown) => {
    const res = await fetch(`${t.serve.url}/api${route}`, {
      method: payload === undefined ? 'GET' : 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
    });
    return { status: res.status, json: (await res.json()) as Record<string, any> };
  };

  it("a tenant's operator halts its tenant only; a halt without a tenant stops every tenant and only such an operator lifts it", async () => {
    t = await twoTenants({ kind: 'sqlite' });
    try {
      const acme = t.http('acme');
      const globex = t.http('globex');
      expect(await acme.readHalts!()).toEqual({ epoch: 0, halts: [] });
      const ann = await api(t.tokens.ann, '/halts', { target: 'action', value: 'stripe.refund', reason: 'acme incident' });
      expect(ann.status).toBe(200);
      const annHalt = ann.json.halt as Halt;
      expect(annHalt.by).toBe('ann');
      expect((await acme.readHalts!()).halts.map((h) => h.id)).toEqual([annHalt.id]);
      expect((await globex.readHalts!()).halts).toEqual([]);
      // globex's append on the old epoch: the epoch is the store's, so it reads again and finds nothing of its own
      expect(isHaltsChanged(await rejects(globex.appendReceipt(body(1), { haltEpoch: 0 })))).toBe(true);
      const bob = await api(t.tokens.bob, '/halts', { target: 'all', reason: 'freeze', hard: true });
      const bobHalt = bob.json.halt as Halt;
      expect((await globex.readHalts!()).halts.map((h) => h.id)).toEqual([bobHalt.id]);
      expect((await acme.readHalts!()).halts.map((h) => h.id).sort()).toEqual([annHalt.id, bobHalt.id].sort());
      // ann cannot lift the whole store's halt; a runtime token neither halts nor lifts
      expect((await api(t.tokens.ann, `/halts/${bobHalt.id}/lift`, {})).status).toBe(404);
      expect((await api(t.tokens.acme, '/halts', { target: 'all', reason: 'x' })).status).toBe(403);
      expect((await api(t.tokens.acme, `/halts/${annHalt.id}/lift`, {})).status).toBe(403);
      expect((await api(t.tokens.bob, '/halts', { target: 'principal', reason: 'no value' })).status).toBe(400);
      expect((await api(t.tokens.bob, '/halts', { target: 'all', reason: 'x', at: 5 })).status).toBe(400);
      const lifted = await api(t.tokens.bob, `/halts/${bobHalt.id}/lift`, { reason: 'resolved' });
      expect(lifted.status).toBe(200);
      expect((await globex.readHalts!()).halts).toEqual([]);
      // the trail: each set and lift a receipt naming its operator, ann's in acme's names
      const trail = (await t.store.listReceipts()).filter((r) => r.action === 'ctrlrun.halt');
      expect(trail.map((r) => [r.result, r.approvers[0], r.call_id])).toEqual([
        ['halted', 'ann', `@acme:${annHalt.id}`],
        ['halted', 'bob', bobHalt.id],
        ['lifted', 'bob', bobHalt.id],
      ]);
    } finally {
      await t.close();
    }
  });
});
