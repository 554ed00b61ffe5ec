import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { secureHeaders } from 'hono/secure-headers';
import { PruneUnsupported } from '../prune.js';
import { verifyReceipts } from '../runtime/receipts.js';
import { isHaltsChanged, StoreError } from '../runtime/stores/errors.js';
import { tenantPrefix } from '../runtime/tenant-names.js';
import type { ApprovalGrant, ApprovalRequest, ApprovalState, EffectState, ReceiptBody } from '../runtime/types.js';
import { type AnswerInput, answerRequest, grantReceipt, listGrantsOf } from '../operator-actions.js';
import { policyDecider } from '../policy/evaluate.js';
import { boundsOf } from '../runtime/approval-grants.js';
import { sameIdentity } from '../runtime/identity.js';
import { appendSigned } from '../runtime/signing.js';
import { answerAs, cleanReason, recordAnswerRefusal, recordRoleRefusal, resolveAs, revokeAs, roleProblem } from './answers.js';
import type { Principal } from './auth.js';
import { tryName } from './identity.js';
import { mountPages } from './page-routes.js';
import { pruneAs } from './prune-api.js';
import { type MetricsScope, metricsText, readMetricsSource } from './metrics.js';
import { haltAs, liftAs } from './halts-api.js';
import { RUNTIME_METHODS, runtimeStoreCall } from './runtime-api.js';
import { TenantRefusal } from './tenant-store.js';
import { answerContextOf, type Env, recordedFatigue, type ServeAppOptions, storeFor } from './app-options.js';
import { CSS } from './pages.js';

export type { Env, ServeAppOptions };
export { storeFor };

const OPERATOR_METHODS = new Set([
  'putGrant',
  'revokeGrant',
  'listGrants',
  'getGrant',
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
  'readHalts',
]);
const STATES: ApprovalState[] = ['pending', 'approved', 'rejected', 'consumed'];
const EFFECT_STATES: EffectState[] = ['in_flight', 'committed', 'failed', 'ambiguous'];
/** Request bodies over this are refused (413) before they are read. */
export const BODY_LIMIT = 256 * 1024;

/**
 * The inbox and its JSON API as one Hono app (no Node built-ins here beyond what the auth module
 * uses, so the routes stay portable). HTML routes authenticate by session cookie or a trusted
 * proxy header and check a CSRF token (and the operator's token again: the step-up) on every POST
 * that changes something; `/api/*` authenticates by bearer token only (no ambient credential, so no CSRF).
 */
export function createServeApp(o: ServeAppOptions): Hono<Env> {
  const app = new Hono<Env>();
  useBaseMiddleware(app);
  mountApi(app, o);
  mountMetrics(app, o);
  mountPages(app, o);
  return app;
}

/**
 * `GET /metrics` in the Prometheus text format, for a bearer token only (no cookie: a scraper has
 * none, and a page must not read it): an operator without a tenant sees every tenant's series, any
 * other token only its own tenant's.
 */
