import type { FatigueRules } from '../insights/fatigue.js';
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { UserError } from '../diagnostics.js';
import type { Policy } from '../policy/types.js';
import { canPrune, DAY_MS, pruneLog } from '../prune.js';
import { DEFAULT_MAX_GRANT_HOURS } from '../runtime/approval-grants.js';
import { storeDecisionKey } from '../runtime/decision-log.js';
import { memorySessions } from '../runtime/stores/sessions-memory.js';
import type { ReceiptSigner } from '../runtime/signing.js';
import type { SessionStore, Store } from '../runtime/types.js';
import { createServeApp } from './app.js';
import { Authenticator, normaliseAddress } from './auth.js';
import { Notifier, pollPending } from './notify.js';

export interface StartServeOptions {
  store: Store;
  policy: Policy;
  operatorsFile: string;
  host: string;
  port: number;
  tls?: { cert: string; key: string };
  /** Listening on a non-loopback address without TLS was asked for explicitly. */
  allowInsecureNetwork?: boolean;
  trustHeader?: string;
  trustProxies?: string[];
  notifyWebhook?: string;
  publicUrl?: string;
  approvalTtlMs: number;
  /** The longest approval grant an operator may give (`--max-grant-hours`; 0: none). Default 8. */
  maxGrantHours?: number;
  /** Origins whose browser pages may call the JSON API (see `checkCorsOrigin`). */
  corsOrigins?: string[];
  /** Signs every receipt serve writes (answers, refusals, resolutions, prune records) with serve's own key. */
  signer?: ReceiptSigner;
  /**
   * Prune the whole store's decision log entries older than this many days, on serve's clock, at
   * start and every hour (recorded and signed as any operator's prune). Undefined: serve never prunes by itself.
   */
  retentionDays?: number;
  /** Approval fatigue's rules (the Insights page), and whether each finding is recorded as a receipt. */
  fatigue?: { rules: FatigueRules; record: boolean };
  pollMs?: number;
  /** Delays before each webhook retry (default 500, 2000, 8000 ms). */
  webhookRetryDelays?: number[];
  clock?: () => number;
  log?: (line: string) => void;
}

export interface RunningServe {
  url: string;
  /** The web origin sessions are bound to (`--public-url`, else the listening URL). */
  origin: string;
  close(): Promise<void>;
}

/** How often serve's own retention prunes (`--retention-days`). */
export const RETENTION_EVERY_MS = 60 * 60 * 1000;

export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(normaliseAddress(h));
}

/** Checks the listening options; a user error says why it refuses. */
export function checkListen(o: Pick<StartServeOptions, 'host' | 'tls' | 'allowInsecureNetwork' | 'trustHeader' | 'trustProxies'>): void {
  if (!isLoopback(o.host) && !o.tls && !o.allowInsecureNetwork) {
    throw new UserError(
      `--host ${o.host}: not a loopback address, and no TLS: tokens and session cookies would cross the network in clear.\nhint: give --tls-cert and --tls-key, or put serve behind a TLS proxy on this host (keep --host 127.0.0.1), or pass --allow-insecure-network if the network is yours`,
    );
  }
  if (o.trustHeader && (o.trustProxies ?? []).length === 0) {
    throw new UserError(
      `--trust-header ${o.trustHeader}: name the proxy addresses it is honoured from.\nhint: --trust-proxy 127.0.0.1 (the reverse proxy's address as serve sees it)`,
    );
  }
}

/**
 * A `--cors-origin` is one exact web origin: scheme, host and port, nothing else (`*` is refused:
 * the API's tokens are credentials for the whole ledger, so name the app that holds one).
 */
export function checkCorsOrigin(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== value.replace(/\/$/, '').toLowerCase()) {
    throw new UserError(
      `--cors-origin ${JSON.stringify(value)}: not a web origin (scheme://host[:port], no path).\nhint: the address your browser agent's page is served from, e.g. --cors-origin https://app.example.com or --cors-origin http://localhost:3000`,
    );
  }
  return url.origin;
}

