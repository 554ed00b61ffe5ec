import { execFileSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Agent, MCPServerStreamableHttp, type MCPServer } from '@openai/agents';
import { ScriptedModel, assistantMessage, functionCall } from '@openai/agents/testing';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bindAgentTools, bindMcp, bindProtectedTool, createControl, memoryStore, run, type CompiledPolicy, type Store } from '../../src/runtime/index.js';
import { createPinnedFetch } from '../../src/runtime/upstream.js';
import { toolOutputSeen } from './helpers.js';
// @ts-expect-error a plain ESM module (the stdio door tests run it as a script too)
import { makeIssuesServer } from '../helpers/mcp-issues-server.mjs';
// @ts-expect-error a plain ESM module (the child process imports it too)
import { mcpPolicy } from '../helpers/mcp-policy.mjs';

/**
 * CTRLRun's TLS pins (`upstream.tls_cert_sha256`, `tls_cert_file`; its SPEC-v0.10 §4.3) through a
 * real HTTPS MCP server (`@modelcontextprotocol/sdk` streamable HTTP behind `node:https`, with
 * throwaway self-signed certificates made by openssl in a temp folder) and the real Runner. The
 * server records every JSON-RPC method it receives, so "it never received the call" is its word.
 */

interface Cert {
  key: string;
  pem: string;
  sha256: string;
}

let dir: string;
let certA: Cert;
let certB: Cert;
const stores: Store[] = [];
const clients: MCPServer[] = [];
const upstreams: Upstream[] = [];

