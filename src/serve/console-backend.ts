import type { Policy } from '../policy/types.js';
import type { ReceiptSigner } from '../runtime/signing.js';
import type { ApprovalGrant, ApprovalRequest, Halt, Store } from '../runtime/types.js';
import { DEFAULT_MAX_GRANT_HOURS } from '../runtime/approval-grants.js';
import { listGrantsOf } from '../operator-actions.js';
import { type AnswerBody, answerAs, revokeAs } from './answers.js';
import { storeFor } from './app-options.js';
import { Authenticator, type Principal } from './auth.js';
import { haltAs, liftAs } from './halts-api.js';

/**
 * What the MCP operator console (mcp-operator.ts) reads and writes, against the project's store or
 * through serve. Either way the operator is authenticated, never named by the client: the operator
 * token in the console's environment, verified against the operators file as serve verifies it (and
 * again at every write: a removed or rotated token writes nothing), or sent to serve, which
 * attributes the answer itself. A token with a tenant reads and writes that tenant's records only.
 */
export interface ConsoleBackend {
  /** The store or serve it acts on, for messages. */
  readonly where: string;
  /** The operator the console writes as, checked now (each write checks again, at the write); a refusal when it cannot attribute a write. */
  writer(): Promise<{ ok: true; name: string } | Refused>;
  pending(): Promise<ApprovalRequest[]>;
  request(id: string): Promise<ApprovalRequest | null>;
  halts(): Promise<Halt[]>;
  /** An answer as serve's API takes it: approve (with `arguments`, a `grant`), reject with a reason, respond with a result. */
  answer(id: string, body: AnswerBody): Promise<Done<ApprovalRequest>>;
  halt(body: Record<string, unknown>): Promise<Done<Halt>>;
  lift(id: string, reason: string | undefined): Promise<Done<Halt>>;
  /** The approval grants (newest first); `active`: only those unrevoked and unexpired now (the store's or serve's clock). */
  grants(active: boolean): Promise<ApprovalGrant[]>;
  /** Revokes a grant as the operator (one who may answer its action), as serve's `revokeAs` does. */
  revokeGrant(id: string): Promise<Done<ApprovalGrant>>;
  /** The policy the console explains requests with (its hash names the version), when it has one. */
  readonly policy: Policy | undefined;
}

/** Why a write did not happen: `code` is serve's (`unattributed`, `role`, `approver_is_requester`, `not_pending`, …). */
export interface Refused {
  ok: false;
  code: string;
  message: string;
}
export type Done<T> = { ok: true; message: string; value: T } | Refused;

export const UNATTRIBUTED =
  'Refused: this console has no operator token (CTRLRUN_TOKEN from `ctrlrun-gen operators add NAME`) it can verify, so nothing it writes could be attributed to a person. Nothing was written.';

/**
 * The project's store, directly: the operator is the token's entry in the operators file (re-read
 * when it changes). Without a token it reads the whole store (as `approvals list` does) and writes
 * nothing; with one it reads and writes as its operator, within its tenant.
 */
export function localBackend(o: {
  store: Store;
  label: string;
  policy: Policy;
  operatorsFile: string;
  token: string | undefined;
  signer?: ReceiptSigner | undefined;
  clock?: () => number;
}): ConsoleBackend {
  const clock = o.clock ?? Date.now;
  const auth = new Authenticator(o.operatorsFile, clock);
  const who = (): Principal | undefined => {
    const found = o.token === undefined ? undefined : auth.fromToken(o.token);
    return found?.kind === 'operator' ? found : undefined;
  };
  // reads in the token's tenant (checked once here; writes check it again)
  const reader = who();
  const readStore = reader ? storeFor(o, reader) : o.store;
  const writing = async <T>(fn: (w: Principal, store: Store) => Promise<Done<T>>): Promise<Done<T>> => {
    const w = who();
    if (!w) return { ok: false, code: 'unattributed', message: UNATTRIBUTED };
    return fn(w, storeFor(o, w));
  };
  return {
    where: o.label,
    policy: o.policy,
    writer: async () => {
      const w = who();
      return w ? { ok: true, name: w.name } : { ok: false, code: 'unattributed', message: UNATTRIBUTED };
    },
    pending: () => readStore.listRequests({ state: 'pending' }),
    request: (id) => readStore.getRequest(id),
    halts: async () => (typeof readStore.readHalts === 'function' ? (await readStore.readHalts()).halts : []),
    answer: (id, body) =>
      writing(async (w, store) => {
        // the default grant limit: through serve (`--server`), serve's own applies
        const ctx = { policy: o.policy, signer: o.signer, maxGrantHours: DEFAULT_MAX_GRANT_HOURS };
        const r = await answerAs(store, ctx, w, id, body, clock());
        return r.ok ? { ok: true, message: r.message, value: r.request } : { ok: false, code: r.code, message: r.message };
      }),
    halt: (body) => writing(async (w, store) => asDone(await haltAs(store, w, body, clock(), o.signer))),
    lift: (id, reason) => writing(async (w, store) => asDone(await liftAs(store, w, id, reason === undefined ? {} : { reason }, clock(), o.signer))),
    grants: (active) => listGrantsOf(readStore, active ? { activeAt: clock() } : {}),
    revokeGrant: (id) =>
      writing(async (w, store) => {
        const r = await revokeAs(store, o.policy, w, id, clock(), o.signer);
        return r.ok ? { ok: true, message: r.message, value: r.grant } : { ok: false, code: r.code, message: r.message };
      }),
  };
}

