import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { secureHeaders } from 'hono/secure-headers';
import { evaluate } from '../policy/evaluate.js';
import type { Policy } from '../policy/types.js';
import { argsMatchHash } from '../runtime/args-binding.js';
import { verifyReceipts } from '../runtime/receipts.js';
import type { ReceiptSigner } from '../runtime/signing.js';
import { StoreError } from '../runtime/stores/errors.js';
import type { ApprovalAnswer, ApprovalRequest, ApprovalState, EffectState, Store } from '../runtime/types.js';
import { answerRequest, resolveEffectKey } from '../operator-actions.js';
import { ARGS_MISMATCH, answerAs, cleanReason, recordAnswerRefusal, recordRoleRefusal, resolveAs, roleProblem } from './answers.js';
import { type Authenticator, type Principal, SESSION_TTL_MS, sameToken, sessionCookieName } from './auth.js';
import { tryName } from './identity.js';
import { RUNTIME_METHODS, runtimeStoreCall } from './runtime-api.js';
import { TenantRefusal, tenantScope } from './tenant.js';
import { CSS, effectsPage, historyPage, inboxPage, loginPage, receiptsPage, requestPage, type Viewer } from './pages.js';
import { argumentRows, expiry, lastApprovedOf, newestFirst, PAGE_SIZE, type Page, paginate } from './view.js';

export interface ServeAppOptions {
  store: Store;
  policy: Policy;
  auth: Authenticator;
  clock: () => number;
  /** The control's approvalTtlMs, to show when an approval runs out. */
  approvalTtlMs: number;
  /** Cookies get `Secure` (serve runs with TLS, or behind a TLS proxy). */
  secureCookies: boolean;
  /** The connection's remote address (the trusted-header check needs it). */
  remoteAddress: (c: Context) => string | undefined;
  /** The connection's local port: sessions and their cookie belong to the listener that issued them. */
  localPort?: (c: Context) => number | undefined;
  /** Called once for each request a runtime token files (the webhook). */
  onNewRequest?: (request: ApprovalRequest) => void;
  /**
   * Web origins (`https://app.example.com`) whose pages may call the JSON API from a browser
   * (CORS), e.g. a browser agent's `httpStore`. Bearer tokens only: no cookie is ever sent or
   * honoured cross-site, so the pages stay same-origin.
   */
  corsOrigins?: readonly string[];
  /**
   * serve's own receipt key (`--signing-key`, `CTRLRUN_RECEIPT_KEY`): every receipt serve writes
   * (answers, refused answers, resolutions) is followed by a checkpoint naming it. Never used for
   * what a token appends through the raw store API (the application signs its own; an operator's
   * stays unsigned, so `foreign`).
   */
  signer?: ReceiptSigner;
}

type Env = { Variables: { who: Principal } };

const OPERATOR_METHODS = new Set([
  'getRequest',
  'listRequests',
  'addAnswer',
  'resolveEffect',
  'getEffect',
  'consumptions',
  'listEffects',
  'appendReceipt',
  'listReceipts',
  'listDecisions',
]);
const STATES: ApprovalState[] = ['pending', 'approved', 'rejected', 'consumed'];
const EFFECT_STATES: EffectState[] = ['in_flight', 'committed', 'failed', 'ambiguous'];

/**
 * The inbox and its JSON API as one Hono app (no Node built-ins here beyond what the auth module
 * uses, so the routes stay portable). HTML routes authenticate by session cookie or a trusted
 * proxy header and check a CSRF token on every POST; `/api/*` authenticates by bearer token only
 * (no ambient credential, so no CSRF).
 */
export function createServeApp(o: ServeAppOptions): Hono<Env> {
  const app = new Hono<Env>();
  useBaseMiddleware(app);
  mountApi(app, o);
  mountPages(app, o);
  return app;
}

