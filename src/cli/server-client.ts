import { UserError } from '../diagnostics.js';
import { httpStore } from '../runtime/stores/http.js';
import { StoreError } from '../runtime/stores/errors.js';
import type { Store } from '../runtime/types.js';
import type { CliContext } from './context.js';
import { withStore } from './store-url.js';

/**
 * `--server URL --token TOKEN`: the operator commands act through `ctrlrun-gen serve`, so an
 * answer is recorded under the token's operator (authenticated), not a typed `--as`.
 */
export interface ServerArgs {
  store?: string;
  server?: string;
  token?: string;
}

export const SERVER_ENV = 'CTRLRUN_SERVER';
export const TOKEN_ENV = 'CTRLRUN_TOKEN';

export const serverOptions = {
  server: {
    type: 'string',
    global: true,
    describe: `Act through \`ctrlrun-gen serve\` at this URL (default: $${SERVER_ENV}); answers are recorded as the token's operator`,
  },
  token: { type: 'string', global: true, describe: `Operator token for --server (default: $${TOKEN_ENV}; the variable keeps it out of shell history)` },
} as const;

export interface ServerTarget {
  url: string;
  token: string;
}

/** The server to act through, or undefined for direct store access. */
export function serverTarget(args: ServerArgs, ctx: CliContext): ServerTarget | undefined {
  const url = args.server ?? (ctx.env[SERVER_ENV] || undefined);
  if (url === undefined) {
    if (args.token !== undefined) throw new UserError('--token: it goes with --server URL (the serve to act through).');
    return undefined;
  }
  if (args.store !== undefined) throw new UserError('--store and --server: pick one (direct store access, or through serve).');
  const token = args.token ?? (ctx.env[TOKEN_ENV] || undefined);
  if (!token) throw new UserError(`--server ${url}: needs an operator token.\nhint: --token TOKEN or $${TOKEN_ENV} (from \`ctrlrun-gen operators add NAME\`)`);
  try {
    new URL(url);
  } catch {
    throw new UserError(`--server ${JSON.stringify(url)}: not a URL.\nhint: the address serve printed, e.g. http://127.0.0.1:8787`);
  }
  return { url: url.replace(/\/$/, ''), token };
}

/**
 * With --server, serve records the token's operator and signs with its own key: a local `--as`
 * or `--signing-key` would be silently ignored, so it is refused. `act` names what is recorded.
 */
export function refuseLocalActor(args: { as?: string; signingKey?: string }, act: string, record = 'the receipt'): void {
  if (args.as !== undefined) throw new UserError(`--as: with --server ${act} is recorded as the token's operator; drop --as.`);
  if (args.signingKey !== undefined)
    throw new UserError(`--signing-key: with --server, serve writes ${record} and signs it with its own key (serve --signing-key); drop it here.`);
}

/** Runs `fn` with the store, or, with --server, with an httpStore reading through serve. */
export async function withStoreOrServer<T>(args: ServerArgs, ctx: CliContext, fn: (store: Store, label: string) => Promise<T>): Promise<T> {
  const target = serverTarget(args, ctx);
  if (!target) return withStore(args, ctx, fn);
  const store = httpStore({ url: target.url, token: target.token });
  try {
    return await fn(store, target.url);
  } catch (error) {
    if (error instanceof StoreError) throw new UserError(error.message);
    throw error;
  }
}

/** One POST to serve's API; a refusal is a user error carrying serve's message (exit 2). */
export async function postToServer<T>(target: ServerTarget, route: string, body: unknown): Promise<T> {
  return requestServer<T>(target, route, { method: 'POST', body });
}

/** One GET from serve's API, with the same refusals as postToServer. */
export async function getFromServer<T>(target: ServerTarget, route: string): Promise<T> {
  return requestServer<T>(target, route, { method: 'GET' });
}

async function requestServer<T>(target: ServerTarget, route: string, req: { method: 'GET' } | { method: 'POST'; body: unknown }): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${target.url}${route}`, {
      method: req.method,
      headers: { Authorization: `Bearer ${target.token}`, ...(req.method === 'POST' ? { 'Content-Type': 'application/json' } : {}) },
      ...(req.method === 'POST' ? { body: JSON.stringify(req.body) } : {}),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    throw new UserError(
      `--server ${target.url}: could not reach serve (${error instanceof Error ? error.message : String(error)}).\nhint: is \`ctrlrun-gen serve\` running there?`,
    );
  }
  let json: { message?: string; error?: string } & Record<string, unknown> = {};
  try {
    json = (await res.json()) as typeof json;
  } catch {
    // not JSON: reported below
  }
  if (res.status === 401)
    throw new UserError(
      `--server ${target.url}: the token was refused.\nhint: check --token / $${TOKEN_ENV}; \`ctrlrun-gen operators list\` shows who has one`,
    );
  // a refused read changed nothing either, but only a write needs saying so
  if (!res.ok) throw new UserError(`${json.message ?? `serve answered HTTP ${res.status}`}${req.method === 'POST' ? ' Nothing changed.' : ''}`);
  return json as T;
}
