import { afterEach, describe, expect, it } from 'vitest';
import { checkCorsOrigin, checkListen } from '../../src/serve/server.js';
import { readOperators, removeOperator, writeOperators } from '../../src/serve/operators.js';
import { api, pendingRequest, type ServeFixture, signIn as signInForm, startFixture } from './helpers.js';

let fx: ServeFixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

/** Signs in through the login form like a browser; returns the cookie and the page's CSRF token. */
async function signIn(base: string, token: string): Promise<{ cookie: string; csrf: string }> {
  const session = await signInForm(base, token);
  expect(session.setCookie).toMatch(/HttpOnly/);
  expect(session.setCookie).toMatch(/SameSite=Strict/);
  return session;
}

describe('serve: the JSON API', () => {
  it("refuses requests without a token, with a wrong one, and with a removed operator's token (401)", async () => {
    fx = await startFixture({ bob: ['payments-approver'] });
    const base = fx.serve.url;
    expect((await api(base, undefined, 'GET', '/api/requests')).status).toBe(401);
    expect((await api(base, 'crg_op_nope', 'GET', '/api/requests')).status).toBe(401);
    expect((await api(base, fx.tokens.bob, 'GET', '/api/requests')).status).toBe(200);
    writeOperators(fx.operatorsFile, removeOperator(readOperators(fx.operatorsFile), 'bob').data);
    expect((await api(base, fx.tokens.bob, 'GET', '/api/requests')).status).toBe(401);
  });

  it("roles: an operator without the policy's approver_role is refused (403); the approver is the authenticated name, never the body's", async () => {
    fx = await startFixture({ bob: ['payments-approver'], carol: [] });
    await fx.store.putRequest(pendingRequest('call_1'));
    const base = fx.serve.url;
    const carol = await api(base, fx.tokens.carol, 'POST', '/api/requests/call_1/answer', { decision: 'approve' });
    expect(carol.status).toBe(403);
    expect(carol.json.message).toContain('payments-approver');
    expect((await fx.store.getRequest('call_1'))!.answers).toHaveLength(0);
    const bob = await api(base, fx.tokens.bob, 'POST', '/api/requests/call_1/answer', { decision: 'approve', approver: 'cfo', reason: 'ok' });
    expect(bob.status).toBe(200);
    const stored = (await fx.store.getRequest('call_1'))!;
    expect(stored.state).toBe('approved');
    expect(stored.answers.map((a) => a.approver)).toEqual(['bob']);
    const receipts = await fx.store.listReceipts();
    expect(receipts.at(-1)).toMatchObject({ call_id: 'call_1', result: 'approved', approvers: ['bob'] });
  });

  it("an answer of the wrong shape is refused with its code before anything is recorded; revoking a grant needs the action's approver role", async () => {
    fx = await startFixture({ bob: ['payments-approver'], carol: [] });
    await fx.store.putRequest(pendingRequest('call_shape'));
    const base = fx.serve.url;
    for (const [body, code] of [
      [{ decision: 'maybe' }, 'bad_decision'],
      [{ decision: 'respond', result: '' }, 'bad_result'],
      [{ decision: 'approve', grant: { bounds: {} } }, 'bad_grant'],
    ] as const) {
      const r = await api(base, fx.tokens.bob, 'POST', '/api/requests/call_shape/answer', body);
      expect([r.status, r.json.error]).toEqual([400, code]);
    }
    expect((await fx.store.getRequest('call_shape'))!.answers).toHaveLength(0);
    const now = Date.now();
    const grant = {
      id: 'grant_1',
      principal: 'alice',
      action: 'stripe.refund',
      policyHash: 'p'.repeat(64),
      rule: 'rule[0]',
      bounds: '{}',
      grantedBy: 'bob',
      grantedAt: now,
      expiresAt: now + 3_600_000,
      callId: 'call_shape',
    };
    await fx.store.putGrant!(grant);
    const carol = await api(base, fx.tokens.carol, 'POST', '/api/grants/grant_1/revoke');
    expect([carol.status, carol.json.error]).toEqual([403, 'role']);
    expect((await fx.store.getGrant!('grant_1'))!.revokedAt).toBeUndefined();
    expect((await api(base, fx.tokens.bob, 'POST', '/api/grants/grant_1/revoke')).status).toBe(200);
    // putGrant through the store API: one without the action's approver role grants nothing
    const byCarol = await api(base, fx.tokens.carol, 'POST', '/api/store/putGrant', { args: [{ ...grant, id: 'grant_2', grantedBy: 'carol' }] });
    expect(byCarol.status).toBe(403);
    expect(byCarol.json.message).toContain('payments-approver');
    expect(await fx.store.getGrant!('grant_2')).toBeNull();
    const byBob = await api(base, fx.tokens.bob, 'POST', '/api/store/putGrant', { args: [{ ...grant, id: 'grant_2' }] });
    expect(byBob.json.result).toMatchObject({ id: 'grant_2', grantedBy: 'bob' });
  });

  it('an action the loaded policy does not know cannot be answered by anyone (fail closed: its roles are unknown)', async () => {
    fx = await startFixture({ bob: ['payments-approver'] });
    await fx.store.putRequest(pendingRequest('call_unknown', { action: 'files.delete' }));
    const r = await api(fx.serve.url, fx.tokens.bob, 'POST', '/api/requests/call_unknown/answer', { decision: 'approve' });
    expect(r.status).toBe(403);
    expect(r.json.message).toContain('has no action files.delete');
    expect((await fx.store.getRequest('call_unknown'))!.answers).toHaveLength(0);
  });

  it("the requester's own answer is refused with the reason (409) and a refused receipt; M of N needs distinct operators", async () => {
    fx = await startFixture({ alice: ['payments-approver'], bob: [], carol: [] });
    const base = fx.serve.url;
    await fx.store.putRequest(pendingRequest('call_own'));
    const own = await api(base, fx.tokens.alice, 'POST', '/api/requests/call_own/answer', { decision: 'approve' });
    expect(own.status).toBe(409);
    expect(own.json).toMatchObject({ error: 'approver_is_requester' });
    expect(own.json.message).toContain('requester');
    expect((await fx.store.listReceipts()).at(-1)).toMatchObject({ result: 'refused', reason: 'approver_is_requester', approvers: ['alice'] });

    await fx.store.putRequest(pendingRequest('call_wire', { action: 'wire.send', approvalsRequired: 2 }));
    expect((await api(base, fx.tokens.bob, 'POST', '/api/requests/call_wire/answer', { decision: 'approve' })).json.request.state).toBe('pending');
    const again = await api(base, fx.tokens.bob, 'POST', '/api/requests/call_wire/answer', { decision: 'approve' });
    expect(again).toMatchObject({ status: 409, json: { error: 'duplicate' } });
    const second = await api(base, fx.tokens.carol, 'POST', '/api/requests/call_wire/answer', { decision: 'approve' });
    expect(second.json.request.state).toBe('approved');
    expect(second.json.request.answers.map((a: { approver: string }) => a.approver)).toEqual(['bob', 'carol']);
    const late = await api(base, fx.tokens.alice, 'POST', '/api/requests/call_wire/answer', { decision: 'reject', reason: 'no' });
    expect(late).toMatchObject({ status: 409, json: { error: 'not_pending' } });
  });

  it('a reject needs a reason; control characters in it are refused', async () => {
    fx = await startFixture({ bob: ['payments-approver'] });
    await fx.store.putRequest(pendingRequest('call_r'));
    const base = fx.serve.url;
    expect((await api(base, fx.tokens.bob, 'POST', '/api/requests/call_r/answer', { decision: 'reject' })).json.error).toBe('reason_required');
    expect((await api(base, fx.tokens.bob, 'POST', '/api/requests/call_r/answer', { decision: 'reject', reason: 'x\u001b[2J' })).json.error).toBe('bad_reason');
    const ok = await api(base, fx.tokens.bob, 'POST', '/api/requests/call_r/answer', { decision: 'reject', reason: 'line one\nline two' });
    expect(ok.json.request.answers[0]).toMatchObject({ approver: 'bob', decision: 'reject', reason: 'line one line two' });
  });

  it('store methods: a runtime token never answers or resolves; an operator token never claims; an operator answers only as itself', async () => {
    fx = await startFixture({ agent: 'runtime', bob: ['payments-approver'] });
    const base = fx.serve.url;
    const req = pendingRequest('call_s');
    expect((await api(base, fx.tokens.agent, 'POST', '/api/store/putRequest', { args: [req] })).json.result.state).toBe('pending');
    const rtAnswer = await api(base, fx.tokens.agent, 'POST', '/api/store/addAnswer', { args: ['call_s', { approver: 'agent', decision: 'approve', at: 1 }] });
    expect(rtAnswer.status).toBe(403);
    expect(rtAnswer.json.message).toContain('never answers');
    expect((await api(base, fx.tokens.agent, 'POST', '/api/requests/call_s/answer', { decision: 'approve' })).status).toBe(403);
    expect((await api(base, fx.tokens.agent, 'POST', '/api/store/resolveEffect', { args: ['k', 'failed', 'agent', 1] })).status).toBe(403);
    const asOther = await api(base, fx.tokens.bob, 'POST', '/api/store/addAnswer', {
      args: ['call_s', { approver: 'cfo', decision: 'approve', at: Date.now() }],
    });
    expect(asOther.status).toBe(403);
    const asSelf = await api(base, fx.tokens.bob, 'POST', '/api/store/addAnswer', {
      args: ['call_s', { approver: 'Bob', decision: 'approve', at: Date.now() }],
    });
    expect(asSelf.json.result).toMatchObject({ outcome: 'recorded', request: { state: 'approved' } });
    const opClaim = await api(base, fx.tokens.bob, 'POST', '/api/store/claimApproval', { args: ['call_s', Date.now()] });
    expect(opClaim.status).toBe(403);
    expect(opClaim.json.message).toContain('never claims');
    expect((await api(base, fx.tokens.agent, 'POST', '/api/store/claimApproval', { args: ['call_s', Date.now()] })).json.result.outcome).toBe('claimed');
    expect((await api(base, fx.tokens.agent, 'POST', '/api/store/close', { args: [] })).status).toBe(403);
    expect((await api(base, fx.tokens.agent, 'POST', '/api/store/constructor', { args: [] })).status).toBe(403);
  });

  it("store methods: resolveEffect needs the action's approver role; the key stays ambiguous until one who has it resolves", async () => {
    fx = await startFixture({ bob: ['payments-approver'], carol: [] });
    const base = fx.serve.url;
    const now = Date.now();
    await fx.store.reserveEffect({ key: 'refund:pay_r', action: 'stripe.refund', attemptId: 'att-r', maxAttempts: 3, now, leaseMs: 1_000 });
    await fx.store.settleEffect('refund:pay_r', 'att-r', 'ambiguous', now);
    const byCarol = await api(base, fx.tokens.carol, 'POST', '/api/store/resolveEffect', { args: ['refund:pay_r', 'failed', 'carol', now] });
    expect(byCarol.status).toBe(403);
    expect(byCarol.json.message).toContain('payments-approver');
    expect((await fx.store.getEffect('refund:pay_r'))?.state).toBe('ambiguous');
    const byBob = await api(base, fx.tokens.bob, 'POST', '/api/store/resolveEffect', { args: ['refund:pay_r', 'failed', 'bob', now] });
    expect(byBob.json.result).toMatchObject({ key: 'refund:pay_r', state: 'failed', resolvedBy: 'bob' });
    // again: not ambiguous any more, the store's answer is the key as it stands; an unknown key is null
    const again = await api(base, fx.tokens.bob, 'POST', '/api/store/resolveEffect', { args: ['refund:pay_r', 'committed', 'bob', now] });
    expect(again.json.result).toMatchObject({ state: 'failed', resolvedBy: 'bob' });
    expect((await api(base, fx.tokens.bob, 'POST', '/api/store/resolveEffect', { args: ['nope', 'failed', 'bob', now] })).json.result).toBeNull();
  });

  it('refuses a non-loopback host without TLS or the explicit flag, and a trusted header without proxy addresses', () => {
    expect(() => checkListen({ host: '0.0.0.0' })).toThrow(/not a loopback address/);
    expect(() => checkListen({ host: '192.168.1.5' })).toThrow(/--tls-cert/);
    expect(() => checkListen({ host: '0.0.0.0', allowInsecureNetwork: true })).not.toThrow();
    expect(() => checkListen({ host: '0.0.0.0', tls: { cert: 'c', key: 'k' } })).not.toThrow();
    for (const host of ['127.0.0.1', 'localhost', '::1', '127.1.2.3']) expect(() => checkListen({ host })).not.toThrow();
    expect(() => checkListen({ host: '127.0.0.1', trustHeader: 'X-Forwarded-Email' })).toThrow(/--trust-proxy/);
  });

  it('--cors-origin takes exact web origins only', () => {
    for (const ok of ['https://app.example.com', 'http://localhost:3000', 'http://127.0.0.1:5173', 'https://app.example.com/'])
      expect(() => checkCorsOrigin(ok)).not.toThrow();
    expect(checkCorsOrigin('https://App.Example.com/')).toBe('https://app.example.com');
    for (const bad of [
      '*',
      'null',
      'app.example.com',
      'https://app.example.com/path',
      'file:///tmp/x',
      'https://app.example.com?x=1',
      'https://user@app.example.com',
    ]) {
      expect(() => checkCorsOrigin(bad), bad).toThrow(/not a web origin/);
    }
  });

  it('grants CORS to the listed origin only, answers its preflight without a token, and never allows credentials', async () => {
    fx = await startFixture({ agent: 'runtime' }, { corsOrigins: ['http://localhost:3000'] });
    const base = fx.serve.url;
    const preflight = (origin: string) =>
      fetch(`${base}/api/store/getRequest`, {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type' },
      });
    const granted = await preflight('http://localhost:3000');
    expect(granted.status).toBe(204);
    expect(granted.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    expect(granted.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    expect(granted.headers.get('access-control-allow-credentials')).toBeNull();
    expect((await preflight('http://localhost:3001')).headers.get('access-control-allow-origin')).toBeNull();
    // the token is still required after the preflight
    const noToken = await fetch(`${base}/api/store/getRequest`, {
      method: 'POST',
      headers: { Origin: 'http://localhost:3000', 'Content-Type': 'application/json' },
      body: '{"args":["x"]}',
    });
    expect(noToken.status).toBe(401);
    const withToken = await fetch(`${base}/api/store/getRequest`, {
      method: 'POST',
      headers: { Origin: 'http://localhost:3000', 'Content-Type': 'application/json', Authorization: `Bearer ${fx.tokens.agent}` },
      body: '{"args":["x"]}',
    });
    expect(withToken.status).toBe(200);
    expect(withToken.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    // the pages get no CORS grant at all
    const login = await fetch(`${base}/login`, { headers: { Origin: 'http://localhost:3000' } });
    expect(login.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('serve: the pages', () => {
  it('CSRF: a session POST without the token, with a wrong one or from another origin changes nothing (403); with it the answer is recorded', async () => {
    fx = await startFixture({ bob: ['payments-approver'] });
    await fx.store.putRequest(pendingRequest('call_c'));
    const base = fx.serve.url;
    const { cookie, csrf } = await signIn(base, fx.tokens.bob!);
    const post = (form: Record<string, string>, headers: Record<string, string> = {}) =>
      fetch(`${base}/requests/call_c/answer`, { method: 'POST', headers: { cookie, ...headers }, body: new URLSearchParams(form) });
    expect((await post({ decision: 'approve' })).status).toBe(403);
    expect((await post({ decision: 'approve', csrf: `${csrf}x` })).status).toBe(403);
    expect((await post({ decision: 'approve', csrf }, { Origin: 'https://evil.example' })).status).toBe(403);
    expect((await fx.store.getRequest('call_c'))!.answers).toHaveLength(0);
    // without the session cookie: not signed in
    expect((await fetch(`${base}/requests/call_c/answer`, { method: 'POST', body: new URLSearchParams({ decision: 'approve', csrf }) })).status).toBe(401);
    // the session alone never answers: the operator's token again (the step-up), bob's own
    expect((await post({ decision: 'approve', csrf })).status).toBe(401);
    expect((await post({ decision: 'approve', csrf, token: 'crg_op_wrong' })).status).toBe(401);
    expect((await fx.store.getRequest('call_c'))!.answers).toHaveLength(0);
    const ok = await post({ decision: 'approve', csrf, approver: 'cfo', token: fx.tokens.bob! });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('Approved as bob');
    expect((await fx.store.getRequest('call_c'))!.answers.map((a) => a.approver)).toEqual(['bob']);
  });

  it('a bad token at sign-in is refused; pages without a session redirect to sign in', async () => {
    fx = await startFixture({ bob: [], agent: 'runtime' });
    const base = fx.serve.url;
    const res = await fetch(`${base}/`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/login');
    const form = await fetch(`${base}/login`);
    const loginCookie = form.headers.getSetCookie()[0]!.split(';')[0]!;
    const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())![1]!;
    for (const token of ['crg_op_wrong', fx.tokens.agent!]) {
      const r = await fetch(`${base}/login`, {
        method: 'POST',
        headers: { cookie: loginCookie },
        body: new URLSearchParams({ csrf, token }),
        redirect: 'manual',
      });
      expect(r.status).toBe(401);
      // a fresh login form, never a session
      expect(r.headers.getSetCookie().every((c) => /_login=/.test(c))).toBe(true);
    }
    // the login form's token without its cookie (another browser's form): refused
    const bare = await fetch(`${base}/login`, { method: 'POST', body: new URLSearchParams({ csrf, token: fx.tokens.bob! }), redirect: 'manual' });
    expect(bare.status).toBe(403);
  });

  it('every model-supplied text is escaped: script and markup payloads in arguments, ids and reasons stay text; a strict CSP is sent', async () => {
    fx = await startFixture({ bob: ['payments-approver'] });
    const payloads = ['<script>alert(1)</script>', '"><img src=x onerror=alert(2)>', "'><svg onload=alert(3)>"];
    const args = JSON.stringify({ amount: 512345, payment_id: payloads[0], note: payloads[1], memo: payloads[2] });
    await fx.store.putRequest(pendingRequest('call_<b>x</b>', { args, principal: '<i>mallory</i>' }));
    const { cookie } = await signIn(fx.serve.url, fx.tokens.bob!);
    const inbox = await fetch(`${fx.serve.url}/`, { headers: { cookie } });
    const csp = inbox.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toMatch(/script-src/);
    const page = await (await fetch(`${fx.serve.url}/requests/${encodeURIComponent('call_<b>x</b>')}`, { headers: { cookie } })).text();
    for (const html of [await inbox.text(), page]) {
      expect(html).not.toContain('<script>');
      expect(html).not.toContain('<img');
      expect(html).not.toContain('<svg');
      expect(html).not.toContain('<i>mallory');
      expect(html).not.toContain('<b>x</b>');
    }
    expect(page).toContain('&lt;script&gt;');
    expect(page).toContain('&lt;i&gt;mallory&lt;/i&gt;');
  });

  it('the request page shows the rule and its trace, the control and its role, M of N, and a diff against the last approved call', async () => {
    fx = await startFixture({ bob: ['payments-approver'], carol: ['payments-approver'] });
    await fx.store.putRequest(pendingRequest('call_old', { args: '{"amount":20000,"payment_id":"pay_1"}', createdAt: 1 }));
    await fx.store.addAnswer('call_old', { approver: 'carol', decision: 'approve', at: 2 });
    await fx.store.putRequest(pendingRequest('call_new', { args: '{"amount":512345,"payment_id":"pay_1"}' }));
    const { cookie } = await signIn(fx.serve.url, fx.tokens.bob!);
    const page = await (await fetch(`${fx.serve.url}/requests/call_new`, { headers: { cookie } })).text();
    expect(page).toContain('rule[1] matched: <b>approve</b>');
    expect(page).toContain('amount_lte: 1000000');
    expect(page).toContain('payments-approval');
    expect(page).toContain('payments-approver');
    expect(page).toContain('0 of 1');
    expect(page).toContain('call_old');
    expect(page).toMatch(/<tr class="changed"><td><code>amount<\/code><\/td><td><code>512345<\/code><\/td><td><code>20000<\/code>/);
    expect(page).toMatch(/<tr class="same"><td><code>payment_id<\/code>/);
  });

  it('expired approvals: an approved request past the TTL shows as expired and can no longer be answered', async () => {
    let now = Date.now();
    fx = await startFixture({ bob: ['payments-approver'], carol: ['payments-approver'] }, { clock: () => now, approvalTtlMs: 60_000 });
    await fx.store.putRequest(pendingRequest('call_e'));
    await api(fx.serve.url, fx.tokens.bob, 'POST', '/api/requests/call_e/answer', { decision: 'approve' });
    const { cookie } = await signIn(fx.serve.url, fx.tokens.carol!);
    expect(await (await fetch(`${fx.serve.url}/requests/call_e`, { headers: { cookie } })).text()).toContain('approval valid until');
    now += 61_000;
    expect(await (await fetch(`${fx.serve.url}/requests/call_e`, { headers: { cookie } })).text()).toContain('approval expired');
    expect((await api(fx.serve.url, fx.tokens.carol, 'POST', '/api/requests/call_e/answer', { decision: 'approve' })).json.error).toBe('not_pending');
  });

  it('pages the pending list newest first', async () => {
    fx = await startFixture({ bob: [] });
    for (let i = 0; i < 120; i++) await fx.store.putRequest(pendingRequest(`call_${String(i).padStart(3, '0')}`, { createdAt: 1000 + i }));
    const { cookie } = await signIn(fx.serve.url, fx.tokens.bob!);
    const ids = (html: string) => [...html.matchAll(/href="\/requests\/(call_\d+)"/g)].map((m) => m[1]);
    const first = await (await fetch(`${fx.serve.url}/`, { headers: { cookie } })).text();
    expect(ids(first)).toHaveLength(50);
    expect(ids(first)[0]).toBe('call_119');
    expect(first).toContain('page 1 of 3');
    const last = await (await fetch(`${fx.serve.url}/?page=3`, { headers: { cookie } })).text();
    expect(ids(last)).toEqual(Array.from({ length: 20 }, (_, i) => `call_${String(19 - i).padStart(3, '0')}`));
  });

  it('a trusted identity header counts only from a configured proxy address', async () => {
    fx = await startFixture({ 'bob@example.com': ['payments-approver'] }, { trustHeader: 'X-Forwarded-Email', trustProxies: ['127.0.0.1'] });
    const trusted = await fetch(`${fx.serve.url}/`, { headers: { 'X-Forwarded-Email': 'Bob@Example.com' }, redirect: 'manual' });
    expect(trusted.status).toBe(200);
    expect(await trusted.text()).toContain('data-testid="viewer">bob@example.com<');
    await fx.close();
    fx = await startFixture({ bob: [] }, { trustHeader: 'X-Forwarded-Email', trustProxies: ['10.0.0.1'] });
    const untrusted = await fetch(`${fx.serve.url}/`, { headers: { 'X-Forwarded-Email': 'bob' }, redirect: 'manual' });
    expect(untrusted.status).toBe(303);
  });

  it('the receipts page verifies the chain and names a break', async () => {
    fx = await startFixture({ bob: [] });
    await fx.store.appendReceipt({
      at: 1,
      action: 'a',
      call_id: null,
      args_hash: null,
      principal: 'p',
      decision: 'allow',
      reason: 'r',
      approvers: [],
      effect_key: null,
      result: 'executed',
      policy_hash: 'h',
      mode: 'enforce',
      environment: null,
    });
    const { cookie } = await signIn(fx.serve.url, fx.tokens.bob!);
    expect(await (await fetch(`${fx.serve.url}/receipts`, { headers: { cookie } })).text()).toContain('Chain intact: 1 receipts verified.');
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(`${fx.dir}/state.db`);
    const row = db.prepare('SELECT receipt FROM receipts WHERE seq = 1').get() as { receipt: string };
    db.prepare('UPDATE receipts SET receipt = ? WHERE seq = 1').run(row.receipt.replace('"principal":"p"', '"principal":"mallory"'));
    db.close();
    expect(await (await fetch(`${fx.serve.url}/receipts`, { headers: { cookie } })).text()).toContain('Chain broken at seq 1: content_altered');
  });
});
