import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Agent, RunState, run as sdkRun } from '@openai/agents';
import { ScriptedModel, assistantMessage } from '@openai/agents/testing';
import { describe, expect, it } from 'vitest';
import { bindLocalTools, run, verifyReceipts } from '../../src/runtime/index.js';
import { jsonLines, runChildJson } from '../helpers/child-process.js';
import { doorWorkspaces } from '../helpers/door-workspaces.js';
import { REPO_ROOT } from '../helpers/paths.js';
// @ts-expect-error a plain ESM module (the child process imports it too)
import { localPolicy, patchCall, realEditor, realShell, shellCall } from '../helpers/local-doors.mjs';

const CHILD = path.join(REPO_ROOT, 'test/runtime/children/local-resume.mjs');

interface Ctx {
  user?: string;
}

const ws = doorWorkspaces('ctrlrun-local-', { root: 'ws', log: 'runs' });
const fresh = () => ws.fresh();

/** The body's runs, as the shell and the editor logged them. */
function runs(file: string): Array<{ command?: string; type?: string; path?: string; pid: number }> {
  return jsonLines(file);
}

function processOn(db: string) {
  return ws.processOn(db, (control) => bindLocalTools(control, localPolicy()));
}

function opsAgent(p: ReturnType<typeof processOn>, f: ReturnType<typeof fresh>, model: ScriptedModel) {
  const tools = [
    p.doors.protectShellTool('host.shell', { shell: realShell(f.log, f.root) }),
    p.doors.protectApplyPatchTool('repo.patch', { editor: realEditor(f.root, f.log) }),
  ];
  return new Agent<Ctx>({ name: 'ops', model, tools });
}

/** What the model was sent back for a call (shell: the output array; apply_patch: status and output). */
function outputSeen(model: ScriptedModel, index: number, callId: string): string {
  const input = model.calls[index]?.request.input;
  const item = Array.isArray(input)
    ? input.find((i) => (i as { callId?: string }).callId === callId && String((i as { type?: string }).type).endsWith('_output'))
    : undefined;
  return JSON.stringify(item ?? null);
}

/** Runs the saved state once in a real child process (its own store handle, control, shell and editor). */
function resumeInChild(config: { db: string; log: string; root: string; state: string; answer?: string; resolve?: boolean }): Promise<Record<string, unknown>> {
  return runChildJson(CHILD, config);
}

