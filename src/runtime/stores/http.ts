import { RECEIPT_NAMES, RECEIPT_STAMPED } from '../signing.js';
import type { Receipt, Store } from '../types.js';
import { HaltsChanged, StoreError } from './errors.js';
import { httpDecisionLog } from './decision-log-http.js';

/**
 * `httpStore({ url, token })`: the store interface over the JSON API of `ctrlrun-gen serve`, so an
 * agent in a browser or on an edge runtime shares the ledger of the project's SQLite or Postgres
 * store. Only `fetch`: no Node built-ins. Every method is one POST that the server runs as one
 * atomic store operation; nothing is retried (a lost reply fails closed: the call does not run).
 *
 * The token decides what the store may do: a runtime token (`operators add NAME --runtime`)
 * requests, claims, reserves and appends receipts, never answers; an operator token answers (as
 * itself only) and never claims.
 */
export interface HttpStoreOptions {
  /** Where serve listens, e.g. `https://approvals.example.com`. */
  url: string;
  token: string;
  /** Another fetch (a test's, an edge runtime's bound one). Default: the global fetch. */
  fetch?: typeof fetch;
  /** Per request. Default 10000 ms. */
  timeoutMs?: number;
  /**
   * Allow plain `http://` to a host that is not loopback (the token would cross the network in
   * clear). Default false: such a URL is refused; use https.
   */
  allowInsecureHttp?: boolean;
}

const METHODS = [
  'putRequest',
  'getRequest',
  'listRequests',
  'addAnswer',
  'claimApproval',
  'reserveEffect',
  'settleEffect',
  'resolveEffect',
  'getEffect',
  'consumptions',
  'listEffects',
  'appendReceipt',
  'listReceipts',
  'appendDecision',
  'listDecisions',
  'decisionKey',
  'putGrant',
  'listGrants',
  'getGrant',
  'revokeGrant',
  'readHalts',
] as const;

type Method = (typeof METHODS)[number];

