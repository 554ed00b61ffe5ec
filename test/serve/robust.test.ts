import { afterEach, describe, expect, it } from 'vitest';
import { httpStore } from '../../src/runtime/index.js';
import { isoTime } from '../../src/cli/table.js';
import { api, pendingRequest, type ServeFixture, startFixture } from './helpers.js';

/** Issue 24 item 7: robust inbox and terminals, no secrets in store errors, no token in clear. */
let fx: ServeFixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

describe('robust inbox, store errors and httpStore', () => {
  it('an out-of-range createdAt: the inbox API answers (the page: shown-is-approved.test.ts), the CLI time says so', async () => {
    fx = await startFixture({ bob: ['payments-approver'] });
    await fx.store.putRequest(pendingRequest('call_far', { createdAt: 8.64e15 + 1 }));
    expect((await api(fx.serve.url, fx.tokens.bob, 'GET', '/api/requests')).status).toBe(200);
    expect(isoTime(8.64e15 + 1)).toBe('(invalid time 8640000000000001)');
    expect(isoTime(0)).toBe('1970-01-01T00:00:00.000Z');
  });

  it("a store error over the API names neither the server's files nor SQL", async () => {
    fx = await startFixture({ bob: ['payments-approver'] });
    await fx.store.close(); // every later call fails with the store's own message
    const r = await api(fx.serve.url, fx.tokens.bob, 'GET', '/api/requests');
    expect(r.status).toBe(503);
    expect(JSON.stringify(r.json)).not.toContain(fx.dir);
    expect(JSON.stringify(r.json)).not.toMatch(/SELECT|state\.db/i);
    expect(r.json.message).toMatch(/The store failed \(store_\w+\)/);
  });

  it('httpStore refuses plain http:// to a host that is not loopback unless allowed', () => {
    expect(() => httpStore({ url: 'http://approvals.example.com', token: 't' })).toThrow(/plain http:\/\/.*in clear/);
    expect(() => httpStore({ url: 'http://10.0.0.5:8787', token: 't' })).toThrow(/in clear/);
    expect(() => httpStore({ url: 'ftp://127.0.0.1', token: 't' })).toThrow(/not an http\(s\) URL/);
    expect(() => httpStore({ url: 'http://approvals.example.com', token: 't', allowInsecureHttp: true })).not.toThrow();
    for (const url of ['http://127.0.0.1:8787', 'http://localhost:8787', 'http://[::1]:8787', 'https://approvals.example.com']) {
      expect(() => httpStore({ url, token: 't' }), url).not.toThrow();
    }
  });
});
