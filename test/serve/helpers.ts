import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadPolicyOrThrow } from '../../src/policy/load.js';
import type { Policy } from '../../src/policy/types.js';
import { canonicalHash } from '../../src/runtime/canonical.js';
import { sqliteStore } from '../../src/runtime/sqlite.js';
import type { NewApprovalRequest, Store } from '../../src/runtime/types.js';
import { addOperator, emptyOperators, type TokenKind, writeOperators } from '../../src/serve/operators.js';
import { type RunningServe, startServe, type StartServeOptions } from '../../src/serve/server.js';

export const POLICY_YAML = `schema: ctrlrun.policy/v6
controls:
  payments-approval:
    title: A refund above the autonomous band is approved by payments
    approver_role: payments-approver
actions:
  stripe.refund:
    effect: "refund:{payment_id}"
    controls: [payments-approval]
    approvals_required: 1
    rules:
      - when: { amount_lte: 10000 }
        decision: allow
      - when: { amount_lte: 1000000 }
        decision: approve
      - decision: deny
  wire.send:
    approvals_required: 2
    decision: approve
`;

export interface ServeFixture {
  dir: string;
  store: Store;
  policy: Policy;
  operatorsFile: string;
  tokens: Record<string, string>;
  serve: RunningServe;
  close(): Promise<void>;
}

/** Writes an operators file (name -> roles, or 'runtime' for an agent's token); returns each name's token. */
export function writeOperatorTokens(file: string, operators: Record<string, string[] | 'runtime'>): Record<string, string> {
  let data = emptyOperators();
  const tokens: Record<string, string> = {};
  for (const [name, roles] of Object.entries(operators)) {
    const kind: TokenKind = roles === 'runtime' ? 'runtime' : 'operator';
    const added = addOperator(data, { name, kind, roles: roles === 'runtime' ? [] : roles, now: Date.now() });
    data = added.data;
    tokens[name] = added.token;
  }
  writeOperators(file, data);
  return tokens;
}

/** A temp dir with a policy, a SQLite store, operators (name -> roles, or 'runtime'), and serve on a free port. */
export async function startFixture(operators: Record<string, string[] | 'runtime'>, extra: Partial<StartServeOptions> = {}): Promise<ServeFixture> {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-serve-'));
  writeFileSync(path.join(dir, 'ctrlrun.yaml'), POLICY_YAML);
  const policy = loadPolicyOrThrow(path.join(dir, 'ctrlrun.yaml')).policy;
  const store = sqliteStore({ path: path.join(dir, 'state.db') });
  const operatorsFile = path.join(dir, 'operators.json');
  const tokens = writeOperatorTokens(operatorsFile, operators);
  const serve = await startServe({ store, policy, operatorsFile, host: '127.0.0.1', port: 0, approvalTtlMs: 15 * 60_000, log: () => {}, ...extra });
  return {
    dir,
    store,
    policy,
    operatorsFile,
    tokens,
    serve,
    close: async () => {
      await serve.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A pending request; its argsHash binds its args (as the runtime writes them) unless overridden. */
export const pendingRequest = (callId: string, overrides: Partial<NewApprovalRequest> = {}): NewApprovalRequest => ({
  callId,
  action: 'stripe.refund',
  toolName: 'refund',
  argsHash: argsHashOfText(overrides.args ?? '{"amount":512345,"payment_id":"pay_42"}'),
  args: '{"amount":512345,"payment_id":"pay_42"}',
  policyHash: 'p'.repeat(64),
  principal: 'alice',
  approvalsRequired: 1,
  createdAt: Date.now(),
  ...overrides,
});

/** fetch with a bearer token and a JSON body. */
export async function api(base: string, token: string | undefined, method: string, route: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json };
}

/** The hash the runtime binds to an arguments text (invalid JSON: a hash that binds nothing). */
export function argsHashOfText(args: string): string {
  try {
    return canonicalHash(JSON.parse(args));
  } catch {
    return 'a'.repeat(64);
  }
}

const csrfIn = (page: string): string => /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';

/**
 * Signs in through the login form as a browser does (the form's CSRF token, in its cookie and in
 * the form); returns the session cookie (`name=value`) and the inbox's CSRF token.
 */
export async function signIn(base: string, token: string): Promise<{ cookie: string; csrf: string; setCookie: string }> {
  const form = await fetch(`${base}/login`);
  const loginCookie = form.headers.getSetCookie()[0]!.split(';')[0]!;
  const res = await fetch(`${base}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: loginCookie },
    body: new URLSearchParams({ csrf: csrfIn(await form.text()), token }),
  });
  if (res.status !== 303) throw new Error(`sign-in refused: ${res.status}`);
  const setCookie = res.headers.getSetCookie().find((c) => !/_login=/.test(c))!;
  const cookie = setCookie.split(';')[0]!;
  const inbox = await (await fetch(`${base}/`, { headers: { cookie } })).text();
  return { cookie, csrf: csrfIn(inbox), setCookie };
}