describe('protectShellTool: a real shell (each command a /bin/sh child process)', () => {
  it('allow runs once; deny never runs and the model is told why; the run goes on; receipts verify', async () => {
    const f = fresh();
    const p = processOn(f.db);
    const model = new ScriptedModel([[shellCall('s1', ['echo hello']), shellCall('s2', ['rm -rf ./data'])], [assistantMessage('done')]]);
    const result = await run(opsAgent(p, f, model), 'go', { context: { user: 'alice' } });
    expect(result.finalOutput).toBe('done');
    expect(runs(f.log).map((r) => r.command)).toEqual(['echo hello']);
    expect(outputSeen(model, 1, 's1')).toContain('hello\\n');
    const denied = outputSeen(model, 1, 's2');
    expect(denied).toContain('host.shell denied by policy (rule[1])');
    expect(denied).toContain('must not be retried');
    const receipts = await p.store.listReceipts();
    expect(receipts.map((r) => [r.result, r.effect_key ?? null])).toEqual([
      ['allowed', 'shell:echo hello'],
      ['executed', 'shell:echo hello'],
      ['denied', null],
    ]);
    expect((await p.store.getEffect('shell:echo hello'))?.state).toBe('committed');
    expect(await verifyReceipts(p.store)).toEqual({ ok: true, count: 3 });
  });

  it('a call of several commands is decided command by command: a denied one next to an allowed one runs nothing; the strictest decision wins', async () => {
    const f = fresh();
    const p = processOn(f.db);
    const model = new ScriptedModel([
      [shellCall('m1', ['echo one', 'rm -rf ./data']), shellCall('m2', ['echo a', 'pwd']), shellCall('m3', ['echo b', 'git push origin main'])],
      [assistantMessage('done')],
    ]);
    const paused = await run(opsAgent(p, f, model), 'go', { context: { user: 'alice' } });
    // m1: `echo one` alone is allowed, `rm -rf ./data` alone is denied: the call is denied and neither runs
    expect(runs(f.log).map((r) => r.command)).toEqual(['echo a', 'pwd']);
    // m3: one command a person must see: the whole call pauses, both commands shown
    expect(paused.interruptions.map((i) => (i.rawItem as { callId?: string }).callId)).toEqual(['m3']);
    const requests = await p.store.listRequests();
    expect(requests.map((r) => [r.callId, r.args])).toEqual([
      ['m3', JSON.stringify({ command: 'echo b\ngit push origin main', commands: ['echo b', 'git push origin main'] })],
    ]);
    expect((await p.store.listReceipts()).map((r) => [r.call_id, r.result, r.reason])).toEqual([
      ['m1', 'denied', 'rule[1]'],
      ['m2', 'allowed', 'rule[0]'],
      ['m2', 'executed', 'rule[0]'],
      ['m3', 'requested', 'rule[2]'],
    ]);
    await p.control.approve(paused.state, paused.interruptions[0]!, { approver: 'bob' });
    await run(opsAgent(p, f, new ScriptedModel([[assistantMessage('done')]])), paused.state, { context: { user: 'alice' } });
    expect(runs(f.log).map((r) => r.command)).toEqual(['echo a', 'pwd', 'echo b', 'git push origin main']);
  });

  it('a paused call of several commands filed by the control (its request not in this store) is decided command by command too', async () => {
    const f = fresh();
    const p = processOn(f.db);
    const model = new ScriptedModel([[shellCall('m1', ['echo b', 'git push origin main'])], [assistantMessage('done')]]);
    const paused = await run(opsAgent(p, f, model), 'go', { context: { user: 'alice' } });
    // another store: the control files the request itself as it approves, deciding it again
    const other = processOn(fresh().db);
    await other.control.approve(paused.state, paused.interruptions[0]!, { approver: 'bob' });
    expect((await other.store.listReceipts()).map((r) => [r.call_id, r.result, r.decision, r.reason])).toEqual([
      ['m1', 'requested', 'approve', 'rule[2]'],
      ['m1', 'approved', 'approve', '1 of 1 approvals'],
    ]);
  });

  it('no principal: refused, nothing runs', async () => {
    const f = fresh();
    const p = processOn(f.db);
    const model = new ScriptedModel([[shellCall('s1', ['echo hi'])], [assistantMessage('done')]]);
    await run(opsAgent(p, f, model), 'go', { context: {} });
    expect(runs(f.log)).toEqual([]);
    expect(outputSeen(model, 1, 's1')).toContain('host.shell refused: identity(runContext) returned no principal');
    expect((await p.store.listReceipts()).map((r) => [r.result, r.reason])).toEqual([['refused', 'no_principal']]);
  });

  it('approve pauses; a second person approves; a real child process resumes and runs it once; a second resume runs nothing', async () => {
    const f = fresh();
    const p1 = processOn(f.db);
    const m1 = new ScriptedModel([[shellCall('s9', ['git push origin main'])]]);
    const paused = await run(opsAgent(p1, f, m1), 'ship it', { context: { user: 'alice' } });
    expect(paused.interruptions.map((i) => i.rawItem.type)).toEqual(['shell_call']);
    expect(runs(f.log)).toEqual([]);
    const requests = await p1.control.request(paused.state);
    expect(requests.map((r) => [r.callId, r.action, r.principal, r.state, r.args])).toEqual([
      ['s9', 'host.shell', 'alice', 'pending', JSON.stringify({ command: 'git push origin main', commands: ['git push origin main'] })],
    ]);
    await expect(p1.control.approve(paused.state, paused.interruptions[0]!, { approver: 'alice' })).rejects.toMatchObject({ reason: 'approver_is_requester' });
    await p1.control.approve(paused.state, paused.interruptions[0]!, { approver: 'bob' });
    const statePath = path.join(f.root, '..', `state-${f.n}.json`);
    writeFileSync(statePath, paused.state.toString());

    const child = await resumeInChild({ db: f.db, log: f.log, root: f.root, state: statePath, answer: 'pushed' });
    expect(child).toMatchObject({ output: 'pushed', pending: 0, code: 0 });
    const ran = runs(f.log);
    expect(ran.map((r) => r.command)).toEqual(['git push origin main']);
    expect(ran[0]!.pid).toBe(child.pid);
    expect(ran[0]!.pid).not.toBe(process.pid);

    // the same saved state again, in another child: the answer says it was used, so the SDK rejects it
    const again = await resumeInChild({ db: f.db, log: f.log, root: f.root, state: statePath, answer: 'again' });
    expect(again).toMatchObject({ output: 'again', code: 0 });
    // and once more without applying the answers: the claim refuses it and the run stops
    const forced = await resumeInChild({ db: f.db, log: f.log, root: f.root, state: statePath, resolve: false });
    expect(forced).toMatchObject({ error: 'ApprovalMismatch', reason: 'consumed' });
    expect(runs(f.log)).toHaveLength(1);

    const receipts = await p1.store.listReceipts();
    expect(receipts.map((r) => [r.result, r.reason ?? null])).toEqual([
      ['requested', 'rule[2]'],
      ['refused', 'approver_is_requester'],
      ['approved', '1 of 1 approvals'],
      ['claimed', 'rule[2]'],
      ['executed', 'rule[2]'],
      // one receipt per replay attempt (issue 24): the resolved resume, then the forced one
      ['refused', 'approval_consumed'],
      ['refused', 'approval_consumed'],
    ]);
    expect(receipts.find((r) => r.result === 'executed')?.approvers).toEqual(['bob']);
    expect(await verifyReceipts(p1.store)).toEqual({ ok: true, count: 7 });
  });

  it("the SDK's own run() files a paused shell call, bound as request() binds it; request() adds nothing (issue 21 item 5)", async () => {
    const f = fresh();
    const p = processOn(f.db);
    const paused = await sdkRun(opsAgent(p, f, new ScriptedModel([[shellCall('s4', ['git push origin main'])]])), 'ship it', { context: { user: 'alice' } });
    expect(paused.interruptions.map((i) => i.rawItem.type)).toEqual(['shell_call']);
    const filed = await p.store.listRequests();
    expect(filed.map((r) => [r.callId, r.action, r.toolName, r.principal, r.state, r.args])).toEqual([
      ['s4', 'host.shell', 'shell', 'alice', 'pending', JSON.stringify({ command: 'git push origin main', commands: ['git push origin main'] })],
    ]);
    expect(await p.control.request(paused.state)).toEqual(filed);
    expect((await p.store.listReceipts()).map((r) => [r.result, r.call_id, r.principal])).toEqual([['requested', 's4', 'alice']]);
    expect(runs(f.log)).toEqual([]);
  });

  it('an approval held only by the SDK state (state.approve) authorizes nothing', async () => {
    const f = fresh();
    const p = processOn(f.db);
    const m1 = new ScriptedModel([[shellCall('s3', ['git push --force'])]]);
    const agent = opsAgent(p, f, m1);
    const paused = await run(agent, 'go', { context: { user: 'alice' } });
    paused.state.approve(paused.interruptions[0]!);
    const m2 = new ScriptedModel([[assistantMessage('done')]]);
    const agent2 = opsAgent(p, f, m2);
    const state = await RunState.fromString(agent2, paused.state.toString());
    const result = await run(agent2, state);
    expect(result.finalOutput).toBe('done');
    expect(runs(f.log)).toEqual([]);
    expect(outputSeen(m2, 0, 's3')).toContain('authorizes nothing');
    // the pause filed its request (issue 21 item 5); the SDK's own yes still authorizes nothing
    expect((await p.store.listReceipts()).map((r) => [r.result, r.reason])).toEqual([
      ['requested', 'rule[2]'],
      ['refused', 'approval_unrecorded'],
    ]);
  });

  it('a rejected call never runs and the model reads who rejected it', async () => {
    const f = fresh();
    const p = processOn(f.db);
    const paused = await run(opsAgent(p, f, new ScriptedModel([[shellCall('s4', ['make deploy'])]])), 'go', { context: { user: 'alice' } });
    await p.control.reject(paused.state, paused.interruptions[0]!, { approver: 'bob', message: 'not today' });
    const m2 = new ScriptedModel([[assistantMessage('ok')]]);
    const agent2 = opsAgent(p, f, m2);
    const state = await RunState.fromString(agent2, paused.state.toString());
    await p.control.resolve(state);
    await run(agent2, state);
    expect(runs(f.log)).toEqual([]);
    expect(outputSeen(m2, 0, 's4')).toContain('rejected by bob: not today');
  });

  it("issue 38: an edit is refused with the shell door's reason; a response reaches the model and the command never runs", async () => {
    const f = fresh();
    const p = processOn(f.db);
    const paused = await run(opsAgent(p, f, new ScriptedModel([[shellCall('s5', ['make deploy'])]])), 'go', { context: { user: 'alice' } });
    expect((await p.store.getRequest('s5'))?.door).toEqual({ kind: 'shell' });
    const edit = await p.control.approve(paused.state, paused.interruptions[0]!, { approver: 'bob', arguments: { commands: ['make test'] } }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(edit).toMatchObject({ name: 'ActionDenied', reason: 'edit_unsupported' });
    expect((edit as Error).message).toContain('the SDK runs the shell command the model wrote');
    await p.control.respond(paused.state, paused.interruptions[0]!, { approver: 'bob', result: 'Deployed by hand at 14:02; nothing to do.' });
    const m2 = new ScriptedModel([[assistantMessage('ok')]]);
    const agent2 = opsAgent(p, f, m2);
    const state = await RunState.fromString(agent2, paused.state.toString());
    await p.control.resolve(state);
    await run(agent2, state);
    expect(runs(f.log)).toEqual([]);
    expect(outputSeen(m2, 0, 's5')).toContain('Deployed by hand at 14:02; nothing to do.');
    expect(outputSeen(m2, 0, 's5')).not.toContain('refused');
  });

  it('refuses needsApproval, onApproval and a hosted shell at creation', () => {
    const f = fresh();
    const p = processOn(f.db);
    const shell = realShell(f.log, f.root);
    expect(() => p.doors.protectShellTool('host.shell', { shell, needsApproval: true } as never)).toThrow(/remove `needsApproval`/);
    expect(() => p.doors.protectShellTool('host.shell', { shell, onApproval: async () => ({ approve: true }) } as never)).toThrow(/remove `onApproval`/);
    expect(() => p.doors.protectShellTool('host.shell', { shell, environment: { type: 'container_auto' } } as never)).toThrow(/hosted shell/);
  });
});

describe('protectApplyPatchTool: a real editor on a temp directory', () => {
  it('allow writes once; deny writes nothing and the model is told why', async () => {
    const f = fresh();
    const p = processOn(f.db);
    const model = new ScriptedModel([
      [
        patchCall('p1', { type: 'create_file', path: 'docs/a.md', diff: '+hello\n' }),
        patchCall('p2', { type: 'create_file', path: 'app/.env', diff: '+KEY=1\n' }),
      ],
      [assistantMessage('done')],
    ]);
    await run(opsAgent(p, f, model), 'go', { context: { user: 'alice' } });
    expect(readFileSync(path.join(f.root, 'docs/a.md'), 'utf8')).toBe('hello');
    expect(existsSync(path.join(f.root, 'app/.env'))).toBe(false);
    expect(runs(f.log).map((r) => r.path)).toEqual(['docs/a.md']);
    expect(outputSeen(model, 1, 'p2')).toContain('repo.patch denied by policy (rule[1])');
    expect(outputSeen(model, 1, 'p2')).toContain('"status":"failed"');
    expect(await verifyReceipts(p.store)).toEqual({ ok: true, count: 3 });
  });

  it('an update pauses, a second person approves, a child process applies it once; a second resume applies nothing', async () => {
    const f = fresh();
    writeFileSync(path.join(f.root, 'README.md'), 'one\n');
    const p1 = processOn(f.db);
    const op = { type: 'update_file', path: 'README.md', diff: '@@\n-one\n+two\n' };
    const paused = await run(opsAgent(p1, f, new ScriptedModel([[patchCall('p9', op)]])), 'edit', { context: { user: 'alice' } });
    expect(paused.interruptions).toHaveLength(1);
    const [request] = await p1.control.request(paused.state);
    expect(JSON.parse(request!.args)).toEqual({ operation: 'update_file', path: 'README.md', diff: op.diff });
    await p1.control.approve(paused.state, paused.interruptions[0]!, { approver: 'bob' });
    const statePath = path.join(f.root, '..', `patch-state-${f.n}.json`);
    writeFileSync(statePath, paused.state.toString());

    const child = await resumeInChild({ db: f.db, log: f.log, root: f.root, state: statePath, answer: 'edited' });
    expect(child).toMatchObject({ output: 'edited', code: 0 });
    expect(readFileSync(path.join(f.root, 'README.md'), 'utf8')).toBe('two\n');
    const again = await resumeInChild({ db: f.db, log: f.log, root: f.root, state: statePath, resolve: false });
    expect(again).toMatchObject({ error: 'ApprovalMismatch', reason: 'consumed' });
    expect(readFileSync(path.join(f.root, 'README.md'), 'utf8')).toBe('two\n');
    expect(runs(f.log).map((r) => [r.type, r.path])).toEqual([['update_file', 'README.md']]);
    expect((await p1.store.getEffect('patch:README.md'))?.state).toBe('committed');
    expect(await verifyReceipts(p1.store)).toMatchObject({ ok: true });
  });
});
