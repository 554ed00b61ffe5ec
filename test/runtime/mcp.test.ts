import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent, MCPServerStdio, MCPServerStreamableHttp, type MCPServer } from '@openai/agents';
import { ScriptedModel, assistantMessage, functionCall } from '@openai/agents/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AmbiguousEffect, bindMcp, createControl, mcpToolSchemaHash, run, verifyReceipts, type CompiledPolicy, type Store } from '../../src/runtime/index.js';
import { sqliteStore } from '../../src/runtime/sqlite.js';
import { serveStatelessMcp } from '../../src/demo/support-server.js';
import { runChildJson } from '../helpers/child-process.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { toolOutputSeen } from './helpers.js';
// @ts-expect-error a plain ESM script (it is also run by node as the stdio server)
import { makeIssuesServer } from '../helpers/mcp-issues-server.mjs';
// @ts-expect-error a plain ESM module (the child process imports it too)
import { mcpPolicy as sharedMcpPolicy } from '../helpers/mcp-policy.mjs';

const SERVER_SCRIPT = path.join(REPO_ROOT, 'test/helpers/mcp-issues-server.mjs');
const CHILD = path.join(REPO_ROOT, 'test/runtime/children/mcp-resume.mjs');

/** github.create_issue: priority < 3 allow, < 8 approve, else deny; effect issue:{title} (shared with the child process). */
const mcpPolicy = (options: { pin?: string; hash?: string; notExecutedOnError?: boolean; maxAttempts?: number } = {}): CompiledPolicy =>
  sharedMcpPolicy(options) as CompiledPolicy;

interface Ctx {
  user?: string;
}

let dir: string;
let log: string;
const stores: Store[] = [];
const servers: MCPServer[] = [];

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'ctrlrun-mcp-'));
});
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const s of stores.splice(0)) await s.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let counter = 0;
function fresh() {
  counter++;
  log = path.join(dir, `issues-${counter}.log`);
  return { db: path.join(dir, `state-${counter}.db`), log };
}

/** The body's runs, as the MCP server itself logged them. */
function runs(file: string): Array<{ title: string; priority: number }> {
  return calls(file).map(({ title, priority }) => ({ title, priority }));
}

/** The same, with the id of the client process that made each call. */
function calls(file: string): Array<{ title: string; priority: number; client: number | null }> {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { title: string; priority: number; client: number | null });
  } catch {
    return [];
  }
}

interface ChildConfig {
  transport: 'stdio' | 'http';
  url?: string;
  db: string;
  log: string;
  state: string;
  prefixed?: boolean;
  approve?: string[];
  resolve?: boolean;
  force?: boolean;
  answer?: string;
}

/** Resumes the saved state once in a real child process: its own store handle, control and MCP client (over stdio, its own server process). */
function resumeInChild(config: ChildConfig): Promise<Record<string, unknown>> {
  return runChildJson(CHILD, config);
}

/** One "process": its own store handle, control, policy binding and MCP client. */
function processOn(db: string, policy: CompiledPolicy = mcpPolicy(), options: { offerAllTools?: boolean } = {}) {
  const store = sqliteStore({ path: db });
  stores.push(store);
  const control = createControl({ store, identity: (rc) => (rc.context as Ctx)?.user ?? null, ...options });
  return { store, control, doors: bindMcp(control, policy) };
}

async function stdioServer(logFile: string, extra: { poisoned?: boolean } = {}) {
  const server = new MCPServerStdio({
    name: 'issues',
    command: process.execPath,
    args: [SERVER_SCRIPT],
    env: { ...(process.env as Record<string, string>), CTRLRUN_TEST_MCP_LOG: logFile, CTRLRUN_TEST_MCP_POISONED: extra.poisoned ? '1' : '0' },
    cacheToolsList: true,
  });
  await server.connect();
  servers.push(server);
  return server;
}

function model(...steps: Parameters<typeof functionCall>[][]) {
  return new ScriptedModel([...steps.map((calls) => calls.map((c) => functionCall(...c))), [assistantMessage('done')]]);
}

