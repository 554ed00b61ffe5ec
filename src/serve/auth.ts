import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { statSync } from 'node:fs';
import { memorySessions } from '../runtime/stores/sessions-memory.js';
import type { SessionStore } from '../runtime/types.js';
import { findByToken, type OperatorEntry, type OperatorsFile, readOperators, type TokenKind } from './operators.js';
import { tryName } from './identity.js';

/** Who made a request to serve, once authenticated. */
export interface Principal {
  name: string;
  kind: TokenKind;
  roles: string[];
  /** The token's tenant: a runtime token's (absent: the default tenant), or an operator's (absent: every tenant). */
  tenant?: string;
  /** How: a bearer token, a session cookie (made from a token), or a trusted proxy's header. */
  via: 'bearer' | 'session' | 'header';
  /** Present for a browser identity (session or header): the CSRF token its forms carry. */
  csrf?: string;
}

export const SESSION_COOKIE = 'crg_session';
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

/**
 * The session cookie's name for serve's web origin (its `--public-url`, else the listening URL):
 * browsers send a host's cookies to every port, so each serve names its own by its port, and with
 * TLS the name is `__Host-` prefixed (Secure, host-only, path /: no other port or subdomain can set it).
 */
export function sessionCookieName(origin: string, secure: boolean): string {
  const url = new URL(origin);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return `${secure ? '__Host-' : ''}${SESSION_COOKIE}_${port}`;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * The operators file, re-read when it changes (a `remove` takes effect at the next request), and
 * the sign-in sessions, kept in the store (only the SHA-256 of each session's secret): every serve
 * over the store with the same web origin honours the same sessions, and ending one (sign-out, a
 * rotated token, a removed operator, a restart of any replica) ends it everywhere. A session only
 * reads: every answer, resolution and prune asks for the operator's token again (`stepUp`), so a
 * cookie another process received (another port of this host) approves nothing.
 */
export class Authenticator {
  private cached: { mtimeMs: number; size: number; data: OperatorsFile } | undefined;

  constructor(
    private readonly operatorsFile: string,
    private readonly clock: () => number,
    private readonly trust: { header?: string; proxies: readonly string[] } = { proxies: [] },
    private readonly sessions: SessionStore = memorySessions(() => {}),
    /** serve's web origin (known once it listens): sessions are bound to it. */
    private readonly origin: () => string = () => '',
    /** A secret every replica shares (the store's): a proxied identity's CSRF token is derived from it. */
    private readonly secret: () => Promise<string> = processSecret(),
  ) {}

  operators(): OperatorsFile {
    let st: { mtimeMs: number; size: number };
    try {
      st = statSync(this.operatorsFile);
    } catch {
      this.cached = undefined;
      return { version: 1, operators: [] };
    }
    if (!this.cached || this.cached.mtimeMs !== st.mtimeMs || this.cached.size !== st.size) {
      this.cached = { mtimeMs: st.mtimeMs, size: st.size, data: readOperators(this.operatorsFile) };
    }
    return this.cached.data;
  }

  /** A bearer token (operator or runtime). */
  fromToken(token: string): Principal | undefined {
    const entry = findByToken(this.operators(), token);
    return entry ? { ...principalOf(entry), via: 'bearer' } : undefined;
  }

  /** A browser's session cookie: a session of this origin, unexpired, whose operator still holds the token it was made from. */
  async fromSession(id: string | undefined): Promise<Principal | undefined> {
    if (!id || id.length > 200) return undefined;
    const idHash = sha256(id);
    const s = await this.sessions.getSession(idHash);
    if (!s || s.origin !== this.origin()) return undefined;
    const entry = this.operators().operators.find((o) => o.name === s.name && o.kind === 'operator');
    if (s.expiresAt <= this.clock() || !entry || entry.tokenHash !== s.tokenHash) {
      // expired, removed or rotated: ended for every replica
      await this.sessions.deleteSessions({ idHash });
      return undefined;
    }
    return { ...principalOf(entry), via: 'session', csrf: csrfOf(id) };
  }

  /**
   * The trusted identity header, honoured only when the connection comes from a configured proxy
   * address. Roles (and tenant) come from the operators file entry of that name (none when absent).
   */
  async fromHeader(remoteAddress: string | undefined, headers: (name: string) => string | undefined): Promise<Principal | undefined> {
    const header = this.trust.header;
    if (!header || !remoteAddress || !this.trust.proxies.includes(normaliseAddress(remoteAddress))) return undefined;
    const value = headers(header);
    if (value === undefined) return undefined;
    const name = tryName(value);
    if (name === undefined) return undefined;
    const entry = this.operators().operators.find((o) => o.name === name && o.kind === 'operator');
    return {
      name,
      kind: 'operator',
      roles: entry?.roles ?? [],
      ...(entry?.tenant !== undefined ? { tenant: entry.tenant } : {}),
      via: 'header',
      csrf: createHmac('sha256', await this.secret())
        .update(`ctrlrun.csrf.header\0${this.origin()}\0${name}`)
        .digest('base64url'),
    };
  }

  /** Signs in with an operator token: a new session's secret (for the cookie), or undefined. */
  async signIn(token: string): Promise<string | undefined> {
    const entry = findByToken(this.operators(), token);
    if (entry?.kind !== 'operator') return undefined;
    const id = randomBytes(32).toString('base64url');
    const now = this.clock();
    await this.sessions.putSession({
      idHash: sha256(id),
      name: entry.name,
      tokenHash: entry.tokenHash,
      origin: this.origin(),
      createdAt: now,
      expiresAt: now + SESSION_TTL_MS,
    });
    return id;
  }

  async signOut(id: string | undefined): Promise<void> {
    if (id && id.length <= 200) await this.sessions.deleteSessions({ idHash: sha256(id) });
  }

  /** Ends every session of this origin (serve starting: a restart of any replica signs everyone out). */
  async endAll(): Promise<number> {
    return this.sessions.deleteSessions({ origin: this.origin() });
  }

  /**
   * The step-up every state-changing page action asks of a session: the operator's own token again,
   * typed into serve's page (a cookie alone never answers). A trusted proxy's identity is asked by
   * the proxy on every request, and a bearer token is the token itself.
   */
  stepUp(who: Principal, token: unknown): boolean {
    if (who.via !== 'session') return true;
    if (typeof token !== 'string' || token.length > 200) return false;
    const entry = findByToken(this.operators(), token.trim());
    return entry?.kind === 'operator' && entry.name === who.name;
  }
}

/** A random secret of this process (when serve is given no shared one). */
function processSecret(): () => Promise<string> {
  const secret = randomBytes(32).toString('hex');
  return () => Promise.resolve(secret);
}

/** A session's CSRF token: derived from its secret (which only the store's hash stands for), the same on every replica. */
function csrfOf(secret: string): string {
  return createHash('sha256').update(`ctrlrun.csrf\0${secret}`, 'utf8').digest('base64url');
}

function principalOf(entry: OperatorEntry): Omit<Principal, 'via'> {
  return { name: entry.name, kind: entry.kind, roles: entry.roles, ...(entry.tenant !== undefined ? { tenant: entry.tenant } : {}) };
}

/** Constant-time comparison of two CSRF tokens. */
export function sameToken(expected: string | undefined, presented: unknown): boolean {
  if (!expected || typeof presented !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `::ffff:127.0.0.1` and `127.0.0.1` are one address. */
export function normaliseAddress(address: string): string {
  return address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
}

/** The roles an action's controls require (each control's approver_role). */
export function requiredRoles(controls: ReadonlyArray<{ approverRole?: string | undefined }>): string[] {
  return [...new Set(controls.flatMap((c) => (c.approverRole ? [c.approverRole] : [])))];
}

/** An operator may answer when they hold every role the action's controls name. */
export function missingRoles(required: readonly string[], held: readonly string[]): string[] {
  return required.filter((r) => !held.includes(r));
}
