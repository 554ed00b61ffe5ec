import { randomBytes } from 'node:crypto';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { evaluate } from '../policy/evaluate.js';
import { argsMatchHash } from '../runtime/args-binding.js';
import { verifyReceipts } from '../runtime/receipts.js';
import { tenantPrefix } from '../runtime/tenant-names.js';
import type { ApprovalRequest, ApprovalState, Store } from '../runtime/types.js';
import { listGrantsOf } from '../operator-actions.js';
import { ARGS_MISMATCH, type AnswerBody, answerAs, resolveAs, revokeAs, roleProblem } from './answers.js';
import { editedFromForm } from './answer-form.js';
import { type Principal, SESSION_TTL_MS, sameToken, sessionCookieName } from './auth.js';
import { answerContextOf, type Env, type ServeAppOptions, storeFor } from './app-options.js';
import { mountInsights } from './insights-page.js';
import { effectsPage, grantsPage, historyPage, inboxPage, loginPage, receiptsPage, requestPage, type Viewer } from './pages.js';
import { haltsPage } from './halts-page.js';
import { haltAs, liftAs } from './halts-api.js';
import { argumentRows, expiry, lastApprovedOf, newestFirst, PAGE_SIZE, type Page, paginate } from './view.js';

/** The message a page shows when an answer came without the operator's token (the step-up). */
export const STEP_UP_REFUSED =
  'Refused: type your operator token to answer. A signed-in page only shows; every answer, resolution and prune asks for the token again, so a session cookie alone never answers.';