function asDone(v: Awaited<ReturnType<typeof haltAs>>): Done<Halt> {
  return v.ok ? { ok: true, message: v.message, value: v.halt } : { ok: false, code: v.code, message: v.message };
}

/** serve, with the token as a bearer: serve authenticates it and records its operator (the API of docs/serve.md). */
export function serverBackend(o: { url: string; token: string; policy: Policy | undefined; fetch?: typeof fetch }): ConsoleBackend {
  const doFetch = o.fetch ?? fetch;
  const call = async (method: 'GET' | 'POST', route: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> => {
    const res = await doFetch(`${o.url}/api${route}`, {
      method,
      headers: { Authorization: `Bearer ${o.token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      redirect: 'manual',
      signal: AbortSignal.timeout(15_000),
    });
    let json: Record<string, unknown> = {};
    try {
      json = (await res.json()) as Record<string, unknown>;
    } catch {
      // not JSON: said below
    }
    return { status: res.status, json };
  };
  const read = async <T>(route: string): Promise<T> => {
    const r = await call('GET', route);
    if (r.status === 401) throw new Error(`serve at ${o.url} refused the token (check CTRLRUN_TOKEN).`);
    if (r.status === 404) return null as T;
    if (r.status !== 200) throw new Error(`serve at ${o.url} answered HTTP ${r.status}: ${String(r.json.message ?? 'no reason given')}`);
    return r.json as T;
  };
  const writer = async (): Promise<{ ok: true; name: string } | Refused> => {
    const r = await call('GET', '/whoami');
    if (r.status === 200 && r.json.kind === 'operator' && typeof r.json.name === 'string') return { ok: true, name: r.json.name };
    return {
      ok: false,
      code: 'unattributed',
      message: r.status === 200 ? `${UNATTRIBUTED} (serve knows this token as a runtime token: it never answers)` : UNATTRIBUTED,
    };
  };
  // asked before every write: a token serve does not know as an operator's sends nothing
  const write = async <T>(route: string, body: unknown, pick: (json: Record<string, unknown>) => T): Promise<Done<T>> => {
    const who = await writer();
    if (!who.ok) return who;
    const r = await call('POST', route, body);
    if (r.status === 401) return { ok: false, code: 'unattributed', message: `serve at ${o.url} refused the token: ${UNATTRIBUTED}` };
    if (r.status !== 200)
      return { ok: false, code: String(r.json.error ?? `http_${r.status}`), message: String(r.json.message ?? `serve answered HTTP ${r.status}.`) };
    return { ok: true, message: String(r.json.message ?? ''), value: pick(r.json) };
  };
  return {
    where: o.url,
    policy: o.policy,
    // serve attributes every write to the token's operator; a token it refuses writes nothing
    writer,
    pending: async () => (await read<ApprovalRequest[]>('/requests?state=pending')) ?? [],
    request: (id) => read<ApprovalRequest | null>(`/requests/${encodeURIComponent(id)}`),
    halts: async () => (await read<{ halts: Halt[] }>('/halts'))?.halts ?? [],
    answer: (id, body) => write(`/requests/${encodeURIComponent(id)}/answer`, body, (j) => j.request as ApprovalRequest),
    halt: (body) => write('/halts', body, (j) => j.halt as Halt),
    lift: (id, reason) => write(`/halts/${encodeURIComponent(id)}/lift`, reason === undefined ? {} : { reason }, (j) => j.halt as Halt),
    // serve decides which grants are active on its own clock
    grants: async (active) => (await read<ApprovalGrant[]>(`/grants${active ? '?active=1' : ''}`)) ?? [],
    revokeGrant: (id) => write(`/grants/${encodeURIComponent(id)}/revoke`, {}, (j) => j.grant as ApprovalGrant),
  };
}
