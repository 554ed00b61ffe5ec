import type { FatigueRules } from '../insights/fatigue.js';
import type { Context } from 'hono';
import type { Policy } from '../policy/types.js';
import type { ReceiptSigner } from '../runtime/signing.js';
import type { ApprovalRequest, Store } from '../runtime/types.js';
import type { Authenticator, Principal } from './auth.js';
import { tenantStore } from './tenant-store.js';

/** What serve's app is made of (app.ts, page-routes.ts), and whose store a principal acts on. */
export interface ServeAppOptions {
  store: Store;
  policy: Policy;
  auth: Authenticator;
  clock: () => number;
  /** The control's approvalTtlMs, to show when an approval runs out. */
  approvalTtlMs: number;
  /** The longest approval grant an operator may give here (`--max-grant-hours`; 0: none). */
  maxGrantHours: number;
  /** Cookies get `Secure` and the `__Host-` prefix (serve runs with TLS, or behind a TLS proxy: an https `--public-url`). */
  secureCookies: boolean;
  /** serve's web origin (its `--public-url`, else the listening URL; known once it listens): the session cookie is named for it. */
  origin: () => string;
  /** The connection's remote address (the trusted-header check needs it). */
  remoteAddress: (c: Context) => string | undefined;
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
   * (answers, refused answers, resolutions, prune records) is followed by a checkpoint naming it.
   * Never used for what a token appends through the raw store API (the application signs its own; an
   * operator's stays unsigned, so `foreign`).
   */
  signer?: ReceiptSigner;
  /**
   * Approval fatigue's rules, shown on the Insights page; with `record`, each finding is also a
   * `fatigue` receipt written when the answer is given (`serve --fatigue-*`).
   */
  fatigue?: { rules: FatigueRules; record: boolean };
}

/** The rules an answer given through serve records fatigue by (none unless serve was asked to). */
export const recordedFatigue = (o: Pick<ServeAppOptions, 'fatigue'>): FatigueRules | undefined => (o.fatigue?.record ? o.fatigue.rules : undefined);

/** What an answer given through serve needs of its options: the policy, the signer, the grant limit, recorded fatigue. */
export function answerContextOf(o: Pick<ServeAppOptions, 'policy' | 'signer' | 'maxGrantHours' | 'fatigue'>) {
  return { policy: o.policy, signer: o.signer, maxGrantHours: o.maxGrantHours, fatigue: recordedFatigue(o) };
}

export type Env = { Variables: { who: Principal } };

/**
 * What a principal acts on: an operator without a tenant, the whole store; anyone with a tenant
 * (a runtime token always: the default tenant is one too) that tenant's view (tenant-store.ts), in
 * its names. Pages, answers, resolutions and prunes all go through it.
 */
export function storeFor(o: Pick<ServeAppOptions, 'store'>, who: Principal): Store {
  return who.kind === 'operator' && who.tenant === undefined ? o.store : tenantStore(o.store, who.tenant);
}