export function httpStore(options: HttpStoreOptions): Store {
  let base: string;
  try {
    base = new URL(options.url).toString().replace(/\/$/, '');
  } catch {
    throw new StoreError('store_unavailable', `httpStore: ${JSON.stringify(options.url)} is not a URL.`, {
      hint: 'pass the address serve prints, e.g. http://127.0.0.1:8787',
    });
  }
  const parsed = new URL(base);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new StoreError('store_unavailable', `httpStore: ${JSON.stringify(options.url)} is not an http(s) URL.`, { hint: 'pass the address serve prints' });
  }
  if (parsed.protocol === 'http:' && !isLoopback(parsed.hostname) && options.allowInsecureHttp !== true) {
    throw new StoreError('store_unavailable', `httpStore: ${parsed.host} is reached over plain http://, so the token would cross the network in clear.`, {
      hint: 'serve it over TLS (https://), or pass allowInsecureHttp: true on a network you trust',
    });
  }
  if (typeof options.token !== 'string' || options.token.trim() === '') {
    throw new StoreError('store_unavailable', 'httpStore: no token.', { hint: 'make one with `ctrlrun-gen operators add NAME --runtime`' });
  }
  const doFetch = options.fetch ?? ((input: string, init?: RequestInit) => fetch(input, init));
  const timeoutMs = options.timeoutMs ?? 10_000;
  let closed = false;

  const request = async (method: Method, args: unknown[]): Promise<{ result?: unknown; names?: unknown; stamped?: unknown }> => {
    if (closed) throw new StoreError('store_closed', `httpStore ${base}: the store is closed.`);
    let res: Response;
    try {
      res = await doFetch(`${base}/api/store/${method}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${options.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ args }),
        // serve never redirects its API: a redirect (a proxy's, a forged server's) would carry the
        // token and replay the store call elsewhere, so it is not followed and fails closed below
        // ('manual', not 'error': edge runtimes refuse 'error')
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new StoreError(
        'store_unavailable',
        `httpStore ${base}: ${method} could not reach serve (${error instanceof Error ? error.message : String(error)}).`,
        {
          hint: 'is `ctrlrun-gen serve` running at this address?',
          cause: error,
        },
      );
    }
    if (res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400)) {
      throw new StoreError('store_failed', `httpStore ${base}: ${method} was redirected (HTTP ${res.status}); a redirect is never followed.`, {
        hint: 'point httpStore at serve itself (the address serve prints), not at a proxy that redirects',
      });
    }
    let body: { result?: unknown; names?: unknown; stamped?: unknown; error?: string; message?: string; epoch?: unknown } = {};
    try {
      body = (await res.json()) as typeof body;
    } catch {
      // fall through: a non-JSON reply is an error below
    }
    // a conditional append whose halt epoch moved: an answer, not a failure (the runtime reads the halts again)
    if (res.status === 409 && body.error === 'halts_changed' && Number.isSafeInteger(body.epoch)) throw new HaltsChanged(body.epoch as number);
    if (res.status === 401)
      throw new StoreError('store_failed', `httpStore ${base}: the token was refused (${body.message ?? 'unauthenticated'}).`, {
        hint: 'check the token; `ctrlrun-gen operators list` shows who has one',
      });
    if (!res.ok || !('result' in body)) {
      throw new StoreError(
        res.status === 503 ? 'store_unavailable' : 'store_failed',
        `httpStore ${base}: ${method} failed (HTTP ${res.status}: ${body.message ?? 'no reason given'}).`,
      );
    }
    return body;
  };
  const call = async (method: Method, args: unknown[]): Promise<never> => (await request(method, args)).result as never;
  // serve stores a named tenant's receipt under its names and says which (`names: '@T:'`), and
  // sets its time from its own clock (`stamped`); the signer's check of what was appended needs
  // both (symbols: never hashed, never serialized)
  const appendReceipt: Store['appendReceipt'] = async (receipt, options) => {
    const body = await request('appendReceipt', options === undefined ? [receipt] : [receipt, options]);
    const appended = body.result as Receipt;
    if (appended !== null && typeof appended === 'object') {
      if (typeof body.names === 'string') Object.defineProperty(appended, RECEIPT_NAMES, { value: body.names });
      if (body.stamped === true) Object.defineProperty(appended, RECEIPT_STAMPED, { value: true });
    }
    return appended;
  };

  return {
    kind: 'http',
    recordsAnswers: true,
    ...httpDecisionLog(call),
    putRequest: (request) => call('putRequest', [request]),
    getRequest: (callId) => call('getRequest', [callId]),
    listRequests: (filter) => call('listRequests', filter === undefined ? [] : [filter]),
    addAnswer: (callId, answer) => call('addAnswer', [callId, answer]),
    claimApproval: (callId, now, expect) => call('claimApproval', expect === undefined ? [callId, now] : [callId, now, expect]),
    reserveEffect: (input) => call('reserveEffect', [input]),
    settleEffect: (key, attemptId, state, now) => call('settleEffect', [key, attemptId, state, now]),
    resolveEffect: (key, state, by, now) => call('resolveEffect', [key, state, by, now]),
    getEffect: (key) => call('getEffect', [key]),
    consumptions: (filter) => call('consumptions', filter === undefined ? [] : [filter]),
    listEffects: (filter) => call('listEffects', filter === undefined ? [] : [filter]),
    appendReceipt,
    listReceipts: (opts) => call('listReceipts', opts === undefined ? [] : [opts]),
    // approval grants: a runtime token lists them (serve's clock decides which are active); an operator token puts and revokes as itself
    putGrant: (grant) => call('putGrant', [grant]),
    listGrants: (query) => call('listGrants', query === undefined ? [] : [query]),
    getGrant: (id) => call('getGrant', [id]),
    revokeGrant: (id, by, now) => call('revokeGrant', [id, by, now]),
    // halts are set and lifted through serve's API (as the token's operator, receipted by serve); a runtime reads them
    readHalts: () => call('readHalts', []),
    close: async () => {
      closed = true;
    },
  };
}

/** localhost, 127.0.0.0/8 and ::1: plain http never leaves the machine. */
function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127(?:\.\d{1,3}){3}$/.test(h);
}