/** The login form and sign-in, the guard every other page passes, and the pages themselves. */
export function mountPages(app: Hono<Env>, o: ServeAppOptions): void {
  const cookie = () => sessionCookieName(o.origin(), o.secureCookies);
  // the login form's CSRF token: a random value in a cookie and in the form (any replica checks it)
  const loginCookie = () => `${cookie()}_login`;
  const cookieOptions = { httpOnly: true, sameSite: 'Strict', path: '/', secure: o.secureCookies } as const;
  const identify = async (c: Context): Promise<Principal | undefined> =>
    (await o.auth.fromHeader(o.remoteAddress(c), (n) => c.req.header(n))) ?? (await o.auth.fromSession(getCookie(c, cookie())));
  const loginForm = (c: Context, error?: string, status: 200 | 401 | 403 = 200) => {
    const csrf = randomBytes(24).toString('base64url');
    setCookie(c, loginCookie(), csrf, { ...cookieOptions, maxAge: 3600 });
    return c.html(loginPage(csrf, error), status);
  };

  app.get('/login', (c) => loginForm(c));
  app.post('/login', async (c) => {
    const form = await c.req.parseBody();
    if (!sameOrigin(c) || !sameToken(getCookie(c, loginCookie()), form.csrf)) return loginForm(c, 'The form expired; sign in again.', 403);
    const id = typeof form.token === 'string' && form.token.length <= 200 ? await o.auth.signIn(form.token.trim()) : undefined;
    if (!id) return loginForm(c, 'That token is not an operator token here.', 401);
    deleteCookie(c, loginCookie(), { path: '/', secure: o.secureCookies });
    setCookie(c, cookie(), id, { ...cookieOptions, maxAge: SESSION_TTL_MS / 1000 });
    return c.redirect('/', 303);
  });

  const guard = createMiddleware<Env>(async (c, next) => {
    const who = await identify(c);
    if (!who) return c.req.method === 'GET' ? c.redirect('/login', 303) : c.text('Sign in first.', 401);
    if (c.req.method === 'POST') {
      const form = await c.req.parseBody();
      if (!sameOrigin(c) || !sameToken(who.csrf, form.csrf)) return c.text('Refused: missing or wrong CSRF token (reload the page and try again).', 403);
    }
    c.set('who', who);
    await next();
    return undefined;
  });
  /** The step-up of a state-changing form: the operator's token again (a session cookie alone never answers). */
  const steppedUp = async (c: Context<Env>) => o.auth.stepUp(c.get('who'), (await c.req.parseBody()).token);
  const pageNumber = (c: Context) => Number.parseInt(c.req.query('page') ?? '1', 10);
  const store = (c: Context<Env>) => storeFor(o, c.get('who'));

  app.post('/logout', guard, async (c) => {
    await o.auth.signOut(getCookie(c, cookie()));
    deleteCookie(c, cookie(), { path: '/', secure: o.secureCookies });
    return c.redirect('/login', 303);
  });
  app.get('/', guard, async (c) => c.html(inboxPage(viewer(c), await pageOf(store(c), ['pending'], pageNumber(c)))));
  app.get('/history', guard, async (c) => c.html(historyPage(viewer(c), await pageOf(store(c), ['approved', 'rejected', 'consumed'], pageNumber(c)))));
  app.get('/requests/:id', guard, async (c) => {
    const request = await store(c).getRequest(pageId(c.get('who'), c.req.param('id')));
    if (!request) return c.text(`No approval request ${c.req.param('id')}.`, 404);
    return renderRequest(c, o, request);
  });
  app.post('/requests/:id/answer', guard, async (c) => {
    const id = pageId(c.get('who'), c.req.param('id'));
    const s = store(c);
    if (!(await steppedUp(c))) {
      const request = await s.getRequest(id);
      return request ? renderRequest(c, o, request, { kind: 'err', text: STEP_UP_REFUSED }, 401) : c.text(STEP_UP_REFUSED, 401);
    }
    const form = await c.req.parseBody();
    const body = await formAnswer(s, id, form);
    if ('message' in body) {
      const request = await s.getRequest(id);
      return request ? renderRequest(c, o, request, { kind: 'err', text: body.message }, 400) : c.text(body.message, 404);
    }
    const result = await answerAs(s, answerContextOf(o), c.get('who'), id, body, o.clock());
    if (result.ok) return renderRequest(c, o, result.request, { kind: 'ok', text: result.message });
    const request = result.request ?? (await s.getRequest(id));
    if (!request) return c.text(result.message, 404);
    return renderRequest(c, o, request, { kind: 'err', text: result.message }, result.status);
  });
  app.get('/grants', guard, async (c) => c.html(grantsPage(viewer(c), await listGrantsOf(store(c)), o.clock())));
  app.post('/grants/:id/revoke', guard, async (c) => {
    const s = store(c);
    if (!(await steppedUp(c))) return c.html(grantsPage(viewer(c), await listGrantsOf(s), o.clock(), { kind: 'err', text: STEP_UP_REFUSED }), 401);
    const result = await revokeAs(s, o.policy, c.get('who'), c.req.param('id'), o.clock(), o.signer);
    return c.html(
      grantsPage(viewer(c), await listGrantsOf(s), o.clock(), { kind: result.ok ? 'ok' : 'err', text: result.message }),
      result.ok ? 200 : result.status,
    );
  });
  app.get('/effects', guard, async (c) => c.html(effectsPage(viewer(c), await store(c).listEffects(), o.clock())));
  app.post('/effects/resolve', guard, async (c) => {
    const s = store(c);
    if (!(await steppedUp(c))) return c.html(effectsPage(viewer(c), await s.listEffects(), o.clock(), { kind: 'err', text: STEP_UP_REFUSED }), 401);
    const form = await c.req.parseBody();
    const result = await resolveAs(s, o.policy, c.get('who'), form.key, form.state, o.clock(), o.signer);
    return c.html(
      effectsPage(viewer(c), await s.listEffects(), o.clock(), { kind: result.ok ? 'ok' : 'err', text: result.message }),
      result.ok ? 200 : result.status,
    );
  });
  mountInsights(app, o, guard, viewer);
  haltRoutes(app, o, { guard, steppedUp, store });
  app.get('/receipts', guard, async (c) => {
    const who = c.get('who');
    // a tenant's operator reads its tenant's receipts; the chain (every tenant's) is verified by the store's operators
    const verify = who.tenant === undefined ? await verifyReceipts(o.store) : undefined;
    const all = await store(c).listReceipts();
    return c.html(receiptsPage(viewer(c), all.slice(-200).reverse(), all.length, verify));
  });
}