function mountMetrics(app: Hono<Env>, o: ServeAppOptions): void {
  app.get('/metrics', async (c) => {
    const match = /^Bearer\s+(\S+)$/i.exec(c.req.header('Authorization') ?? '');
    const who = match ? o.auth.fromToken(match[1]!) : undefined;
    if (!who) return c.text('Send Authorization: Bearer TOKEN (a token from `ctrlrun-gen operators add`).\n', 401);
    const scope: MetricsScope = who.kind === 'operator' && who.tenant === undefined ? { all: true } : { all: false, tenant: who.tenant };
    c.header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8');
    return c.body(metricsText(await readMetricsSource(o.store), scope));
  });
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
  app.use('*', bodyLimit({ maxSize: BODY_LIMIT, onError: (c) => c.json({ error: 'body_too_large', message: 'The request body is over 256 KiB.' }, 413) }));
  app.use('*', async (c, next) => {
    const started = performance.now();
    await next();
    c.header('Cache-Control', 'no-store');
    // How long serve spent on the request (the bench reads it; browsers show it in their tools).
    c.header('Server-Timing', `app;dur=${(performance.now() - started).toFixed(1)}`);
  });
  app.onError((error, c) => {
    if (error instanceof TenantRefusal || error instanceof PruneUnsupported) return c.json({ error: 'forbidden', message: error.message }, 403);
    // a conditional append whose halt epoch moved: httpStore throws HaltsChanged, the runtime reads the halts again
    if (isHaltsChanged(error)) return c.json({ error: 'halts_changed', epoch: error.epoch, message: error.message }, 409);
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

/** The API's request, effect, receipt and prune routes, each over the principal's store (storeFor). */
function apiRoutes(api: Hono<Env>, o: ServeAppOptions): void {
  api.get('/requests', async (c) => {
    const state = c.req.query('state');
    if (state !== undefined && !STATES.includes(state as ApprovalState))
      return c.json({ error: 'bad_state', message: `state must be one of ${STATES.join(', ')}` }, 400);
    return c.json(await storeFor(o, c.get('who')).listRequests(state ? { state: state as ApprovalState } : {}));
  });
  api.get('/requests/:id', async (c) => {
    const r = await storeFor(o, c.get('who')).getRequest(c.req.param('id'));
    return r ? c.json(r) : c.json({ error: 'unknown', message: `No approval request ${c.req.param('id')}.` }, 404);
  });
  api.post('/requests/:id/answer', async (c) => {
    const body = await jsonBody(c);
    const who = c.get('who');
    const result = await answerAs(storeFor(o, who), answerContextOf(o), who, c.req.param('id'), body, o.clock());
    return result.ok
      ? c.json({ outcome: 'recorded', message: result.message, request: result.request })
      : c.json({ error: result.code, message: result.message }, result.status);
  });
  // approval grants: read by any token (a tenant's only); revoked by an operator who may answer the action
  api.get('/grants', async (c) => {
    const active = c.req.query('active');
    return c.json(await listGrantsOf(storeFor(o, c.get('who')), active === '1' || active === 'true' ? { activeAt: o.clock() } : {}));
  });
  api.post('/grants/:id/revoke', async (c) => {
    const who = c.get('who');
    if (who.kind !== 'operator') return c.json({ error: 'forbidden', message: 'a runtime token never revokes' }, 403);
    const result = await revokeAs(storeFor(o, who), o.policy, who, c.req.param('id'), o.clock(), o.signer);
    return result.ok
      ? c.json({ outcome: 'revoked', message: result.message, grant: result.grant })
      : c.json({ error: result.code, message: result.message }, result.status);
  });
  api.get('/effects', async (c) => {
    const state = c.req.query('state');
    if (state !== undefined && !EFFECT_STATES.includes(state as EffectState))
      return c.json({ error: 'bad_state', message: `state must be one of ${EFFECT_STATES.join(', ')}` }, 400);
    return c.json(await storeFor(o, c.get('who')).listEffects(state ? { state: state as EffectState } : {}));
  });
  api.post('/effects/resolve', async (c) => {
    const body = await jsonBody(c);
    const who = c.get('who');
    const result = await resolveAs(storeFor(o, who), o.policy, who, body.key, body.state, o.clock(), o.signer);
    return result.ok
      ? c.json({ outcome: 'resolved', message: result.message, effect: result.effect })
      : c.json({ error: result.code, message: result.message }, result.status);
  });
  // the whole chain's verdict (no record's content): a tenant's view could not link it
  api.get('/receipts/verify', async (c) => c.json(await verifyReceipts(o.store)));
  // who the token is (the MCP console names the operator its answers are recorded under)
  api.get('/whoami', (c) => {
    const who = c.get('who');
    return c.json({ name: who.name, kind: who.kind, roles: who.roles, ...(who.tenant === undefined ? {} : { tenant: who.tenant }) });
  });
  api.get('/halts', async (c) => {
    const store = storeFor(o, c.get('who'));
    if (typeof store.readHalts !== 'function') return c.json({ epoch: 0, halts: [] });
    return c.json(await store.readHalts());
  });
  api.post('/halts', async (c) => {
    const who = c.get('who');
    const result = await haltAs(storeFor(o, who), who, await jsonBody(c), o.clock(), o.signer);
    return result.ok
      ? c.json({ outcome: 'halted', message: result.message, halt: result.halt })
      : c.json({ error: result.code, message: result.message }, result.status);
  });
  api.post('/halts/:id/lift', async (c) => {
    const who = c.get('who');
    const result = await liftAs(storeFor(o, who), who, c.req.param('id'), await jsonBody(c), o.clock(), o.signer);
    return result.ok
      ? c.json({ outcome: 'lifted', message: result.message, halt: result.halt })
      : c.json({ error: result.code, message: result.message }, result.status);
  });
  api.post('/prune', async (c) => {
    const body = await jsonBody(c);
    const result = await pruneAs(o.store, c.get('who'), body, o.clock(), o.signer);
    return result.ok ? c.json(result.body) : c.json({ error: result.code, message: result.message }, result.status);
  });
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
  if (method === 'putGrant') return storePutGrant(c, o, who, args);
  if (method === 'revokeGrant') return storeRevokeGrant(c, o, who, args);
  // a named tenant's records come back in its names; the hashes of its receipts and entries cover the stored ones (`names` says how)
  const names = who.tenant === undefined ? {} : { names: tenantPrefix(who.tenant) };
  if (who.kind === 'runtime') {
    const result = await runtimeStoreCall(o.store, who.tenant, method, args, o.clock());
    if (method === 'putRequest' && o.onNewRequest) {
      const r = result as ApprovalRequest;
      // announced under its stored id (the inbox's), which names the tenant
      if (r.state === 'pending' && r.answers.length === 0) o.onNewRequest({ ...r, callId: (names.names ?? '') + r.callId });
    }
    // what it appends carries serve's time: say so, so that its signer checks the rest and signs what was stored
    const stamped = method === 'appendReceipt' || method === 'appendDecision' ? { stamped: true } : {};
    return c.json({ result: result ?? null, ...names, ...stamped });
  }
  if (method === 'appendReceipt') {
    const body = args[0];
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return c.json({ error: 'bad_arguments', message: 'appendReceipt(receipt)' }, 400);
    return c.json({ result: await storeFor(o, who).appendReceipt({ ...(body as ReceiptBody), at: o.clock() }), ...names, stamped: true });
  }
  const store = storeFor(o, who) as unknown as Record<string, ((...a: unknown[]) => Promise<unknown>) | undefined>;
  const fn = store[method];
  if (typeof fn !== 'function') return c.json({ error: 'forbidden', message: `${method}: this server's store does not offer it.` }, 403);
  return c.json({ result: (await fn.apply(store, args)) ?? null, ...names });
}

/** addAnswer over the store API: the approver is the token's operator, with serve's clock, role check and args check. */
async function storeAddAnswer(c: Context<Env>, o: ServeAppOptions, who: Principal, args: unknown[]) {
  const [callId, answer] = args as [unknown, Record<string, unknown> | undefined];
  if (typeof callId !== 'string' || typeof answer !== 'object' || answer === null)
    return c.json({ error: 'bad_arguments', message: 'addAnswer(callId, answer)' }, 400);
  const store = storeFor(o, who);
  if (typeof answer.approver !== 'string' || tryName(answer.approver) !== who.name) {
    // an answer in another's name is a refused answer: one receipt naming who tried (issue 24, item 5)
    const target = await store.getRequest(callId);
    const decision = answer.decision === 'reject' ? 'reject' : 'approve';
    if (target) await recordAnswerRefusal(store, target, { approver: who.name, decision, at: o.clock() }, 'approver_not_authenticated', o.signer);
    return c.json(
      { error: 'forbidden', message: `addAnswer: the approver is the authenticated operator (${who.name}), not ${JSON.stringify(answer.approver)}.` },
      403,
    );
  }
  if (answer.decision !== 'approve' && answer.decision !== 'reject' && answer.decision !== 'respond')
    return c.json({ error: 'bad_arguments', message: 'addAnswer: decision is approve, reject or respond.' }, 400);
  const reason = cleanReason(answer.reason);
  if (!reason.ok)
    return c.json({ error: 'bad_arguments', message: 'addAnswer: the reason may not hold control characters and is at most 2000 characters.' }, 400);
  const request = await store.getRequest(callId);
  const problem = request ? roleProblem(o.policy, request.action, who) : undefined;
  if (problem) {
    await recordRoleRefusal(store, request!, who.name, o.clock(), o.signer);
    return c.json({ error: 'forbidden', message: problem }, 403);
  }
  // serve's clock, never the client's `at` (an answer a year ahead would never expire); one receipt.
  // An edit (`args`) is checked and decided again as any answer's is; a response needs its result.
  const recorded: AnswerInput = {
    approver: who.name,
    decision: answer.decision,
    at: o.clock(),
    ...(reason.value ? { reason: reason.value } : {}),
    ...(answer.decision === 'approve' && typeof answer.args === 'string' ? { arguments: answer.args } : {}),
    ...(answer.decision === 'respond' ? { result: typeof answer.result === 'string' ? answer.result : '' } : {}),
  };
  // the args/hash check here too (issue 24): whatever an operator's tool showed, it cannot approve another call
  const answered = await answerRequest(store, callId, recorded, o.signer, {
    decide: policyDecider(o.policy),
    maxGrantHours: o.maxGrantHours,
    fatigue: recordedFatigue(o),
  });
  if (answered.outcome === 'args_mismatch')
    return c.json({ error: 'args_mismatch', message: `addAnswer: the request's args do not match its argsHash; it cannot be answered.` }, 409);
  if (answered.outcome === 'refused') return c.json({ error: answered.code, message: `addAnswer: ${answered.message}` }, 409);
  return c.json({ result: answered });
}

/**
 * putGrant over the store API (an operator tool's grant): by the token's operator, who may answer
 * the action, never to themself, timed on serve's clock and no longer than serve's
 * `--max-grant-hours`, its bounds well formed; with its `granted` receipt. (The run still covers a
 * call only under the grant's policy and approve rule: runtime/approval-grants.ts.)
 */
async function storePutGrant(c: Context<Env>, o: ServeAppOptions, who: Principal, args: unknown[]) {
  const grant = args[0] as ApprovalGrant | undefined;
  if (typeof grant !== 'object' || grant === null || typeof grant.id !== 'string' || typeof grant.action !== 'string' || typeof grant.principal !== 'string')
    return c.json({ error: 'bad_arguments', message: 'putGrant(grant)' }, 400);
  if (typeof grant.grantedBy !== 'string' || tryName(grant.grantedBy) !== who.name)
    return c.json({ error: 'forbidden', message: `putGrant: the grantor is the authenticated operator (${who.name}).` }, 403);
  const problem = roleProblem(o.policy, grant.action, who);
  if (problem) return c.json({ error: 'forbidden', message: problem }, 403);
  if (sameIdentity(grant.principal, who.name)) return c.json({ error: 'forbidden', message: 'putGrant: an operator never grants to themself.' }, 403);
  const lasts = Number(grant.expiresAt) - Number(grant.grantedAt);
  if (!(o.maxGrantHours > 0) || !Number.isFinite(lasts) || lasts <= 0 || lasts > o.maxGrantHours * 3_600_000)
    return c.json({ error: 'forbidden', message: `putGrant: a grant lasts at most ${o.maxGrantHours} hours here (serve --max-grant-hours).` }, 403);
  if (!boundsOf(grant.bounds).ok) return c.json({ error: 'bad_arguments', message: 'putGrant: its bounds are not CTRLRun `when` entries.' }, 400);
  const now = o.clock();
  const store = storeFor(o, who);
  const stored = await store.putGrant!({ ...grant, grantedBy: who.name, grantedAt: now, expiresAt: now + lasts });
  if (stored.grantedAt === now && stored.grantedBy === who.name)
    await appendSigned(
      store,
      o.signer,
      grantReceipt(null, stored, 'granted', who.name, `${stored.rule} ${stored.bounds} until ${new Date(stored.expiresAt).toISOString()}`),
    );
  return c.json({ result: stored });
}

/** revokeGrant over the store API: by the token's operator (who may answer the action), on serve's clock, with its receipt. */
async function storeRevokeGrant(c: Context<Env>, o: ServeAppOptions, who: Principal, args: unknown[]) {
  const [id, by] = args as [unknown, unknown];
  if (typeof id !== 'string') return c.json({ error: 'bad_arguments', message: 'revokeGrant(id, by, now)' }, 400);
  if (typeof by !== 'string' || tryName(by) !== who.name)
    return c.json({ error: 'forbidden', message: `revokeGrant: the operator is the authenticated one (${who.name}).` }, 403);
  const result = await revokeAs(storeFor(o, who), o.policy, who, id, o.clock(), o.signer);
  if (result.ok) return c.json({ result: result.grant });
  if (result.code === 'not_active') return c.json({ result: await storeFor(o, who).getGrant!(id) });
  if (result.code === 'unknown') return c.json({ result: null });
  return c.json({ error: 'forbidden', message: result.message }, result.status);
}

/** resolveEffect over the store API: by the token's operator, with serve's clock and the role check. */
async function storeResolveEffect(c: Context<Env>, o: ServeAppOptions, who: Principal, args: unknown[]) {
  const [key, state, by] = args as [string, 'committed' | 'failed', unknown];
  if (typeof key !== 'string' || (state !== 'committed' && state !== 'failed'))
    return c.json({ error: 'bad_arguments', message: 'resolveEffect(key, committed|failed, by, now)' }, 400);
  if (typeof by !== 'string' || tryName(by) !== who.name)
    return c.json({ error: 'forbidden', message: `resolveEffect: the operator is the authenticated one (${who.name}).` }, 403);
  // resolveAs: the role check, serve's clock and the `resolved` receipt the CLI and the page write too
  const store = storeFor(o, who);
  const result = await resolveAs(store, o.policy, who, key, state, o.clock(), o.signer);
  if (result.ok) return c.json({ result: result.effect });
  if (result.status === 403) return c.json({ error: 'forbidden', message: result.message }, 403);
  // the store's answers: an unknown key is null, one not ambiguous comes back as it is
  return c.json({ result: result.code === 'not_ambiguous' ? await store.getEffect(key) : null });
}

export async function jsonBody(c: Context): Promise<Record<string, unknown>> {
  try {
    const body: unknown = await c.req.json();
    return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
