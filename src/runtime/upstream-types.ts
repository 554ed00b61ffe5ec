/**
 * The pinned fetch's shape, shared by the Node-only `ctrlrun-gen/runtime/upstream` (which makes it)
 * and the MCP doors (which read what it observed). Types only: this module loads nothing.
 */

/** One action's TLS pins, or the union over the actions of one server. */
export interface TlsPins {
  /** `sha256:` digests of the leaf certificate's DER (`tls_cert_sha256`); empty: any leaf the anchors accept. */
  sha256: readonly string[];
  /** PEM certificates (`tls_cert_file`): the only trust anchors; empty: Node's roots (plus `ca`). */
  pems: readonly string[];
}

/** What a pinned fetch saw on its last handshake with one host and port. */
export interface TlsObservation {
  /** `host:port`. */
  origin: string;
  /** `sha256:` + the SHA-256 of the leaf certificate's DER. */
  sha256: string;
  /** Whether the digest is one of the pinned ones (a leaf that is not ended the handshake). */
  pinned: boolean;
  /** Epoch milliseconds. */
  at: number;
}

export interface PinnedFetch {
  /** Pass as the `fetch` option of `MCPServerStreamableHttp` or `MCPServerSSE`. */
  fetch: typeof fetch;
  /** The last handshake this fetch completed with the host and port of `url` (https only). */
  observed: (url: string) => TlsObservation | undefined;
  /** Ends its connections (open requests and streams included). */
  close: () => Promise<void>;
}

export interface PinnedFetchOptions {
  /** Extra trust anchors (PEM) for pins that name digests only (a private CA); ignored when `tls_cert_file` gave anchors. */
  ca?: string | readonly string[];
  /** Epoch milliseconds, for the observations. */
  clock?: () => number;
}

export type CreatePinnedFetch = (pins: TlsPins, options?: PinnedFetchOptions) => PinnedFetch;
