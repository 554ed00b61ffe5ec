import { canonicalHash } from '../../src/runtime/canonical.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadPolicyOrThrow } from '../../src/policy/load.js';
import { httpStore } from '../../src/runtime/index.js';
import { sqliteStore } from '../../src/runtime/sqlite.js';
import { normaliseIdentity } from '../../src/runtime/identity.js';
import type { Store } from '../../src/runtime/types.js';
import { addOperator, emptyOperators, writeOperators } from '../../src/serve/operators.js';
import { type RunningServe, startServe } from '../../src/serve/server.js';
import { describeStoreConformance } from '../../src/testing/index.js';
import { verifyChain } from './chain.js';
import { bodyRuns, spawnAgentChild, type ChildEvent } from './child-process.js';

// serve over one SQLite file; httpStore talks to it with a runtime token, and answers with the
// operator token of whoever the answer names (serve records the authenticated name only).
const dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-http-store-'));
const OPERATORS = ['alice', 'bob', 'carol', 'dave', 'x', 'ops@example', 'ops'];
const tokens: Record<string, string> = {};
let serve: RunningServe;
let backing: Store;
/**
 * serve's clock: it sets the time of answers, resolutions, receipts and decision log entries itself
 * (a token never dates its records), so the harness sets it to the time the suite names.
 */
let serveNow = Date.now();

beforeAll(async () => {
  writeFileSync(
    path.join(dir, 'ctrlrun.yaml'),
    'schema: ctrlrun.policy/v6\nactions:\n  stripe.refund:\n    decision: approve\n  stripe.charge:\n    decision: approve\n',
  );
  let data = emptyOperators();
  for (const name of OPERATORS) {
    const added = addOperator(data, { name, kind: 'operator', roles: [], now: 0 });
    data = added.data;
    tokens[name] = added.token;
  }
  const agent = addOperator(data, { name: 'agent', kind: 'runtime', roles: [], now: 0 });
  tokens.agent = agent.token;
  writeOperators(path.join(dir, 'operators.json'), agent.data);
  backing = sqliteStore({ path: path.join(dir, 'state.db') });
  serve = await startServe({
    store: backing,
    policy: loadPolicyOrThrow(path.join(dir, 'ctrlrun.yaml')).policy,
    operatorsFile: path.join(dir, 'operators.json'),
    host: '127.0.0.1',
    port: 0,
    approvalTtlMs: 900_000,
    log: () => {},
    clock: () => serveNow,
  });
});
afterAll(async () => {
  await serve.close();
  await backing.close();
  rmSync(dir, { recursive: true, force: true });
});

function clientStore(): Store {
  const runtime = httpStore({ url: serve.url, token: tokens.agent! });
  const operator = (name: string) => httpStore({ url: serve.url, token: tokens[normaliseIdentity(name)] ?? 'crg_op_unknown' });
  return {
    ...runtime,
    kind: runtime.kind,
    addAnswer: (callId, answer) => {
      serveNow = answer.at;
      return operator(answer.approver).addAnswer(callId, answer);
    },
    resolveEffect: (key, state, by, now) => {
      serveNow = now;
      return operator(by).resolveEffect(key, state, by, now);
    },
    appendReceipt: (body) => {
      serveNow = body.at;
      return runtime.appendReceipt(body);
    },

    appendDecision: (body) => {
      serveNow = body.at;
      return runtime.appendDecision!(body);
    },
    // approval grants: put and revoked by the operator they name, listed by the runtime (serve's clock decides which are active)
    putGrant: (grant) => {
      serveNow = grant.grantedAt;
      return operator(grant.grantedBy).putGrant!(grant);
    },
    revokeGrant: (id, by, now) => {
      serveNow = now;
      return operator(by).revokeGrant!(id, by, now);
    },
    listGrants: (query) => {
      if (query?.activeAt !== undefined) serveNow = query.activeAt;
      return runtime.listGrants!(query);
    },
  };
}

describeStoreConformance('http (serve over SQLite)', async () => clientStore(), { describe, it, expect, beforeEach, afterEach });

