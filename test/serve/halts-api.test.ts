import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../src/runtime/index.js';
import type { Store } from '../../src/runtime/types.js';
import type { Principal } from '../../src/serve/auth.js';
import { haltAs, liftAs } from '../../src/serve/halts-api.js';

/**
 * serve's halt and lift (the API, the Halts page and the MCP console through serve all call these):
 * the refusals the route tests do not reach. Each writes nothing.
 */
const bob: Principal = { name: 'bob', kind: 'operator', roles: [], via: 'bearer' };

describe("serve's haltAs and liftAs", () => {
  it('a store that keeps no halts: 409, nothing written', async () => {
    const plain = memoryStore();
    const store = Object.assign(Object.create(plain) as Store, { readHalts: undefined, putHalt: undefined, liftHalt: undefined });
    expect(await haltAs(store, bob, { target: 'all', reason: 'freeze' }, 1)).toMatchObject({ ok: false, status: 409, code: 'unsupported' });
    expect(await liftAs(store, bob, 'halt_1', {}, 1)).toMatchObject({ ok: false, status: 409, code: 'unsupported' });
    expect(await plain.listReceipts()).toEqual([]);
  });

  it('a lift whose reason is not one line of text: 400, the halt stays', async () => {
    const store = memoryStore();
    const set = await haltAs(store, bob, { target: 'action', value: 'stripe.refund', reason: 'incident' }, 1);
    if (!set.ok) throw new Error(set.message);
    for (const reason of ['a\nb', 42, 'r'.repeat(2001)]) {
      expect(await liftAs(store, bob, set.halt.id, { reason }, 2)).toMatchObject({ ok: false, status: 400, code: 'bad_arguments' });
    }
    expect((await store.readHalts!()).halts.map((h) => h.id)).toEqual([set.halt.id]);
    expect((await store.listReceipts()).map((r) => r.result)).toEqual(['halted']);
    expect(await liftAs(store, bob, set.halt.id, { reason: 'fixed' }, 3)).toMatchObject({ ok: true });
  });
});
