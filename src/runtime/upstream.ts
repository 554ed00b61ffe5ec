import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { checkServerIdentity, type PeerCertificate, rootCertificates } from 'node:tls';
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import type { CreatePinnedFetch, PinnedFetch, TlsObservation, TlsPins } from './upstream-types.js';

export type { CreatePinnedFetch, PinnedFetch, PinnedFetchOptions, TlsObservation, TlsPins } from './upstream-types.js';

/**
 * `ctrlrun-gen/runtime/upstream` (Node only): the pinned fetch behind CTRLRun's TLS pins
 * (`upstream.tls_cert_sha256`, `tls_cert_file`; its SPEC-v0.10 §4.3). Generated modules whose
 * policy pins a certificate import it and hand it to `bindMcp`; users reach it as the generated
 * module's `upstreamFetch(serverName)`, passed as the `fetch` option of `MCPServerStreamableHttp` or
 * `MCPServerSSE`.
 *
 * Every connection it opens is TLS 1.2 or later to an `https:` URL (a plain hop carries no
 * identity to pin; it is refused), with no session resumption (each handshake shows the
 * certificate). The chain is verified against the pinned certificates alone when `tls_cert_file`
 * gave any (a pinned leaf is a valid anchor: partial chains are allowed, as CTRLRun's
 * `VERIFY_X509_PARTIAL_CHAIN`), else against Node's roots plus `options.ca`; the host name is
 * checked; then the SHA-256 of the leaf's DER is recorded as what this fetch observed for that
 * host and port, and when digests are pinned a leaf outside them ends the handshake before a
 * request byte is written. The doors read the observations (`observed`) to decide each call.
 */
export const createPinnedFetch: CreatePinnedFetch = (pins: TlsPins, options = {}): PinnedFetch => {
  const digests = [...pins.sha256];
  const anchors = pins.pems.length > 0 ? [...pins.pems] : [...rootCertificates, ...toList(options.ca)];
  const seen = new Map<string, TlsObservation>();
  const anchorsText = pins.pems.length > 0 ? 'upstream.tls_cert_file' : 'the system roots';
  const clock = options.clock ?? Date.now;

  const agent = new Agent({
    connect: (opts, callback) => {
      if (opts.protocol !== 'https:') {
        callback(
          new Error(
            `ctrlrun: upstreamFetch refuses ${opts.protocol}//${opts.hostname}: a TLS pin is a claim about a server's identity, and a plain connection carries none (use https)`,
          ),
          null,
        );
        return;
      }
      const origin = originKey(opts.hostname, opts.port);
      const connector = buildConnector({
        ca: anchors,
        minVersion: 'TLSv1.2',
        rejectUnauthorized: true,
        maxCachedSessions: 0,
        allowPartialTrustChain: pins.pems.length > 0,
        checkServerIdentity: (host: string, cert: PeerCertificate) => {
          const wrongHost = checkServerIdentity(host, cert);
          if (wrongHost) return wrongHost;
          const sha256 = `sha256:${createHash('sha256').update(cert.raw).digest('hex')}`;
          const pinned = digests.length === 0 || digests.includes(sha256);
          seen.set(origin, { origin, sha256, pinned, at: clock() });
          if (pinned) return undefined;
          return new Error(
            `ctrlrun: upstream_mismatch: ${origin} presented a certificate whose SHA-256 is ${sha256}, which upstream.tls_cert_sha256 does not pin (${digests.join(', ')}); the connection was closed before any request was sent`,
          );
        },
      });
      connector({ ...opts, servername: isIP(unbracket(opts.hostname)) ? '' : opts.hostname }, (error, socket) => {
        if (error === null) callback(null, socket);
        else
          callback(
            untrusted(error)
              ? new Error(
                  `ctrlrun: ${origin} presented a certificate the pinned trust anchors do not accept (${anchorsText}): ${error.message}; the connection was closed before any request was sent`,
                  { cause: error },
                )
              : error,
            null,
          );
      });
    },
  });

  const pinnedFetch = ((input: unknown, init?: Record<string, unknown>) => {
    const request = input as { url?: unknown; method?: string; headers?: unknown; body?: unknown; signal?: unknown };
    if (input !== null && typeof input === 'object' && !(input instanceof URL) && typeof request.url === 'string') {
      // a Request object of another fetch implementation: carried over field by field
      const merged = {
        method: request.method,
        headers: request.headers,
        body: request.body,
        signal: request.signal,
        ...(request.body ? { duplex: 'half' } : {}),
        ...init,
      };
      return undiciFetch(request.url, { ...merged, dispatcher: agent } as never);
    }
    return undiciFetch(input as string, { ...init, dispatcher: agent } as never);
  }) as unknown as typeof fetch;

  return {
    fetch: pinnedFetch,
    observed: (url: string) => {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return undefined;
      }
      if (parsed.protocol !== 'https:') return undefined;
      return seen.get(originKey(parsed.hostname, parsed.port));
    },
    close: () => agent.destroy(),
  };
};

/** A failed certificate check of the handshake (OpenSSL's verify codes, Node's host-name check), not ours. */
function untrusted(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  return !error.message.startsWith('ctrlrun:') && typeof code === 'string' && /CERT|SELF_SIGNED|UNABLE_TO_|ALTNAME/.test(code);
}

/** `host:port`, the key observations are kept under (a URL's origin, https assumed, port explicit). */
function originKey(hostname: string, port: string | number): string {
  return `${unbracket(hostname).toLowerCase()}:${port === '' || port === undefined ? 443 : Number(port)}`;
}

function unbracket(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

function toList(ca: string | readonly string[] | undefined): string[] {
  return ca === undefined ? [] : typeof ca === 'string' ? [ca] : [...ca];
}