describe('httpStore', () => {
  it('fails closed with a StoreError when serve is unreachable, the token is refused, or after close', async () => {
    const down = httpStore({ url: 'http://127.0.0.1:9', token: 'crg_rt_x' });
    await expect(down.getRequest('x')).rejects.toMatchObject({ name: 'StoreError', code: 'store_unavailable' });
    const wrong = httpStore({ url: serve.url, token: 'crg_rt_wrong' });
    await expect(wrong.getRequest('x')).rejects.toMatchObject({
      name: 'StoreError',
      code: 'store_failed',
      message: expect.stringContaining('token was refused'),
    });
    const s = httpStore({ url: serve.url, token: tokens.agent! });
    await s.close();
    await expect(s.listRequests()).rejects.toMatchObject({ code: 'store_closed' });
    expect(() => httpStore({ url: 'not a url', token: 't' })).toThrow(/not a URL/);
  });

  it('a runtime token never answers; an operator token never claims', async () => {
    const runtime = httpStore({ url: serve.url, token: tokens.agent! });
    await runtime.putRequest({
      callId: 'call_perm',
      action: 'stripe.refund',
      toolName: 'refund',
      argsHash: canonicalHash({}),
      args: '{}',
      policyHash: 'p'.repeat(64),
      principal: 'alice',
      approvalsRequired: 1,
      createdAt: 1,
    });
    await expect(runtime.addAnswer('call_perm', { approver: 'agent', decision: 'approve', at: 2 })).rejects.toThrow(/never answers/);
    const bob = httpStore({ url: serve.url, token: tokens.bob! });
    expect((await bob.addAnswer('call_perm', { approver: 'bob', decision: 'approve', at: 2 })).outcome).toBe('recorded');
    await expect(bob.claimApproval('call_perm', 3)).rejects.toThrow(/never claims/);
    expect((await runtime.claimApproval('call_perm', 3)).outcome).toBe('claimed');
  });

  it("the raw store API's addAnswer checks args against argsHash: another call's args are refused (409), recorded as a refusal, never approved", async () => {
    const runtime = httpStore({ url: serve.url, token: tokens.agent! });
    // the hash binds a refund of 500000; the text an operator's tool would show says 5
    await runtime.putRequest({
      callId: 'call_shown',
      action: 'stripe.refund',
      toolName: 'refund',
      argsHash: canonicalHash({ amount: 500_000 }),
      args: '{"amount":5}',
      policyHash: 'p'.repeat(64),
      principal: 'alice',
      approvalsRequired: 1,
      createdAt: 1,
    });
    const bob = httpStore({ url: serve.url, token: tokens.bob! });
    await expect(bob.addAnswer('call_shown', { approver: 'bob', decision: 'approve', at: 2 })).rejects.toThrow(/args_mismatch|do not match/);
    expect((await runtime.getRequest('call_shown'))?.answers).toEqual([]);
    expect((await runtime.claimApproval('call_shown', 3)).outcome).not.toBe('claimed');
    const receipts = (await bob.listReceipts()).filter((r) => r.call_id === 'call_shown');
    expect(receipts.map((r) => [r.result, r.reason])).toEqual([['refused', 'args_mismatch']]);
  });
});

describe('races across processes: httpStore', { timeout: 180_000 }, () => {
  it('one approved call, its serialized state resumed by 8 processes at once through serve: exactly one body runs', async () => {
    const store = { kind: 'http', url: serve.url, token: tokens.agent };
    const stateFile = path.join(dir, 'race-state.json');
    const countFile = path.join(dir, 'race-count.log');
    const callId = 'call_http_race';
    const paused = spawnAgentChild({ mode: 'pause', store, stateFile, countFile, callId, args: { payment_id: 'pay_big', amount: 512_345 } });
    await paused.waitFor((e) => e.paused === callId);
    await paused.exited;
    expect((await backing.getRequest(callId))?.state).toBe('pending');
    serveNow = Date.now();
    expect((await httpStore({ url: serve.url, token: tokens.bob! }).addAnswer(callId, { approver: 'bob', decision: 'approve', at: Date.now() })).outcome).toBe(
      'recorded',
    );

    const children = Array.from({ length: 8 }, () => spawnAgentChild({ mode: 'resume', store, stateFile, countFile, waitForGo: true }));
    await Promise.all(children.map((c) => c.waitFor((e) => e.ready === true)));
    for (const c of children) c.go();
    const outcomes: ChildEvent[] = (await Promise.all(children.map((c) => c.exited))).map((r) => r.events.at(-1)!);
    expect(bodyRuns(countFile)).toHaveLength(1);
    for (const o of outcomes.filter((x) => x.error)) expect(o).toMatchObject({ error: 'ApprovalMismatch', reason: 'consumed' });
    expect(outcomes.filter((o) => o.outcome === 'done' || o.error).length).toBe(8);
    expect((await backing.getRequest(callId))?.state).toBe('consumed');
    const receipts = await backing.listReceipts();
    expect(verifyChain(receipts)).toBe(null);
    expect(receipts.filter((r) => r.call_id === callId && r.result === 'executed')).toHaveLength(1);
  });
});