/** The answer form's fields as an answer: `approve_edited` approves the fields' arguments (answer-form.ts); grant fields go with an approval. */
async function formAnswer(store: Store, id: string, form: Record<string, unknown>): Promise<AnswerBody | { message: string }> {
  const edited = form.decision === 'approve_edited';
  const body: AnswerBody = { decision: edited ? 'approve' : form.decision, reason: form.reason };
  if (form.decision === 'respond') body.result = form.result;
  if (edited) {
    const request = await store.getRequest(id);
    if (!request) return { message: `No approval request ${id}.` };
    const read = editedFromForm(request, form);
    if (!read.ok) return { message: read.message };
    body.arguments = read.text;
  }
  const hours = typeof form.grant_hours === 'string' ? form.grant_hours.trim() : '';
  if (body.decision === 'approve' && hours !== '') body.grant = { hours, bounds: typeof form.grant_bounds === 'string' ? form.grant_bounds.trim() : '' };
  return body;
}

type PageDeps = {
  guard: MiddlewareHandler<Env>;
  steppedUp: (c: Context<Env>) => Promise<boolean>;
  store: (c: Context<Env>) => Store;
};

/** The halts page: what is halted, a lift form for each, a form to halt (each asks for the operator's token again). */
function haltRoutes(app: Hono<Env>, o: ServeAppOptions, { guard, steppedUp, store }: PageDeps): void {
  const haltsOf = async (s: Store) => (typeof s.readHalts === 'function' ? (await s.readHalts()).halts : []);
  app.get('/halts', guard, async (c) => c.html(haltsPage(viewer(c), await haltsOf(store(c)))));
  app.post('/halts', guard, async (c) => {
    const s = store(c);
    if (!(await steppedUp(c))) return c.html(haltsPage(viewer(c), await haltsOf(s), { kind: 'err', text: STEP_UP_REFUSED }), 401);
    const form = await c.req.parseBody();
    const body = {
      target: form.target,
      ...(typeof form.value === 'string' && form.value.trim() !== '' ? { value: form.value } : {}),
      reason: form.reason,
      hard: form.hard === 'true',
    };
    const result = await haltAs(s, c.get('who'), body, o.clock(), o.signer);
    return c.html(haltsPage(viewer(c), await haltsOf(s), { kind: result.ok ? 'ok' : 'err', text: result.message }), result.ok ? 200 : result.status);
  });
  app.post('/halts/lift', guard, async (c) => {
    const s = store(c);
    if (!(await steppedUp(c))) return c.html(haltsPage(viewer(c), await haltsOf(s), { kind: 'err', text: STEP_UP_REFUSED }), 401);
    const form = await c.req.parseBody();
    const reason = typeof form.reason === 'string' && form.reason.trim() !== '' ? { reason: form.reason } : {};
    const result = await liftAs(s, c.get('who'), typeof form.id === 'string' ? form.id : '', reason, o.clock(), o.signer);
    return c.html(haltsPage(viewer(c), await haltsOf(s), { kind: result.ok ? 'ok' : 'err', text: result.message }), result.ok ? 200 : result.status);
  });
}

/**
 * A request id in a page's URL: the operator's own names, or (the inbox's links, the webhook's) the
 * stored form of its own tenant's, which names never start with `@` can only be.
 */
function pageId(who: Principal, id: string): string {
  if (who.tenant === undefined) return id;
  const own = tenantPrefix(who.tenant);
  return id.startsWith(own) ? id.slice(own.length) : id;
}

function viewer(c: Context<Env>): Viewer {
  const who = c.get('who');
  return { name: who.name, roles: who.roles, csrf: who.csrf ?? '', stepUp: who.via === 'session', ...(who.tenant !== undefined ? { tenant: who.tenant } : {}) };
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
  status: 200 | 400 | 401 | 403 | 404 | 409 = 200,
) {
  const s = storeFor(o, c.get('who'));
  const decided = [...(await s.listRequests({ state: 'approved' })), ...(await s.listRequests({ state: 'consumed' }))];
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
      maxGrantHours: o.maxGrantHours,
      ...(message ? { message } : {}),
    }),
    status,
  );
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
