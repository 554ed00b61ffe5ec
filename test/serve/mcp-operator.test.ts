import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPolicyOrThrow } from '../../src/policy/load.js';
import { sqliteStore } from '../../src/runtime/sqlite.js';
import type { Store } from '../../src/runtime/types.js';
import { addOperator, emptyOperators, readOperators, removeOperator, writeOperators } from '../../src/serve/operators.js';
import { startServe, type RunningServe } from '../../src/serve/server.js';
import { CLI_BIN } from '../helpers/paths.js';
import { POLICY_YAML, pendingRequest } from './helpers.js';

/**
 * The MCP operator console as an MCP client meets it: `ctrlrun-gen mcp-operator --stdio` spawned by
 * the SDK's own stdio client (a real child process of the built CLI), over a SQLite store, directly
 * and through serve.
 */
let dir: string;
let store: Store;
let policyHash: string;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-mcp-operator-'));
  writeFileSync(path.join(dir, 'ctrlrun.yaml'), POLICY_YAML);
  policyHash = loadPolicyOrThrow(path.join(dir, 'ctrlrun.yaml')).policy.hash;
  let data = emptyOperators();
  for (const [name, kind, roles, tenant] of [
    ['bob', 'operator', ['payments-approver'], undefined],
    ['ann', 'operator', [], 'acme'],
    ['cy', 'operator', [], undefined],
    ['agent', 'runtime', [], undefined],
  ] as const) {
    const added = addOperator(data, { name, kind, roles: [...roles], ...(tenant ? { tenant } : {}), now: 0 });
    data = added.data;
    tokens[name] = added.token;
  }
  writeOperators(path.join(dir, 'operators.json'), data);
  store = sqliteStore({ path: path.join(dir, 'state.db') });
  const at = { policyHash, createdAt: 1_700_000_000_000 };
  await store.putRequest(pendingRequest('r1', at));
  await store.putRequest(pendingRequest('r2', at));
  await store.putRequest(pendingRequest('r3', { ...at, action: 'wire.send', toolName: 'wire', args: '{"to":"acct-1"}', approvalsRequired: 2 }));
  const door = {
    kind: 'function' as const,
    schema: { type: 'object', properties: { payment_id: { type: 'string' }, amount: { type: 'integer' } }, required: ['payment_id', 'amount'] },
  };
  await store.putRequest(pendingRequest('r4', { ...at, door }));
  await store.putRequest(pendingRequest('r5', { ...at, door }));
  await store.putRequest(pendingRequest('@acme:a1', { ...at, principal: 'ann', action: 'wire.send', args: '{"to":"acct-2"}' }));
  await store.putRequest(pendingRequest('@acme:a2', { ...at, principal: 'zoe' }));
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function console(extra: string[], env: Record<string, string>): Promise<{ client: Client; stderr: () => string; close: () => Promise<void> }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_BIN, 'mcp-operator', '--stdio', '--policy', 'ctrlrun.yaml', '--operators', 'operators.json', ...extra],
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'test', version: '0' });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

async function refusal(p: Promise<unknown>): Promise<{ code: number; reason?: string; message: string }> {
  try {
    await p;
  } catch (error) {
    if (error instanceof McpError) return { code: error.code, reason: (error.data as { reason?: string } | undefined)?.reason, message: error.message };
    throw error;
  }
  throw new Error('not refused');
}

const call = (client: Client, name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args });

