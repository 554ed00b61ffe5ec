import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { statSync } from 'node:fs';
import { findByToken, type OperatorsFile, readOperators, type TokenKind } from './operators.js';
import { tryName } from './identity.js';

/** Who made a request to serve, once authenticated. */
export interface Principal {
  name: string;
  kind: TokenKind;
  roles: string[];
  /** A runtime token's tenant (absent: the default tenant). */
  tenant?: string;
  /** How: a bearer token, a session cookie (made from a token), or a trusted proxy's header. */
  via: 'bearer' | 'session' | 'header';
  /** Present for a browser identity (session or header): the CSRF token its forms carry. */
  csrf?: string;
}

interface Session {
  name: string;
  roles: string[];
  csrf: string;
  expires: number;
  /** The token it was made from (its hash): rotating the token (remove, add) ends the session. */
  tokenHash: string;
  /** The listening address (`host:port`) that issued it: another listener on the host cannot use it. */
  listener: string;
}

export const SESSION_COOKIE = 'crg_session';

/**
 * The session cookie's name for one listening port: browsers send a host's cookies to every port,
 * so each serve names its own and honours only the sessions it issued on that address.
 */
export function sessionCookieName(port: number | undefined): string {
  return port === undefined ? SESSION_COOKIE : `${SESSION_COOKIE}_${port}`;
}
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

/**
 * The operators file, re-read when it changes (a `remove` takes effect at the next request), and
 * the sessions of this server (in memory: a restart signs everyone out).
 */
export class Authenticator {
  private cached: { mtimeMs: number; size: number; data: OperatorsFile } | undefined;
  private readonly sessions = new Map<string, Session>();
  private readonly secret = randomBytes(32);

  constructor(
    private readonly operatorsFile: string,
    private readonly clock: () => number,
    private readonly trust: { header?: string; proxies: readonly string[] } = { proxies: [] },
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
    return entry
      ? { name: entry.name, kind: entry.kind, roles: entry.roles, ...(entry.tenant !== undefined ? { tenant: entry.tenant } : {}), via: 'bearer' }
      : undefined;
  }

  /** A browser's session cookie; the operator must still be in the file. */
  fromSession(id: string | undefined, listener: string): Principal | undefined {
    if (!id) return undefined;
    const s = this.sessions.get(id);
    if (!s) return undefined;
    if (s.listener !== listener) return undefined;
    if (s.expires <= this.clock()) {
      this.sessions.delete(id);
      return undefined;
    }
    const entry = this.operators().operators.find((o) => o.name === s.name && o.kind === 'operator');
    if (!entry || entry.tokenHash !== s.tokenHash) {
      this.sessions.delete(id);
      return undefined;
    }
    return { name: s.name, kind: 'operator', roles: entry.roles, via: 'session', csrf: s.csrf };
  }

  /**
   * The trusted identity header, honoured only when the connection comes from a configured proxy
   * address. Roles come from the operators file entry of that name (none when absent).
   */
  fromHeader(remoteAddress: string | undefined, headers: (name: string) => string | undefined): Principal | undefined {
    const header = this.trust.header;
    if (!header || !remoteAddress || !this.trust.proxies.includes(normaliseAddress(remoteAddress))) return undefined;
    const value = headers(header);
    if (value === undefined) return undefined;
    const name = tryName(value);
    if (name === undefined) return undefined;
    const entry = this.operators().operators.find((o) => o.name === name && o.kind === 'operator');
    return { name, kind: 'operator', roles: entry?.roles ?? [], via: 'header', csrf: this.hmac(`header:${name}`) };
  }

  /** Signs in with an operator token: a new session id (for the cookie), or undefined. */
  signIn(token: string, listener: string): string | undefined {
    const entry = findByToken(this.operators(), token);
    if (entry?.kind !== 'operator') return undefined;
    const id = randomBytes(32).toString('base64url');
    this.sessions.set(id, {
      name: entry.name,
      roles: entry.roles,
      csrf: randomBytes(24).toString('base64url'),
      expires: this.clock() + SESSION_TTL_MS,
      tokenHash: entry.tokenHash,
      listener,
    });
    return id;
  }

  signOut(id: string | undefined): void {
    if (id) this.sessions.delete(id);
  }

  /** A login form's CSRF token (no session yet): bound to nothing but this server. */
  loginCsrf(): string {
    return this.hmac('login');
  }

  private hmac(text: string): string {
    return createHmac('sha256', this.secret).update(text).digest('base64url');
  }
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