describe('protectMcpServer: the guard lives on the server (stdio, a real MCP server process)', () => {
  it('allow runs once; deny never runs and the model is told why; receipts verify', async () => {
    const { db, log } = fresh();
    const p = processOn(db);
    const server = p.doors.protectMcpServer(await stdioServer(log));
    const m = model([
      ['create_issue', { title: 'small', priority: 1 }, { callId: 'a1' }],
      ['create_issue', { title: 'huge', priority: 9 }, { callId: 'd1' }],
    ]);
    const agent = new Agent<Ctx>({ name: 'triage', model: m, mcpServers: [server] });
    const result = await run(agent, 'file two', { context: { user: 'alice' } });
    expect(result.finalOutput).toBe('done');
    expect(runs(log)).toEqual([{ title: 'small', priority: 1 }]);
    expect(toolOutputSeen(m, 1, 'a1')).toContain('created issue');
    const denied = toolOutputSeen(m, 1, 'd1');
    expect(denied).toContain('The call to github.create_issue was refused (denied by policy: rule[2])');
    expect(denied).toContain('must not be retried');
    const receipts = await p.store.listReceipts();
    expect(receipts.map((r) => [r.call_id, r.result, r.effect_key])).toEqual(
      expect.arrayContaining([
        ['a1', 'allowed', 'issue:small'],
        ['a1', 'executed', 'issue:small'],
        ['d1', 'denied', null],
      ]),
    );
    expect(receipts.every((r) => r.principal === 'alice' && r.action === 'github.create_issue')).toBe(true);
    expect((await p.store.getEffect('issue:small'))?.state).toBe('committed');
    expect(await verifyReceipts(p.store)).toEqual({ ok: true, count: 3 });
  });

  it('is idempotent and survives clone(): the guard is on the server, not on the agent', async () => {
    const { db, log } = fresh();
    const p = processOn(db);
    const server = await stdioServer(log);
    p.doors.protectMcpServer(server);
    p.doors.protectMcpServer(server);
    expect(server.toolInputGuardrails).toHaveLength(1);
    expect(server.toolOutputGuardrails).toHaveLength(1);
    const m = model([['create_issue', { title: 'huge', priority: 9 }, { callId: 'd2' }]]);
    const original = new Agent<Ctx>({ name: 'triage', model: m, mcpServers: [server] });
    const clone = original.clone({ name: 'triage-2' });
    await run(clone, 'file it', { context: { user: 'alice' } });
    expect(runs(log)).toEqual([]);
    expect(toolOutputSeen(m, 1, 'd2')).toContain('denied by policy');
  });

  it('a call the policy sends to a person is refused (no pause is possible here) and never runs', async () => {
    const { db, log } = fresh();
    const p = processOn(db);
    const server = p.doors.protectMcpServer(await stdioServer(log));
    const m = model([['create_issue', { title: 'mid', priority: 5 }, { callId: 'p1' }]]);
    await run(new Agent<Ctx>({ name: 'triage', model: m, mcpServers: [server] }), 'x', { context: { user: 'alice' } });
    expect(runs(log)).toEqual([]);
    expect(toolOutputSeen(m, 1, 'p1')).toContain("needs a person's approval");
    expect((await p.store.listReceipts()).map((r) => [r.result, r.reason])).toEqual([['refused', 'approval_unavailable']]);
  });

  it('prefixed names (mcpConfig.includeServerInToolNames) map back to the action; no principal is refused', async () => {
    const { db, log } = fresh();
    const p = processOn(db);
    const server = p.doors.protectMcpServer(await stdioServer(log));
    const m = model([['mcp_issues__create_issue', { title: 'pre', priority: 0 }, { callId: 'x1' }]]);
    const agent = new Agent<Ctx>({ name: 'triage', model: m, mcpServers: [server], mcpConfig: { includeServerInToolNames: true } });
    await run(agent, 'x', { context: { user: 'alice' } });
    expect(runs(log)).toEqual([{ title: 'pre', priority: 0 }]);

    const m2 = model([['mcp_issues__create_issue', { title: 'nobody', priority: 0 }, { callId: 'x2' }]]);
    await run(new Agent<Ctx>({ name: 'triage', model: m2, mcpServers: [server], mcpConfig: { includeServerInToolNames: true } }), 'x', { context: {} });
    expect(runs(log)).toHaveLength(1);
    expect(toolOutputSeen(m2, 1, 'x2')).toContain('no principal');
  });

  it('a tool no manifest entry maps is denied as unknown_action', async () => {
    const { db, log } = fresh();
    const policy = mcpPolicy();
    // offerAllTools: by default an unmapped tool is not offered at all (least exposure, exposure-doors.test.ts)
    const p = processOn(db, { ...policy, mcp: { issues: { list_issues: 'github.list_issues' } } }, { offerAllTools: true });
    const server = p.doors.protectMcpServer(await stdioServer(log));
    const m = model([['create_issue', { title: 'a', priority: 0 }, { callId: 'u1' }]]);
    await run(new Agent<Ctx>({ name: 'triage', model: m, mcpServers: [server] }), 'x', { context: { user: 'alice' } });
    expect(runs(log)).toEqual([]);
    expect(toolOutputSeen(m, 1, 'u1')).toContain('mcp:issues/create_issue was refused (denied by policy: unknown_action)');
  });

  it('a failed MCP call never becomes "please try again": it propagates and its effect is ambiguous', async () => {
    const { db, log } = fresh();
    const p = processOn(db);
    const server = p.doors.protectMcpServer(await stdioServer(log));
    const m = model([['create_issue', { title: 'explode', priority: 1 }, { callId: 'e1' }]]);
    // the server answers isError: the SDK hands that back as output text, not an exception: it ran
    await run(new Agent<Ctx>({ name: 'triage', model: m, mcpServers: [server] }), 'x', { context: { user: 'alice' } });
    expect(runs(log)).toHaveLength(1);
    expect(toolOutputSeen(m, 1, 'e1')).toContain('the tracker broke');
    // the server records the issue, then its process dies before answering
    const m2 = model([['create_issue', { title: 'crash', priority: 1 }, { callId: 'e2' }]]);
    const error = await run(new Agent<Ctx>({ name: 'triage', model: m2, mcpServers: [server] }), 'x', { context: { user: 'alice' } }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(runs(log)).toHaveLength(2);
    expect(error).toBeInstanceOf(AmbiguousEffect);
    expect((error as AmbiguousEffect).message).toContain('effect issue:crash');
    expect(m2.calls).toHaveLength(1); // the model never saw a "please try again"
    expect((await p.store.getEffect('issue:crash'))?.state).toBe('ambiguous');
    expect((await p.store.listReceipts()).slice(-2).map((r) => [r.call_id, r.result])).toEqual([
      ['e2', 'allowed'],
      ['e2', 'ambiguous'],
    ]);
  });

  it('a tool whose listed schema no longer hashes to the pin is refused (a poisoned description)', async () => {
    const { db, log } = fresh();
    const honest = await stdioServer(log);
    const listed = (await honest.listTools()).find((t) => t.name === 'create_issue')!;
    const pin = mcpToolSchemaHash(listed);
    const p = processOn(db, mcpPolicy({ pin }));
    // the honest server passes the pin
    p.doors.protectMcpServer(honest);
    const m = model([['create_issue', { title: 'ok', priority: 1 }, { callId: 'h1' }]]);
    await run(new Agent<Ctx>({ name: 'triage', model: m, mcpServers: [honest] }), 'x', { context: { user: 'alice' } });
    expect(runs(log)).toHaveLength(1);
    // the same tool with a changed description does not
    const poisoned = p.doors.protectMcpServer(await stdioServer(log, { poisoned: true }));
    const m2 = model([['create_issue', { title: 'leak', priority: 1 }, { callId: 'h2' }]]);
    await run(new Agent<Ctx>({ name: 'triage', model: m2, mcpServers: [poisoned] }), 'x', { context: { user: 'alice' } });
    expect(runs(log)).toHaveLength(1);
    expect(toolOutputSeen(m2, 1, 'h2')).toContain('upstream.tool_schema_sha256');
    await expect(p.doors.protectMcpTools([poisoned])).rejects.toThrow(/not the pinned/);
  });
});

/** A real streamable HTTP MCP server on 127.0.0.1 (stateless: one transport per request), served as the demo serves its own. */
function httpServer(logFile: string): Promise<{ url: string; close: () => Promise<void> }> {
  return serveStatelessMcp(() => makeIssuesServer(logFile));
}

async function httpClient(url: string) {
  const server = new MCPServerStreamableHttp({ name: 'issues', url, cacheToolsList: true });
  await server.connect();
  servers.push(server);
  return server;
}

describe('protectMcpTools: MCP tools that can pause for a person', () => {
  it('over streamable HTTP: approve pauses; a second person approves in a real child process, which resumes and runs it once; a second resume runs nothing', async () => {
    const { db, log } = fresh();
    const remote = await httpServer(log);
    try {
      // this process: the run pauses
      const p1 = processOn(db);
      const tools1 = await p1.doors.protectMcpTools([await httpClient(remote.url)]);
      expect(tools1.map((t) => t.name).sort()).toEqual(['create_issue', 'list_issues']);
      const m1 = new ScriptedModel([[functionCall('create_issue', { title: 'mid', priority: 5 }, { callId: 'ap1' })]]);
      const agent1 = new Agent<Ctx>({ name: 'triage', model: m1, tools: tools1 });
      const paused = await run(agent1, 'file it', { context: { user: 'alice' } });
      expect(paused.interruptions).toHaveLength(1);
      expect(runs(log)).toEqual([]);
      expect((await p1.control.request(paused.state)).map((r) => [r.callId, r.action, r.principal, r.state])).toEqual([
        ['ap1', 'github.create_issue', 'alice', 'pending'],
      ]);
      const statePath = path.join(dir, `http-state-${counter}.json`);
      writeFileSync(statePath, paused.state.toString());
      const base = { transport: 'http' as const, url: remote.url, db, log, state: statePath };

      // a child process: its own store handle, control and MCP client; alice cannot approve, bob does; it resumes
      const child = await resumeInChild({ ...base, approve: ['alice', 'bob'], answer: 'filed' });
      expect(child).toMatchObject({ refused: ['approver_is_requester'], pending: 0, output: 'filed', code: 0 });
      expect(String(child.seen)).toContain('created issue \\"mid\\" (p5)');
      expect(calls(log)).toEqual([{ title: 'mid', priority: 5, client: child.pid }]);
      expect(child.pid).not.toBe(process.pid);

      // another child, the same saved state: after resolve the used approval is a rejection the model reads
      const again = await resumeInChild({ ...base, answer: 'again' });
      expect(again).toMatchObject({ output: 'again', code: 0 });
      expect(String(again.seen)).toContain('its approval was already used');
      // and one forced through the SDK (state.approve): the claim refuses it and the run stops
      const forced = await resumeInChild({ ...base, force: true });
      expect(forced).toMatchObject({ error: 'ApprovalMismatch', reason: 'consumed' });
      expect(runs(log)).toHaveLength(1);

      const results = (await p1.store.listReceipts()).map((r) => r.result);
      // one receipt per replay attempt (issue 24): the resolved resume, then the forced one
      expect(results).toEqual(['requested', 'refused', 'approved', 'claimed', 'executed', 'refused', 'refused']);
      expect(await verifyReceipts(p1.store)).toEqual({ ok: true, count: 7 });
    } finally {
      await remote.close();
    }
  });

  it('over stdio: allow runs once, deny never runs and the model is told why', async () => {
    const { db, log } = fresh();
    const p = processOn(db);
    const tools = await p.doors.protectMcpTools([await stdioServer(log)]);
    const m = model([
      ['create_issue', { title: 'small', priority: 2 }, { callId: 's1' }],
      ['create_issue', { title: 'huge', priority: 9 }, { callId: 's2' }],
    ]);
    await run(new Agent<Ctx>({ name: 'triage', model: m, tools }), 'x', { context: { user: 'alice' } });
    expect(runs(log)).toEqual([{ title: 'small', priority: 2 }]);
    expect(toolOutputSeen(m, 1, 's2')).toContain('denied by policy: rule[2]');
    expect(await verifyReceipts(p.store)).toEqual({ ok: true, count: 3 });
  });

  it('over stdio: approve pauses; a real child process (with its own server process) approves, resumes and runs it once; a second resume runs nothing', async () => {
    const { db, log } = fresh();
    const p1 = processOn(db);
    const agent1 = new Agent<Ctx>({
      name: 'triage',
      model: new ScriptedModel([[functionCall('mcp_issues__create_issue', { title: 'mid', priority: 4 }, { callId: 'sp1' })]]),
      tools: await p1.doors.protectMcpTools([await stdioServer(log)], { includeServerInToolNames: true }),
    });
    const paused = await run(agent1, 'x', { context: { user: 'alice' } });
    await p1.control.request(paused.state);
    const statePath = path.join(dir, `stdio-state-${counter}.json`);
    writeFileSync(statePath, paused.state.toString());
    const base = { transport: 'stdio' as const, db, log, state: statePath, prefixed: true };

    const child = await resumeInChild({ ...base, approve: ['bob'], answer: 'ok' });
    expect(child).toMatchObject({ refused: [], output: 'ok', code: 0 });
    // the server that ran it is the child's own (its parent is the child process)
    expect(calls(log)).toEqual([{ title: 'mid', priority: 4, client: child.pid }]);
    const forced = await resumeInChild({ ...base, force: true });
    expect(forced).toMatchObject({ error: 'ApprovalMismatch', reason: 'consumed' });
    const again = await resumeInChild({ ...base, answer: 'again' });
    expect(String(again.seen)).toContain('its approval was already used');
    expect(runs(log)).toEqual([{ title: 'mid', priority: 4 }]);
    expect(await verifyReceipts(p1.store)).toMatchObject({ ok: true });
    expect((await p1.store.getRequest('sp1'))?.state).toBe('consumed');
  });

  it('approve with edits (issue 38): the MCP server receives the edited arguments once, under the edited effect key; the model reads what changed', async () => {
    const { db, log } = fresh();
    const p = processOn(db);
    const tools = await p.doors.protectMcpTools([await stdioServer(log)]);
    const m = new ScriptedModel([[functionCall('create_issue', { title: 'outage', priority: 5 }, { callId: 'ed1' })], [assistantMessage('done')]]);
    const agent = new Agent<Ctx>({ name: 'triage', model: m, tools });
    const paused = await run(agent, 'x', { context: { user: 'alice' } });
    expect((await p.store.getRequest('ed1'))?.door).toMatchObject({ kind: 'mcp', schema: { type: 'object' } });
    await p.control.approve(paused.state, paused.interruptions[0]!, { approver: 'bob', arguments: { title: 'outage (eu)', priority: 4 } });
    await run(agent, paused.state);
    expect(runs(log)).toEqual([{ title: 'outage (eu)', priority: 4 }]);
    // the MCP result (one text item): the note leads its text
    const seen = JSON.parse(toolOutputSeen(m, 1, 'ed1')!) as Array<{ type: string; text: string }>;
    expect(seen[0]!.text).toContain('Approved with changes by bob: priority 5 → 4; title "outage" → "outage (eu)"');
    expect(seen[0]!.text).toContain('created issue "outage (eu)" (p4)');
    expect((await p.store.listReceipts()).find((r) => r.result === 'claimed')?.effect_key).toBe('issue:outage (eu)');
  });

  it("CTRLRun's outcome for a result marked isError: ambiguous by default (the model still reads the server's answer)", async () => {
    const { db, log } = fresh();
    const p = processOn(db);
    const tools = await p.doors.protectMcpTools([await stdioServer(log)]);
    const m = model([['create_issue', { title: 'explode', priority: 1 }, { callId: 'e1' }]]);
    const result = await run(new Agent<Ctx>({ name: 'triage', model: m, tools }), 'x', { context: { user: 'alice' } });
    expect(result.finalOutput).toBe('done');
    expect(toolOutputSeen(m, 1, 'e1')).toContain('the tracker broke');
    expect(runs(log)).toEqual([{ title: 'explode', priority: 1 }]);
    expect((await p.store.listReceipts()).map((r) => [r.result, r.effect_key])).toEqual([
      ['allowed', 'issue:explode'],
      ['ambiguous', 'issue:explode'],
    ]);
    expect((await p.store.getEffect('issue:explode'))?.state).toBe('ambiguous');
  });

  it("with the action's mcp: { not_executed_on_error: true } an isError result is not executed: the key is failed and a retry runs", async () => {
    const { db, log } = fresh();
    const p = processOn(db, mcpPolicy({ notExecutedOnError: true, maxAttempts: 2 }));
    const tools = await p.doors.protectMcpTools([await stdioServer(log)]);
    const m = model(
      [['create_issue', { title: 'explode', priority: 1 }, { callId: 'n1' }]],
      [['create_issue', { title: 'explode', priority: 1 }, { callId: 'n2' }]],
    );
    await run(new Agent<Ctx>({ name: 'triage', model: m, tools }), 'x', { context: { user: 'alice' } });
    expect(toolOutputSeen(m, 1, 'n1')).toContain('the tracker broke');
    expect(runs(log)).toEqual([
      { title: 'explode', priority: 1 },
      { title: 'explode', priority: 1 },
    ]);
    expect((await p.store.listReceipts()).map((r) => [r.call_id, r.result])).toEqual([
      ['n1', 'allowed'],
      ['n1', 'not_executed'],
      ['n2', 'allowed'],
      ['n2', 'not_executed'],
    ]);
    const effect = await p.store.getEffect('issue:explode');
    expect([effect?.state, effect?.attempts]).toEqual(['failed', 2]);
  });

  it('refuses a server with its own errorFunction (it would hide whether a call ran)', async () => {
    const { db, log } = fresh();
    const p = processOn(db);
    const server = await stdioServer(log);
    server.errorFunction = () => 'please try again';
    await expect(p.doors.protectMcpTools([server])).rejects.toThrow(/own errorFunction/);
  });
});

describe('protectMcpFunctionTool: one listed tool, as the codemod writes for mcpToFunctionTool (issue 35)', () => {
  it('over stdio: the tools of a listing, protected one by one: allow runs once, deny never runs, approve pauses and is filed', async () => {
    const { db, log } = fresh();
    const p = processOn(db);
    const server = await stdioServer(log);
    // the app's own code, as it was with mcpToFunctionTool: list, filter, convert
    const tools = (await server.listTools()).filter((t) => t.name === 'create_issue').map((t) => p.doors.protectMcpFunctionTool(t, server, false));
    const m = model([
      ['create_issue', { title: 'small', priority: 2 }, { callId: 'f1' }],
      ['create_issue', { title: 'huge', priority: 9 }, { callId: 'f2' }],
    ]);
    await run(new Agent<Ctx>({ name: 'triage', model: m, tools }), 'x', { context: { user: 'alice' } });
    expect(runs(log)).toEqual([{ title: 'small', priority: 2 }]);
    expect(toolOutputSeen(m, 1, 'f2')).toContain('denied by policy: rule[2]');
    const paused = await run(
      new Agent<Ctx>({ name: 'triage', model: model([['create_issue', { title: 'mid', priority: 5 }, { callId: 'f3' }]]), tools }),
      'x',
      {
        context: { user: 'alice' },
      },
    );
    expect(paused.interruptions.map((i) => i.name)).toEqual(['create_issue']);
    expect((await p.control.resolve(paused.state)).map((r) => r.action)).toEqual(['github.create_issue']);
    expect(runs(log)).toHaveLength(1);
  });

  it('a schema pin is checked against the server at the call; a server with its own errorFunction is refused', async () => {
    const { db, log } = fresh();
    const honest = await stdioServer(log);
    const listed = (await honest.listTools()).find((t) => t.name === 'create_issue')!;
    const p = processOn(db, mcpPolicy({ pin: mcpToolSchemaHash(listed) }));
    const poisoned = await stdioServer(log, { poisoned: true });
    // the app hands over the honest listing, but the server it calls now lists another tool
    const tool = p.doors.protectMcpFunctionTool(listed, poisoned, false);
    const m = model([['create_issue', { title: 'leak', priority: 1 }, { callId: 'p1' }]]);
    await run(new Agent<Ctx>({ name: 'triage', model: m, tools: [tool] }), 'x', { context: { user: 'alice' } });
    expect(runs(log)).toEqual([]);
    expect(toolOutputSeen(m, 1, 'p1')).toContain('upstream.tool_schema_sha256');
    poisoned.errorFunction = () => 'please try again';
    expect(() => p.doors.protectMcpFunctionTool(listed, poisoned, false)).toThrow(/own errorFunction/);
  });
});