describe('ctrlrun-gen mcp-operator --stdio, over the store', () => {
  it("answers and halts as the token's operator, recorded under that name; refuses what it cannot attribute or the store refuses", async () => {
    const c = await console(['--store', 'sqlite:state.db'], { CTRLRUN_TOKEN: tokens.bob! });
    try {
      expect(c.stderr()).toContain('writes are recorded as bob');
      const names = (await c.client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual([
        'list_pending_approvals',
        'show_approval',
        'approve',
        'reject',
        'respond',
        'list_halts',
        'halt',
        'lift_halt',
        'list_grants',
        'revoke_grant',
      ]);
      const listed = (await call(c.client, 'list_pending_approvals')).structuredContent as { requests: Array<{ request_id: string }> };
      expect(listed.requests.map((r) => r.request_id).sort()).toEqual(['@acme:a1', '@acme:a2', 'r1', 'r2', 'r3', 'r4', 'r5']);
      const shown = (await call(c.client, 'show_approval', { request_id: 'r1' })).structuredContent as Record<string, any>;
      expect(shown.arguments).toEqual({ amount: 512345, payment_id: 'pay_42' });
      expect(shown.asked_by_policy).toMatchObject({ decision: 'approve', reason: 'rule[1]', roles_needed: ['payments-approver'] });

      // the approver is the token's operator: a name in the arguments is refused, not used
      expect((await refusal(call(c.client, 'approve', { request_id: 'r1', approver: 'mallory' }))).code).toBe(-32602);
      const approved = await call(c.client, 'approve', { request_id: 'r1', reason: 'customer called' });
      expect((approved.structuredContent as { state: string }).state).toBe('approved');
      expect((await store.getRequest('r1'))!.answers.map((a) => a.approver)).toEqual(['bob']);
      expect((await store.listReceipts()).filter((r) => r.call_id === 'r1').map((r) => [r.result, r.approvers])).toEqual([['approved', ['bob']]]);
      expect(await refusal(call(c.client, 'approve', { request_id: 'r1' }))).toMatchObject({ code: -41003, reason: 'not_pending' });
      expect(await refusal(call(c.client, 'approve', { request_id: 'nope' }))).toMatchObject({ code: -41003, reason: 'unknown' });
      expect((await refusal(call(c.client, 'reject', { request_id: 'r2' }))).code).toBe(-32602); // a rejection says why
      await call(c.client, 'reject', { request_id: 'r2', message: 'duplicate' });
      expect((await store.getRequest('r2'))!.answers).toMatchObject([{ approver: 'bob', decision: 'reject', reason: 'duplicate' }]);

      expect((await refusal(call(c.client, 'halt', { target: 'everything', reason: 'x' }))).code).toBe(-32602);
      const halt = (await call(c.client, 'halt', { target: 'action', value: 'stripe.refund', reason: 'incident 9' })).structuredContent as {
        halt: { id: string };
      };
      expect((await store.readHalts!()).halts).toMatchObject([{ id: halt.halt.id, by: 'bob', target: 'action' }]);
      await call(c.client, 'lift_halt', { halt_id: halt.halt.id });
      expect((await store.readHalts!()).halts).toEqual([]);

      // the token removed while the console runs: its next write is refused and writes nothing
      writeOperators(path.join(dir, 'operators.json'), removeOperator(readOperators(path.join(dir, 'operators.json')), 'bob').data);
      const before = (await store.listReceipts()).length;
      expect(await refusal(call(c.client, 'approve', { request_id: 'r3' }))).toMatchObject({ code: -41007 });
      expect((await store.getRequest('r3'))!.answers).toEqual([]);
      expect((await store.listReceipts()).length).toBe(before);
    } finally {
      await c.close();
      let data = readOperators(path.join(dir, 'operators.json'));
      const added = addOperator(data, { name: 'bob', kind: 'operator', roles: ['payments-approver'], now: 0 });
      data = added.data;
      tokens.bob = added.token;
      writeOperators(path.join(dir, 'operators.json'), data);
    }
  });

  it('approves with edits and a grant, and responds in the tool\u2019s place; an edit into deny is refused', async () => {
    const c = await console(['--store', 'sqlite:state.db'], { CTRLRUN_TOKEN: tokens.bob! });
    try {
      const names = (await c.client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('respond');
      const denied = await refusal(call(c.client, 'approve', { request_id: 'r4', arguments: '{"payment_id":"pay_42","amount":5000000}' }));
      expect(denied.message).toContain('the policy denies the edited call');
      expect((await store.getRequest('r4'))!.answers).toEqual([]);
      await call(c.client, 'approve', { request_id: 'r4', arguments: '{"payment_id":"pay_42","amount":200000}', grant_hours: 2 });
      const approved = (await store.getRequest('r4'))!;
      expect(approved.state).toBe('approved');
      expect(JSON.parse(approved.answers[0]!.args!)).toEqual({ amount: 200000, payment_id: 'pay_42' });
      expect((await store.listGrants!({ action: 'stripe.refund' })).map((g) => [g.grantedBy, g.callId])).toEqual([['bob', 'r4']]);
      await call(c.client, 'respond', { request_id: 'r5', result: 'refunded by hand in the dashboard' });
      expect((await store.getRequest('r5'))!.answers).toMatchObject([{ approver: 'bob', decision: 'respond', result: 'refunded by hand in the dashboard' }]);
    } finally {
      await c.close();
    }
  });

  it('lists grants and revokes one as the operator; a role the action needs and a second revoke are refused', async () => {
    const [grant] = await store.listGrants!({ action: 'stripe.refund' });
    const cy = await console(['--store', 'sqlite:state.db'], { CTRLRUN_TOKEN: tokens.cy! });
    try {
      const before = (await store.listReceipts()).length;
      expect(await refusal(call(cy.client, 'revoke_grant', { grant_id: grant!.id }))).toMatchObject({ code: -41015, reason: 'role' });
      expect((await store.getGrant!(grant!.id))!.revokedAt).toBeUndefined();
      expect((await store.listReceipts()).length).toBe(before);
    } finally {
      await cy.close();
    }
    const c = await console(['--store', 'sqlite:state.db'], { CTRLRUN_TOKEN: tokens.bob! });
    try {
      const listed = (await call(c.client, 'list_grants', { active: true })).structuredContent as { grants: Array<Record<string, unknown>> };
      expect(listed.grants).toMatchObject([{ grant_id: grant!.id, principal: grant!.principal, action: 'stripe.refund', granted_by: 'bob', request_id: 'r4' }]);
      const revoked = (await call(c.client, 'revoke_grant', { grant_id: grant!.id })).structuredContent as { grant: Record<string, unknown> };
      expect(revoked.grant).toMatchObject({ grant_id: grant!.id, revoked_by: 'bob' });
      expect((await store.getGrant!(grant!.id))!.revokedBy).toBe('bob');
      expect((await store.listReceipts()).filter((r) => r.result === 'revoked').map((r) => r.approvers)).toEqual([['bob']]);
      expect((await call(c.client, 'list_grants', { active: true })).structuredContent).toEqual({ grants: [] });
      expect(((await call(c.client, 'list_grants')).structuredContent as { grants: unknown[] }).grants).toHaveLength(1);
      expect(await refusal(call(c.client, 'revoke_grant', { grant_id: grant!.id }))).toMatchObject({ code: -41003, reason: 'not_active' });
      expect(await refusal(call(c.client, 'revoke_grant', { grant_id: 'grant_nope' }))).toMatchObject({ code: -41003, reason: 'unknown' });
      expect((await refusal(call(c.client, 'revoke_grant', { grant_id: grant!.id, by: 'mallory' }))).code).toBe(-32602);
    } finally {
      await c.close();
    }
  });

  it("a tenant's token reads and answers its tenant only; the requester and a missing role are refused", async () => {
    const c = await console(['--store', 'sqlite:state.db'], { CTRLRUN_TOKEN: tokens.ann! });
    try {
      const listed = (await call(c.client, 'list_pending_approvals')).structuredContent as { requests: Array<{ request_id: string }> };
      expect(listed.requests.map((r) => r.request_id).sort()).toEqual(['a1', 'a2']);
      expect(await refusal(call(c.client, 'approve', { request_id: 'r3' }))).toMatchObject({ code: -41003, reason: 'unknown' });
      expect(await refusal(call(c.client, 'approve', { request_id: 'a1' }))).toMatchObject({ code: -41003, reason: 'approver_is_requester' });
      expect(await refusal(call(c.client, 'approve', { request_id: 'a2' }))).toMatchObject({ code: -41015, reason: 'role' });
      expect((await store.getRequest('@acme:a2'))!.state).toBe('pending');
    } finally {
      await c.close();
    }
  });

  it('without a token it reads and refuses every write; a runtime token does not start it', async () => {
    const c = await console(['--store', 'sqlite:state.db'], {});
    try {
      expect(c.stderr()).toContain('no operator token');
      expect(((await call(c.client, 'list_halts')).content as Array<{ text: string }>)[0]!.text).toContain('No halts');
      const before = (await store.listReceipts()).length;
      expect(await refusal(call(c.client, 'approve', { request_id: 'r3' }))).toMatchObject({ code: -41007, reason: 'unattributed' });
      expect(await refusal(call(c.client, 'halt', { target: 'all', reason: 'x' }))).toMatchObject({ code: -41007 });
      const [grant] = await store.listGrants!({});
      expect(await refusal(call(c.client, 'revoke_grant', { grant_id: grant!.id }))).toMatchObject({ code: -41007, reason: 'unattributed' });
      expect((await store.listReceipts()).length).toBe(before);
      expect((await store.readHalts!()).halts).toEqual([]);
    } finally {
      await c.close();
    }
    await expect(console(['--store', 'sqlite:state.db'], { CTRLRUN_TOKEN: tokens.agent! })).rejects.toThrow();
  });
});

describe('ctrlrun-gen mcp-operator --stdio --server', () => {
  let serve: RunningServe;
  beforeAll(async () => {
    serve = await startServe({
      store,
      policy: loadPolicyOrThrow(path.join(dir, 'ctrlrun.yaml')).policy,
      operatorsFile: path.join(dir, 'operators.json'),
      host: '127.0.0.1',
      port: 0,
      approvalTtlMs: 900_000,
      log: () => {},
    });
  });
  afterAll(async () => serve.close());

  it('serve authenticates the token and records its operator; a runtime token writes nothing', async () => {
    const c = await console(['--server', serve.url], { CTRLRUN_TOKEN: tokens.bob! });
    try {
      expect(c.stderr()).toContain('writes are recorded as bob');
      await call(c.client, 'approve', { request_id: 'r3', reason: 'ok' });
      expect((await store.getRequest('r3'))!.answers.map((a) => a.approver)).toEqual(['bob']);
      const halt = (await call(c.client, 'halt', { target: 'all', reason: 'freeze', hard: true })).structuredContent as { halt: { id: string; by: string } };
      expect(halt.halt.by).toBe('bob');
      await call(c.client, 'lift_halt', { halt_id: halt.halt.id, reason: 'thawed' });

      // grants through serve's API: listed on serve's clock, revoked as the token's operator
      await store.putGrant!({
        ...(await store.listGrants!({}))[0]!,
        id: 'grant_srv',
        revokedAt: undefined,
        revokedBy: undefined,
        expiresAt: Date.now() + 3_600_000,
      });
      const active = (await call(c.client, 'list_grants', { active: true })).structuredContent as { grants: Array<{ grant_id: string }> };
      expect(active.grants.map((g) => g.grant_id)).toEqual(['grant_srv']);
      const revoked = (await call(c.client, 'revoke_grant', { grant_id: 'grant_srv' })).structuredContent as { grant: { revoked_by: string } };
      expect(revoked.grant.revoked_by).toBe('bob');
      expect((await store.getGrant!('grant_srv'))!.revokedBy).toBe('bob');
      expect(await refusal(call(c.client, 'revoke_grant', { grant_id: 'grant_srv' }))).toMatchObject({ code: -41003, reason: 'not_active' });
    } finally {
      await c.close();
    }
    const cy = await console(['--server', serve.url], { CTRLRUN_TOKEN: tokens.cy! });
    try {
      await store.putGrant!({ ...(await store.getGrant!('grant_srv'))!, id: 'grant_srv2', revokedAt: undefined, revokedBy: undefined });
      expect(await refusal(call(cy.client, 'revoke_grant', { grant_id: 'grant_srv2' }))).toMatchObject({ code: -41015, reason: 'role' });
      expect((await store.getGrant!('grant_srv2'))!.revokedAt).toBeUndefined();
    } finally {
      await cy.close();
    }
    const agent = await console(['--server', serve.url], { CTRLRUN_TOKEN: tokens.agent! });
    try {
      const before = (await store.listReceipts()).length;
      expect(await refusal(call(agent.client, 'approve', { request_id: 'r3' }))).toMatchObject({ code: -41007 });
      expect(await refusal(call(agent.client, 'revoke_grant', { grant_id: 'grant_srv2' }))).toMatchObject({ code: -41007 });
      expect((await store.listReceipts()).length).toBe(before);
    } finally {
      await agent.close();
    }
  });
});