/** Headers, body limit, timing and error mapping for every route, plus the two unauthenticated ones. */
function useBaseMiddleware(app: Hono<Env>): void {
  app.use(
    '*',
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'none'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
      },
      referrerPolicy: 'same-origin', // not no-referrer: with it Chromium sends `Origin: null` on form posts
      crossOriginResourcePolicy: 'same-origin',
    }),
  );
  app.use('*', bodyLimit({ maxSize: 256 * 1024, onError: (c) => c.json({ error: 'body_too_large', message: 'The request body is over 256 KiB.' }, 413) }));
  app.use('*', async (c, next) => {
    const started = performance.now();
    await next();
    c.header('Cache-Control', 'no-store');
    // How long serve spent on the request (the bench reads it; browsers show it in their tools).
    c.header('Server-Timing', `app;dur=${(performance.now() - started).toFixed(1)}`);
  });
  app.onError((error, c) => {
    if (error instanceof TenantRefusal) return c.json({ error: 'forbidden', message: error.message }, 403);
    if (error instanceof StoreError) {
      // the message may name the server's files or hold SQL text: logged here, never sent
      console.error(`serve: store: ${error.message}`);
      return c.json({ error: 'store', message: `The store failed (${error.code}); the server log says why.` }, 503);
    }
    console.error(`serve: ${error instanceof Error ? error.message : String(error)}`);
    return c.json({ error: 'internal', message: 'internal error' }, 500);
  });

  app.get('/static/app.css', (c) => {
    c.header('Content-Type', 'text/css; charset=utf-8');
    return c.body(CSS);
  });
  app.get('/healthz', (c) => c.json({ ok: true }));
}

// ---------------------------------------------------------------- the JSON API (bearer tokens)