function makeCert(name: string): Cert {
  const key = path.join(dir, `${name}.key`);
  const crt = path.join(dir, `${name}.pem`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      key,
      '-out',
      crt,
      '-days',
      '2',
      '-subj',
      `/CN=${name}`,
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { stdio: 'ignore' },
  );
  const pem = readFileSync(crt, 'utf8');
  return { key: readFileSync(key, 'utf8'), pem, sha256: `sha256:${createHash('sha256').update(new X509Certificate(pem).raw).digest('hex')}` };
}

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'ctrlrun-tls-'));
  certA = makeCert('a');
  certB = makeCert('b');
});
afterEach(async () => {
  // closing a client whose server changed its certificate fails its own last request: not the subject here
  for (const c of clients.splice(0)) await c.close().catch(() => undefined);
  for (const u of upstreams.splice(0)) await u.close();
  for (const s of stores.splice(0)) await s.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Upstream {
  url: string;
  /** Every JSON-RPC method the server received, in order (`tools/call:create_issue` for a call). */
  methods: string[];
  /** TCP connections the server accepted. */
  connections: () => number;
  /** Presents another certificate from now on (existing connections are cut, and the cut is let reach the client). */
  swap: (cert: Cert) => Promise<void>;
  close: () => Promise<void>;
}

/** The issues MCP server over streamable HTTP behind node:https, stateless (one transport per request). */
async function httpsUpstream(cert: Cert): Promise<Upstream> {
  const methods: string[] = [];
  let connections = 0;
  const log = path.join(dir, `issues-${Math.random().toString(36).slice(2)}.log`);
  const server: Server = createServer({ key: cert.key, cert: cert.pem }, async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text ? (JSON.parse(text) as { method?: string; params?: { name?: string } }) : undefined;
    if (body?.method) methods.push(body.method === 'tools/call' ? `tools/call:${body.params?.name}` : body.method);
    const mcp = makeIssuesServer(log);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const upstream: Upstream = {
    url: `https://127.0.0.1:${port}/mcp`,
    methods,
    connections: () => connections,
    swap: async (next) => {
      server.setSecureContext({ key: next.key, cert: next.pem });
      server.closeAllConnections();
      await new Promise((resolve) => setTimeout(resolve, 100));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  upstreams.push(upstream);
  return upstream;
}

/** mcpPolicy with TLS pins on github.create_issue (github.list_issues stays unpinned). */
function pinnedPolicy(pins: { sha256?: string[]; pems?: string[] }): CompiledPolicy {
  const policy = mcpPolicy() as CompiledPolicy & { actions: Record<string, { upstream?: unknown }> };
  policy.actions['github.create_issue']!.upstream = {
    ...(pins.sha256 ? { tlsCertSha256: pins.sha256 } : {}),
    ...(pins.pems ? { tlsCertPems: pins.pems } : {}),
  };
  return policy;
}

function processOn(policy: CompiledPolicy) {
  const store = memoryStore();
  stores.push(store);
  const control = createControl({ store, identity: (rc) => (rc.context as { user?: string })?.user ?? null });
  return { store, doors: bindMcp(control, policy, { createPinnedFetch }), agents: bindAgentTools<string>(control, policy) };
}

async function client(url: string, fetch?: typeof globalThis.fetch, connect = true) {
  const server = new MCPServerStreamableHttp({ name: 'issues', url, cacheToolsList: true, ...(fetch ? { fetch } : {}) });
  clients.push(server);
  if (connect) await server.connect();
  return server;
}

/** The messages of an error and its causes, joined (the MCP client wraps the fetch's error). */
function causeChain(error: unknown): string {
  const out: string[] = [];
  for (let e = error, i = 0; e instanceof Error && i < 10; e = e.cause, i++) out.push(e.message);
  return out.join(' <- ');
}

function model(...steps: Parameters<typeof functionCall>[][]) {
  return new ScriptedModel([...steps.map((calls) => calls.map((c) => functionCall(...c))), [assistantMessage('done')]]);
}

const runAs = (server: MCPServer, m: ScriptedModel) =>
  run(new Agent<{ user: string }>({ name: 'triage', model: m, mcpServers: [server] }), 'file it', { context: { user: 'alice' } });

describe('upstream TLS pins through protectMcpServer (a real HTTPS MCP server, the real Runner)', () => {
  it('a matching pin (digest and tls_cert_file anchor): the call runs once and its receipts record it', async () => {
    const up = await httpsUpstream(certA);
    const p = processOn(pinnedPolicy({ sha256: [certA.sha256], pems: [certA.pem] }));
    const server = p.doors.protectMcpServer(await client(up.url, p.doors.upstreamFetch('issues')));
    const m = model([['create_issue', { title: 'small', priority: 1 }, { callId: 'c1' }]]);
    expect((await runAs(server, m)).finalOutput).toBe('done');
    expect(up.methods.filter((x) => x.startsWith('tools/call'))).toEqual(['tools/call:create_issue']);
    expect(toolOutputSeen(m, 1, 'c1')).toContain('created issue');
    expect((await p.store.listReceipts()).map((r) => [r.call_id, r.result, r.reason])).toEqual([
      ['c1', 'allowed', 'rule[0]'],
      ['c1', 'executed', 'rule[0]'],
    ]);
  });

  it("protectAgent guards a server built with the module's upstreamFetch: the same control's doors accept it", async () => {
    const up = await httpsUpstream(certA);
    const p = processOn(pinnedPolicy({ sha256: [certA.sha256], pems: [certA.pem] }));
    const server = await client(up.url, p.doors.upstreamFetch('issues'));
    const m = model([['create_issue', { title: 'via agent', priority: 1 }, { callId: 'g1' }]]);
    const agent = p.agents.protectAgent(new Agent<{ user: string }>({ name: 'triage', model: m, mcpServers: [server] }));
    await run(agent, 'file it', { context: { user: 'alice' } });
    expect(toolOutputSeen(m, 1, 'g1')).toContain('created issue');
    expect(up.methods.filter((x) => x.startsWith('tools/call'))).toEqual(['tools/call:create_issue']);
  });

  it('a rotation: either pinned certificate is admitted (two digests, two anchors)', async () => {
    const up = await httpsUpstream(certB);
    const p = processOn(pinnedPolicy({ sha256: [certA.sha256, certB.sha256], pems: [certA.pem, certB.pem] }));
    const server = p.doors.protectMcpServer(await client(up.url, p.doors.upstreamFetch('issues')));
    await runAs(server, model([['create_issue', { title: 'rotated', priority: 1 }, { callId: 'r1' }]]));
    expect(up.methods).toContain('tools/call:create_issue');
  });

  it('a wrong tls_cert_file anchor: the handshake fails, the server receives not one request', async () => {
    const up = await httpsUpstream(certA);
    const p = processOn(pinnedPolicy({ pems: [certB.pem] }));
    const error = await client(up.url, p.doors.upstreamFetch('issues')).then(
      () => null,
      (e: unknown) => e,
    );
    expect(causeChain(error)).toContain(
      `127.0.0.1:${new URL(up.url).port} presented a certificate the pinned trust anchors do not accept (upstream.tls_cert_file)`,
    );
    expect(up.methods).toEqual([]);
  });

  it('a wrong digest: the handshake is ended upstream_mismatch before any request is written', async () => {
    const up = await httpsUpstream(certA);
    const p = processOn(pinnedPolicy({ sha256: [certB.sha256] }));
    const server = await client(up.url, p.doors.upstreamFetch('issues', { ca: certA.pem }), false);
    const error = await server.connect().then(
      () => null,
      (e: unknown) => e,
    );
    expect(causeChain(error)).toContain(`upstream_mismatch: 127.0.0.1:${new URL(up.url).port} presented a certificate whose SHA-256 is ${certA.sha256}`);
    expect(up.connections()).toBeGreaterThan(0); // it did reach the server
    expect(up.methods).toEqual([]);
  });

  it('the certificate changes under connected clients: the next handshake fails (the call never sent), then every call is refused upstream_mismatch before any request', async () => {
    const up = await httpsUpstream(certA);
    const p = processOn(pinnedPolicy({ sha256: [certA.sha256] }));
    const fetch = p.doors.upstreamFetch('issues', { ca: [certA.pem, certB.pem] });
    const first = p.doors.protectMcpServer(await client(up.url, fetch));
    // the same server's tools as protectMcpTools makes them (listed now; nothing is listed at run time)
    const tools = await p.doors.protectMcpTools([await client(up.url, fetch)]);
    await runAs(first, model([['create_issue', { title: 'before', priority: 1 }, { callId: 's1' }]]));
    expect(up.methods.filter((x) => x.startsWith('tools/call'))).toHaveLength(1);

    await up.swap(certB);
    // decided on the last observation (still A): the call's own handshake shows B and is ended, so nothing is sent
    await expect(runAs(first, model([['create_issue', { title: 'during', priority: 1 }, { callId: 's2' }]]))).rejects.toThrow();
    expect(up.methods.filter((x) => x.startsWith('tools/call'))).toHaveLength(1);
    // B is now what this process observed: a call is refused before anything is sent
    const m = model([['create_issue', { title: 'after', priority: 1 }, { callId: 's3' }]]);
    expect((await run(new Agent<{ user: string }>({ name: 'triage', model: m, tools }), 'file it', { context: { user: 'alice' } })).finalOutput).toBe('done');
    expect(toolOutputSeen(m, 1, 's3')).toContain(`presented a certificate whose SHA-256 is ${certB.sha256}`);
    expect(toolOutputSeen(m, 1, 's3')).toContain('upstream_mismatch');
    expect(up.methods.filter((x) => x.startsWith('tools/call'))).toHaveLength(1);
    const receipts = await p.store.listReceipts();
    expect(receipts.filter((r) => r.call_id === 's3').map((r) => [r.result, r.reason])).toEqual([['refused', 'upstream_mismatch']]);
  });

  it('a server not built with upstreamFetch is refused upstream_unverified, even with a fetch that pins the same certificate', async () => {
    const up = await httpsUpstream(certA);
    const p = processOn(pinnedPolicy({ sha256: [certA.sha256], pems: [certA.pem] }));
    // a look-alike: the same pins, made outside these doors; it connects fine, but proves nothing to them
    const lookalike = createPinnedFetch({ sha256: [certA.sha256], pems: [certA.pem] });
    const server = p.doors.protectMcpServer(await client(up.url, lookalike.fetch));
    const m = model([
      ['create_issue', { title: 'x', priority: 1 }, { callId: 'u1' }],
      ['list_issues', {}, { callId: 'u2' }],
    ]);
    await runAs(server, m);
    expect(toolOutputSeen(m, 1, 'u1')).toContain("was not built with `fetch: upstreamFetch('issues')`");
    expect(toolOutputSeen(m, 1, 'u2')).toContain('issues'); // the unpinned action still runs
    expect(up.methods.filter((x) => x.startsWith('tools/call'))).toEqual(['tools/call:list_issues']);
    expect((await p.store.listReceipts()).filter((r) => r.call_id === 'u1').map((r) => [r.result, r.reason])).toEqual([['refused', 'upstream_unverified']]);
    await lookalike.close();
  });

  it('the fetch made for another server is refused; a plain http URL is never pinned', async () => {
    const up = await httpsUpstream(certA);
    const policy = pinnedPolicy({ sha256: [certA.sha256], pems: [certA.pem] });
    (policy as { mcp: Record<string, Record<string, string>> }).mcp['other'] = { create_issue: 'github.create_issue' };
    const p = processOn(policy);
    const server = p.doors.protectMcpServer(await client(up.url, p.doors.upstreamFetch('other')));
    const m = model([['create_issue', { title: 'x', priority: 1 }, { callId: 'o1' }]]);
    await runAs(server, m);
    expect(toolOutputSeen(m, 1, 'o1')).toContain('uses the fetch made for server other');
    expect(up.methods.filter((x) => x.startsWith('tools/call'))).toEqual([]);
    await expect(p.doors.upstreamFetch('issues')(up.url.replace('https:', 'http:'))).rejects.toThrow();
    expect(() => p.doors.upstreamFetch('nobody')).toThrow(/no action the manifest maps to a tool of MCP server nobody pins a TLS certificate/);
  });
});

describe('upstream TLS pins through protectMcpTools, and on doors that open no connection', () => {
  it('protectMcpTools: a matching pin runs once; a server without the pinned fetch is refused when protected', async () => {
    const up = await httpsUpstream(certA);
    const p = processOn(pinnedPolicy({ sha256: [certA.sha256], pems: [certA.pem] }));
    const tools = await p.doors.protectMcpTools([await client(up.url, p.doors.upstreamFetch('issues'))]);
    const m = model([['create_issue', { title: 't', priority: 1 }, { callId: 't1' }]]);
    await run(new Agent<{ user: string }>({ name: 'triage', model: m, tools }), 'file it', { context: { user: 'alice' } });
    expect(up.methods.filter((x) => x.startsWith('tools/call'))).toEqual(['tools/call:create_issue']);

    const lookalike = createPinnedFetch({ sha256: [certA.sha256], pems: [certA.pem] });
    await expect(p.doors.protectMcpTools([await client(up.url, lookalike.fetch)])).rejects.toThrow(/upstream_unverified/);
    await lookalike.close();
  });

  it('a function tool whose action pins a certificate is refused upstream_unverified on every call (its body opens its own connection)', async () => {
    const store = memoryStore();
    stores.push(store);
    const control = createControl({ store, identity: () => 'alice' });
    const policy = pinnedPolicy({ sha256: [certA.sha256] });
    (policy as { tools: Record<string, string> }).tools = { create_issue: 'github.create_issue' };
    const protectedTool = bindProtectedTool<string>(control, policy);
    let ran = 0;
    const create = protectedTool('github.create_issue', {
      name: 'create_issue',
      description: 'Create an issue',
      parameters: z.object({ title: z.string(), priority: z.number().int() }),
      execute: async () => {
        ran++;
        return 'created';
      },
    });
    const m = model([['create_issue', { title: 'x', priority: 1 }, { callId: 'f1' }]]);
    await run(new Agent({ name: 'triage', model: m, tools: [create] }), 'file it');
    expect(ran).toBe(0);
    expect(toolOutputSeen(m, 1, 'f1')).toContain('upstream_unverified');
    expect((await store.listReceipts()).map((r) => [r.result, r.reason])).toEqual([['refused', 'upstream_unverified']]);
  });
});