/** Starts the inbox; resolves once it listens. */
export async function startServe(o: StartServeOptions): Promise<RunningServe> {
  checkListen(o);
  const corsOrigins = (o.corsOrigins ?? []).map(checkCorsOrigin);
  const clock = o.clock ?? Date.now;
  const log = o.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  let origin = '';
  const auth = new Authenticator(
    o.operatorsFile,
    clock,
    { ...(o.trustHeader ? { header: o.trustHeader } : {}), proxies: (o.trustProxies ?? []).map(normaliseAddress) },
    sessionStoreOf(o.store),
    () => origin,
    // every replica over the store derives the same CSRF tokens for a proxied identity
    () => storeDecisionKey(o.store).then((key) => `ctrlrun.serve.csrf\0${key}`),
  );
  auth.operators(); // a broken operators file is an error now, not at the first request
  // Open the store now (SQLite opens on first use): it is created if new (a browser agent's
  // httpStore has no other way to create it), and an unusable one fails here, not at the first request.
  if (o.store.pageRequests) await o.store.pageRequests({ states: ['pending'] }, { limit: 1, offset: 0 });
  else await o.store.listRequests({ state: 'pending' });
  let notifier: Notifier | undefined;
  const app = createServeApp({
    store: o.store,
    policy: o.policy,
    auth,
    clock,
    approvalTtlMs: o.approvalTtlMs,
    maxGrantHours: o.maxGrantHours ?? DEFAULT_MAX_GRANT_HOURS,
    // Secure and __Host- wherever the browser speaks https: serve's own TLS, or a TLS proxy's public URL
    secureCookies: Boolean(o.tls) || (o.publicUrl ?? '').startsWith('https:'),
    origin: () => origin,
    remoteAddress: (c) => getConnInfo(c).remote.address,
    onNewRequest: (r) => notifier?.notify(r),
    corsOrigins,
    ...(o.signer ? { signer: o.signer } : {}),
    ...(o.fatigue ? { fatigue: o.fatigue } : {}),
  });
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve(
      {
        fetch: app.fetch,
        hostname: o.host,
        port: o.port,
        ...(o.tls ? { createServer: createHttpsServer, serverOptions: { cert: readFileSync(o.tls.cert), key: readFileSync(o.tls.key) } } : {}),
      },
      () => resolve(s),
    );
    s.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new UserError(`--port ${o.port}: the port is in use on ${o.host}.\nhint: pick another with --port, or --port 0 for any free one`)
          : error,
      ),
    );
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `${o.tls ? 'https' : 'http'}://${host}:${address.port}`;
  origin = new URL(o.publicUrl ?? url).origin;
  // a restart of any serve of this origin ends every session of it, on every replica
  await auth.endAll();
  const stopRetention = o.retentionDays === undefined ? () => {} : keepRetention(o, clock, log);
  let stopPoll = () => {};
  if (o.notifyWebhook) {
    notifier = new Notifier({
      url: o.notifyWebhook,
      publicUrl: o.publicUrl ?? url,
      log,
      ...(o.webhookRetryDelays ? { retryDelays: o.webhookRetryDelays } : {}),
    });
    notifier.markSeen((await o.store.listRequests({ state: 'pending' })).map((r) => r.callId));
    stopPoll = pollPending(o.store, notifier, o.pollMs ?? 2000, log);
  }
  return {
    url,
    origin,
    close: async () => {
      stopPoll();
      stopRetention();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      await closed;
      await notifier?.drain();
    },
  };
}

/** serve's sessions: the store's (shared by every replica over it), else this process's memory. */
function sessionStoreOf(store: Store): SessionStore {
  if (typeof store.putSession === 'function' && typeof store.getSession === 'function' && typeof store.deleteSessions === 'function')
    return { putSession: store.putSession.bind(store), getSession: store.getSession.bind(store), deleteSessions: store.deleteSessions.bind(store) };
  return memorySessions(() => {});
}

/** `--retention-days`: the whole store's decision log pruned on serve's clock now and every RETENTION_EVERY_MS; a failure is logged. */
function keepRetention(o: StartServeOptions, clock: () => number, log: (line: string) => void): () => void {
  if (!canPrune(o.store, 'decisions')) {
    log('serve: --retention-days: this store cannot prune its decision log; nothing is pruned.');
    return () => {};
  }
  const days = o.retentionDays!;
  const prune = () => {
    const now = clock();
    pruneLog(o.store, { log: 'decisions', before: now - days * DAY_MS, by: 'ctrlrun-gen serve', now, ...(o.signer ? { signer: o.signer } : {}) }).then(
      (r) => {
        if (r.outcome === 'pruned') log(`serve: pruned ${r.record.count} decision log entries older than ${days} days (seq ${r.record.from}-${r.record.to}).`);
      },
      (error: unknown) => log(`serve: pruning the decision log failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  };
  prune();
  const timer = setInterval(prune, RETENTION_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