/** `/api/*`: CORS for the configured origins (when any), the bearer-token check, then the routes. */
function mountApi(app: Hono<Env>, o: ServeAppOptions): void {
  const corsOrigins = new Set(o.corsOrigins ?? []);
  if (corsOrigins.size > 0) {
    // Before the token check, so a browser's preflight (which carries no token) is answered.
    app.use(
      '/api/*',
      cors({
        origin: (origin) => (corsOrigins.has(origin) ? origin : null),
        allowMethods: ['GET', 'POST'],
        allowHeaders: ['Authorization', 'Content-Type'],
        credentials: false,
        maxAge: 600,
      }),
    );
  }
  const api = new Hono<Env>();
  api.use('*', async (c, next) => {
    const header = c.req.header('Authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const who = match ? o.auth.fromToken(match[1]!) : undefined;
    if (!who) return c.json({ error: 'unauthenticated', message: 'Send Authorization: Bearer TOKEN (a token from `ctrlrun-gen operators add`).' }, 401);
    c.set('who', who);
    await next();
  });
  apiRoutes(api, o);
  // The store interface over HTTP, for httpStore: one POST per method, its arguments as an array.
  api.post('/store/:method', (c) => storeMethod(c, o));
  app.route('/api', api);
}

/** The API's request, effect and receipt routes. */
function apiRoutes(api: Hono<Env>, o: ServeAppOptions): void {
  api.get('/requests', async (c) => {
    const state = c.req.query('state');
    if (state !== undefined && !STATES.includes(state as ApprovalState))
      return c.json({ error: 'bad_state', message: `state must be one of ${STATES.join(', ')}` }, 400);
    const filter = state ? { state: state as ApprovalState } : {};
    const who = c.get('who');
    return c.json(who.kind === 'runtime' ? await runtimeStoreCall(o.store, who.tenant, 'listRequests', [filter]) : await o.store.listRequests(filter));
  });
  api.get('/requests/:id', async (c) => {
    const who = c.get('who');
    const r =
      who.kind === 'runtime' ? await runtimeStoreCall(o.store, who.tenant, 'getRequest', [c.req.param('id')]) : await o.store.getRequest(c.req.param('id'));
    return r ? c.json(r) : c.json({ error: 'unknown', message: `No approval request ${c.req.param('id')}.` }, 404);
  });
  api.post('/requests/:id/answer', async (c) => {
    const body = await jsonBody(c);
    const result = await answerAs(o.store, o.policy, c.get('who'), c.req.param('id'), body.decision, body.reason, o.clock(), o.signer);
    return result.ok
      ? c.json({ outcome: 'recorded', message: result.message, request: result.request })
      : c.json({ error: result.code, message: result.message }, result.status);
  });
  api.get('/effects', async (c) => {
    const state = c.req.query('state');
    if (state !== undefined && !EFFECT_STATES.includes(state as EffectState))
      return c.json({ error: 'bad_state', message: `state must be one of ${EFFECT_STATES.join(', ')}` }, 400);
    const filter = state ? { state: state as EffectState } : {};
    const who = c.get('who');
    return c.json(who.kind === 'runtime' ? await runtimeStoreCall(o.store, who.tenant, 'listEffects', [filter]) : await o.store.listEffects(filter));
  });
  api.post('/effects/resolve', async (c) => {
    const body = await jsonBody(c);
    const result = await resolveAs(o.store, o.policy, c.get('who'), body.key, body.state, o.clock(), o.signer);
    return result.ok
      ? c.json({ outcome: 'resolved', message: result.message, effect: result.effect })
      : c.json({ error: result.code, message: result.message }, result.status);
  });
  api.get('/receipts/verify', async (c) => c.json(await verifyReceipts(o.store)));
}

/** POST /api/store/:method: the methods this token's kind may call, with answers and resolutions checked like serve's own. */
async function storeMethod(c: Context<Env>, o: ServeAppOptions) {
  const who = c.get('who');
  const method = c.req.param('method')!;
  const allowed = who.kind === 'runtime' ? RUNTIME_METHODS : OPERATOR_METHODS;
  if (!allowed.has(method)) {
    const why =
      who.kind === 'runtime' && (method === 'addAnswer' || method === 'resolveEffect')
        ? 'a runtime token never answers'
        : who.kind === 'operator' && method === 'claimApproval'
          ? 'an operator token never claims'
          : 'not a store method';
    return c.json({ error: 'forbidden', message: `${method}: ${why}.` }, 403);
  }
  const body = await jsonBody(c);
  const args = Array.isArray(body.args) ? (body.args as unknown[]) : [];
  if (method === 'addAnswer') return storeAddAnswer(c, o, who, args);
  if (method === 'resolveEffect') return storeResolveEffect(c, o, who, args);
  if (who.kind === 'runtime') {
    const result = await runtimeStoreCall(o.store, who.tenant, method, args);
    if (method === 'putRequest' && o.onNewRequest) {
      const r = result as ApprovalRequest;
      // announced under its stored id (the inbox's), which names the tenant
      if (r.state === 'pending' && r.answers.length === 0) o.onNewRequest({ ...r, callId: tenantScope(who.tenant).inward(r.callId) });
    }
    // a named tenant's receipt is stored under its names (`@T:call`): say so, so that its signer
    // can check that what was appended is what it sent before signing it
    if (method === 'appendReceipt' && who.tenant !== undefined) return c.json({ result: result ?? null, names: `@${who.tenant}:` });
    return c.json({ result: result ?? null });
  }
  const fn = (o.store as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[method]!;
  return c.json({ result: (await fn.apply(o.store, args)) ?? null });
}

/** addAnswer over the store API: the approver is the token's operator, with serve's clock, role check and args check. */
async function storeAddAnswer(c: Context<Env>, o: ServeAppOptions, who: Principal, args: unknown[]) {
  const [callId, answer] = args as [unknown, Record<string, unknown> | undefined];
  if (typeof callId !== 'string' || typeof answer !== 'object' || answer === null)
    return c.json({ error: 'bad_arguments', message: 'addAnswer(callId, answer)' }, 400);
  if (typeof answer.approver !== 'string' || tryName(answer.approver) !== who.name) {
    // an answer in another's name is a refused answer: one receipt naming who tried (issue 24, item 5)
    const target = await o.store.getRequest(callId);
    const decision = answer.decision === 'reject' ? 'reject' : 'approve';
    if (target) await recordAnswerRefusal(o.store, target, { approver: who.name, decision, at: o.clock() }, 'approver_not_authenticated', o.signer);
    return c.json(
      { error: 'forbidden', message: `addAnswer: the approver is the authenticated operator (${who.name}), not ${JSON.stringify(answer.approver)}.` },
      403,
    );
  }
  if (answer.decision !== 'approve' && answer.decision !== 'reject')
    return c.json({ error: 'bad_arguments', message: 'addAnswer: decision is approve or reject.' }, 400);
  const reason = cleanReason(answer.reason);
  if (!reason.ok)
    return c.json({ error: 'bad_arguments', message: 'addAnswer: the reason may not hold control characters and is at most 2000 characters.' }, 400);
  const request = await o.store.getRequest(callId);
  const problem = request ? roleProblem(o.policy, request.action, who) : undefined;
  if (problem) {
    await recordRoleRefusal(o.store, request!, who.name, o.clock(), o.signer);
    return c.json({ error: 'forbidden', message: problem }, 403);
  }
  // serve's clock, never the client's `at` (an answer a year ahead would never expire); one receipt
  const recorded: ApprovalAnswer = { approver: who.name, decision: answer.decision, at: o.clock(), ...(reason.value ? { reason: reason.value } : {}) };
  // the args/hash check here too (issue 24): whatever an operator's tool showed, it cannot approve another call
  const answered = await answerRequest(o.store, callId, recorded, o.signer);
  if (answered.outcome === 'args_mismatch')
    return c.json({ error: 'args_mismatch', message: `addAnswer: the request's args do not match its argsHash; it cannot be answered.` }, 409);
  return c.json({ result: answered });
}

/** resolveEffect over the store API: by the token's operator, with serve's clock and the role check. */
async function storeResolveEffect(c: Context<Env>, o: ServeAppOptions, who: Principal, args: unknown[]) {
  const [key, state, by] = args as [string, 'committed' | 'failed', unknown];
  if (typeof key !== 'string' || (state !== 'committed' && state !== 'failed'))
    return c.json({ error: 'bad_arguments', message: 'resolveEffect(key, committed|failed, by, now)' }, 400);
  if (typeof by !== 'string' || tryName(by) !== who.name)
    return c.json({ error: 'forbidden', message: `resolveEffect: the operator is the authenticated one (${who.name}).` }, 403);
  const effect = await o.store.getEffect(key);
  const problem = effect ? roleProblem(o.policy, effect.action, who) : undefined;
  if (problem) return c.json({ error: 'forbidden', message: problem }, 403);
  // serve's clock, and the `resolved` receipt the CLI and the page write too
  const resolved = await resolveEffectKey(o.store, key, state, who.name, o.clock(), o.signer);
  return c.json({ result: resolved.outcome === 'unknown' ? null : resolved.effect });
}

// ---------------------------------------------------------------- the pages (session or header)

/** How a page request names its listener, its session cookie and its principal. */
interface Sessions {
  cookieOf: (c: Context) => string;
  listener: (c: Context) => string;
  identify: (c: Context) => Principal | undefined;
}

function sessions(o: ServeAppOptions): Sessions {
  const port = (c: Context) => o.localPort?.(c);
  const cookieOf = (c: Context) => sessionCookieName(port(c));
  const listener = (c: Context) => `${new URL(c.req.url).host}|${port(c) ?? ''}`;
  const identify = (c: Context): Principal | undefined =>
    o.auth.fromHeader(o.remoteAddress(c), (n) => c.req.header(n)) ?? o.auth.fromSession(getCookie(c, cookieOf(c)), listener(c));
  return { cookieOf, listener, identify };
}

/** The login form and sign-in, the guard every other page passes, and the pages themselves. */
function mountPages(app: Hono<Env>, o: ServeAppOptions): void {
  const s = sessions(o);
  app.get('/login', (c) => c.html(loginPage(o.auth.loginCsrf())));
  app.post('/login', async (c) => {
    const form = await c.req.parseBody();
    if (!sameOrigin(c) || !sameToken(o.auth.loginCsrf(), form.csrf)) return c.html(loginPage(o.auth.loginCsrf(), 'The form expired; sign in again.'), 403);
    const id = typeof form.token === 'string' ? o.auth.signIn(form.token.trim(), s.listener(c)) : undefined;
    if (!id) return c.html(loginPage(o.auth.loginCsrf(), 'That token is not an operator token here.'), 401);
    setCookie(c, s.cookieOf(c), id, { httpOnly: true, sameSite: 'Strict', path: '/', secure: o.secureCookies, maxAge: SESSION_TTL_MS / 1000 });
    return c.redirect('/', 303);
  });

  const guard = createMiddleware<Env>(async (c, next) => {
    const who = s.identify(c);
    if (!who) return c.req.method === 'GET' ? c.redirect('/login', 303) : c.text('Sign in first.', 401);
    if (c.req.method === 'POST') {
      const form = await c.req.parseBody();
      if (!sameOrigin(c) || !sameToken(who.csrf, form.csrf)) return c.text('Refused: missing or wrong CSRF token (reload the page and try again).', 403);
    }
    c.set('who', who);
    await next();
    return undefined;
  });
  const pageNumber = (c: Context) => Number.parseInt(c.req.query('page') ?? '1', 10);

  app.post('/logout', guard, (c) => {
    o.auth.signOut(getCookie(c, s.cookieOf(c)));
    deleteCookie(c, s.cookieOf(c), { path: '/' });
    return c.redirect('/login', 303);
  });
  app.get('/', guard, async (c) => {
    return c.html(inboxPage(viewer(c), await pageOf(o.store, ['pending'], pageNumber(c))));
  });
  app.get('/history', guard, async (c) => {
    return c.html(historyPage(viewer(c), await pageOf(o.store, ['approved', 'rejected', 'consumed'], pageNumber(c))));
  });
  app.get('/requests/:id', guard, async (c) => {
    const request = await o.store.getRequest(c.req.param('id'));
    if (!request) return c.text(`No approval request ${c.req.param('id')}.`, 404);
    return renderRequest(c, o, request);
  });
  app.post('/requests/:id/answer', guard, async (c) => {
    const form = await c.req.parseBody();
    const result = await answerAs(o.store, o.policy, c.get('who'), c.req.param('id'), form.decision, form.reason, o.clock(), o.signer);
    if (result.ok) return renderRequest(c, o, result.request, { kind: 'ok', text: result.message });
    const request = result.request ?? (await o.store.getRequest(c.req.param('id')));
    if (!request) return c.text(result.message, 404);
    return renderRequest(c, o, request, { kind: 'err', text: result.message }, result.status);
  });
  app.get('/effects', guard, async (c) => c.html(effectsPage(viewer(c), await o.store.listEffects(), o.clock())));
  app.post('/effects/resolve', guard, async (c) => {
    const form = await c.req.parseBody();
    const result = await resolveAs(o.store, o.policy, c.get('who'), form.key, form.state, o.clock(), o.signer);
    return c.html(
      effectsPage(viewer(c), await o.store.listEffects(), o.clock(), { kind: result.ok ? 'ok' : 'err', text: result.message }),
      result.ok ? 200 : result.status,
    );
  });
  app.get('/receipts', guard, async (c) => {
    const verify = await verifyReceipts(o.store);
    const all = await o.store.listReceipts();
    return c.html(receiptsPage(viewer(c), all.slice(-200).reverse(), all.length, verify));
  });
}

function viewer(c: Context<Env>): Viewer {
  const who = c.get('who');
  return { name: who.name, roles: who.roles, csrf: who.csrf ?? '' };
}

/** One page of requests in `states`, newest first: the store's own paging when it has it, else list and slice. */
async function pageOf(store: Store, states: ApprovalState[], wanted: number): Promise<Page<ApprovalRequest>> {
  const pageRequests = store.pageRequests?.bind(store);
  if (!pageRequests) {
    const lists = await Promise.all(states.map((state) => store.listRequests({ state })));
    return paginate(newestFirst(lists.flat()), wanted);
  }
  const at = (n: number) => pageRequests({ states }, { limit: PAGE_SIZE, offset: (n - 1) * PAGE_SIZE });
  let page = Math.max(1, Number.isFinite(wanted) ? Math.floor(wanted) : 1);
  let got = await at(page);
  const pages = Math.max(1, Math.ceil(got.total / PAGE_SIZE));
  if (page > pages) {
    page = pages;
    got = await at(page);
  }
  return { items: got.items, page, pages, total: got.total };
}

/** The request page: its arguments against the last approved call of the action, the policy's explanation, and whether this operator may answer. */
async function renderRequest(
  c: Context<Env>,
  o: ServeAppOptions,
  request: ApprovalRequest,
  message?: { kind: 'ok' | 'err'; text: string },
  status: 200 | 400 | 403 | 404 | 409 = 200,
) {
  const decided = [...(await o.store.listRequests({ state: 'approved' })), ...(await o.store.listRequests({ state: 'consumed' }))];
  const previous = lastApprovedOf(request, decided);
  let args: unknown;
  try {
    args = JSON.parse(request.args);
  } catch {
    args = undefined;
  }
  const known = Object.hasOwn(o.policy.actions, request.action) ? o.policy.actions[request.action] : undefined;
  const ex = expiry(request, o.approvalTtlMs, o.clock());
  const cannot = argsMatchHash(request) ? roleProblem(o.policy, request.action, c.get('who')) : ARGS_MISMATCH;
  return c.html(
    requestPage(viewer(c), {
      request,
      rows: argumentRows(request.args, previous?.args),
      ...(previous ? { previous } : {}),
      ...(known ? { explanation: evaluate(o.policy, request.action, args) } : {}),
      ...(known
        ? {
            action: {
              approvalsRequired: known.approvalsRequired,
              controls: known.controls.map((id) => ({
                id,
                ...(o.policy.controls[id]?.title ? { title: o.policy.controls[id]!.title! } : {}),
                ...(o.policy.controls[id]?.approverRole ? { approverRole: o.policy.controls[id]!.approverRole! } : {}),
              })),
            },
          }
        : {}),
      policyMatches: request.policyHash === o.policy.hash,
      ...(ex ? { expiry: ex } : {}),
      ttlMs: o.approvalTtlMs,
      ...(cannot ? { cannotAnswer: cannot } : {}),
      ...(message ? { message } : {}),
    }),
    status,
  );
}

async function jsonBody(c: Context): Promise<Record<string, unknown>> {
  try {
    const body: unknown = await c.req.json();
    return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * A browser POST whose Origin is not the address it was sent to (another site, or another port of
 * this host: another listener) is refused, besides the CSRF token.
 */
function sameOrigin(c: Context): boolean {
  const origin = c.req.header('Origin');
  if (origin === undefined || origin === 'null') return origin === undefined;
  try {
    return new URL(origin).host === new URL(c.req.url).host;
  } catch {
    return false;
  }
}
