import { rmSync, writeFileSync } from 'node:fs';
import { Agent, RunState, run as sdkRun, tool } from '@openai/agents';
import { Capability, filesystem, SandboxAgent, shell } from '@openai/agents/sandbox';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { afterEach, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { z } from 'zod';
import { parsePolicy } from '../../src/policy/load.js';
import { ApprovalMismatch, bindAgentTools, bindSandbox, createControl, memoryStore, run, verifyReceipts } from '../../src/runtime/index.js';
import { sqliteStore } from '../../src/runtime/sqlite.js';
import { tempRepo } from '../cli/operator-helpers.js';
import { cli } from '../helpers/cli.js';
import { compileGenerated } from '../helpers/compile-module.js';
import { execCall, localSandbox, outputSeen, patchCall, ScriptedChatCompletionsModel, sandboxPolicy } from '../helpers/sandbox-doors.js';

/**
 * Issue 35: a SandboxAgent's capability tools are doors. Through the real Runner (a scripted model)
 * and the SDK's local sandbox client, whose `exec_command` runs real commands and whose editor writes
 * real files in a temp workspace: a refused call leaves nothing on disk and the model reads why, an
 * allowed one runs with its receipts and a decision-log entry, one the policy sends to a person
 * pauses, is listed and approved with the operator's CLI, runs once, and is refused on a second
 * resume. The same for `apply_patch` in both of the SDK's forms.
 */

type Ctx = { user?: string };
const repos: string[] = [];
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
  for (const r of repos.splice(0)) rmSync(r, { recursive: true, force: true });
});

/** A repo with the operator's SQLite store, a control on it, the sandbox door, and a live local sandbox. */
async function setup(policy = sandboxPolicy(), options: { offerAllTools?: boolean } = {}) {
  const repo = tempRepo();
  repos.push(repo.root);
  const store = sqliteStore({ path: repo.dbPath });
  const control = createControl({ store, identity: (rc) => (rc.context as Ctx | undefined)?.user ?? null, ...options });
  const doors = bindSandbox(control, policy);
  const box = await localSandbox();
  cleanups.push(async () => {
    await box.close();
    await store.close();
  });
  const operator = (args: string[]) => cli(args, { cwd: repo.nested, env: { NO_COLOR: '1' } });
  return { store, control, doors, box, operator };
}

describe('exec_command of a protected SandboxAgent (real commands in a local sandbox)', () => {
  it('allow runs with receipts and a decision-log entry; deny and an unmapped tool leave no trace and the model reads why', async () => {
    // offerAllTools: by default the unmapped write_stdin is not offered at all (least exposure, exposure-doors.test.ts)
    const s = await setup(sandboxPolicy(), { offerAllTools: true });
    const model = new ScriptedModel([
      [
        execCall('c1', 'echo hi > allowed.txt'),
        execCall('c2', 'rm -rf src; touch denied.txt'),
        functionCall('write_stdin', { session_id: 1, chars: 'touch stdin.txt\n', yield_time_ms: 10, max_output_tokens: null }, { callId: 'c3' }),
      ],
      [assistantMessage('done')],
    ]);
    const agent = s.doors.protectSandboxAgent(new SandboxAgent<Ctx>({ name: 'box', instructions: 'x', model }));
    const result = await sdkRun(agent, 'go', { context: { user: 'alice' }, sandbox: { session: s.box.session } });
    expect(result.finalOutput).toBe('done');
    expect([s.box.has('allowed.txt'), s.box.has('denied.txt'), s.box.has('stdin.txt')]).toEqual([true, false, false]);
    expect(outputSeen(model, 1, 'c1')).toContain('Process exited with code 0');
    expect(outputSeen(model, 1, 'c2')).toContain('The call to box.exec was refused (denied by policy: rule[1])');
    expect(outputSeen(model, 1, 'c3')).toContain('The call to sandbox:box/write_stdin was refused (denied by policy: unknown_action)');
    const receipts = await s.store.listReceipts();
    expect(receipts.map((r) => [r.action, r.call_id, r.result, r.reason, r.principal])).toEqual([
      ['box.exec', 'c2', 'denied', 'rule[1]', 'alice'],
      ['sandbox:box/write_stdin', 'c3', 'denied', 'unknown_action', 'alice'],
      ['box.exec', 'c1', 'allowed', 'rule[0]', 'alice'],
      ['box.exec', 'c1', 'executed', 'rule[0]', 'alice'],
    ]);
    const decisions = await s.store.listDecisions!();
    expect(decisions.map((d) => [d.call_id, d.decision]).sort()).toEqual([
      ['c1', 'allow'],
      ['c2', 'deny'],
      ['c3', 'deny'],
    ]);
    expect(await verifyReceipts(s.store)).toEqual({ ok: true, count: 4 });
  }, 60_000);

  it('approve pauses and is filed; the CLI lists it and approves it; it runs once; a second resume runs nothing', async () => {
    const s = await setup();
    const model = new ScriptedModel([[execCall('c9', 'echo ran >> asked.log')], [assistantMessage('done')], [assistantMessage('again')]]);
    const agent = s.doors.protectSandboxAgent(new SandboxAgent<Ctx>({ name: 'box', instructions: 'x', model }));
    const opts = { context: { user: 'alice' }, sandbox: { session: s.box.session } };
    const paused = await sdkRun(agent, 'go', opts);
    expect(paused.interruptions.map((i) => [i.rawItem.type, (i as { name?: string }).name])).toEqual([['function_call', 'exec_command']]);
    expect(s.box.has('asked.log')).toBe(false);
    const saved = paused.state.toString();

    const listed = await s.operator(['approvals', 'list', '--pending']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/c9\s+pending\s+box\.exec\s+alice\s+0\/1/);
    expect((await s.operator(['approvals', 'approve', 'c9', '--as', 'alice'])).code).not.toBe(0); // the requester cannot approve
    const approved = await s.operator(['approvals', 'approve', 'c9', '--as', 'bob']);
    expect(approved.code, approved.stderr).toBe(0);

    expect(await s.control.resolve(paused.state)).toEqual([]);
    const resumed = await sdkRun(agent, paused.state, opts);
    expect(resumed.finalOutput).toBe('done');
    expect(s.box.read('asked.log')).toBe('ran\n');

    // the same saved state again: the answer says it was used, the model reads so, nothing runs
    const again = await RunState.fromString(agent, saved);
    await s.control.resolve(again);
    const second = await sdkRun(agent, again, opts);
    expect(second.finalOutput).toBe('again');
    expect(outputSeen(model, 2, 'c9')).toContain('its approval was already used');
    // and forced with the SDK's own approval: the claim refuses it and the run stops with the refusal itself
    await expect(run(agent, await forcedState(agent, saved), opts)).rejects.toMatchObject({ name: 'ApprovalMismatch', reason: 'consumed' });
    expect(s.box.read('asked.log')).toBe('ran\n');
    expect((await s.store.listReceipts()).map((r) => [r.result, r.reason])).toEqual([
      ['requested', 'rule[2]'],
      ['refused', 'approver_is_requester'],
      ['approved', '1 of 1 approvals'],
      ['claimed', 'rule[2]'],
      ['executed', 'rule[2]'],
      ['refused', 'approval_consumed'],
      ['refused', 'approval_consumed'],
    ]);
  }, 60_000);
});

describe('issue 38: approve with edits at a sandbox capability', () => {
  it("exec_command: the approver's command runs once instead of the model's, and the model reads what changed", async () => {
    const s = await setup();
    const model = new ScriptedModel([[execCall('c20', 'echo proposed >> asked.log')], [assistantMessage('done')]]);
    const agent = s.doors.protectSandboxAgent(new SandboxAgent<Ctx>({ name: 'box', instructions: 'x', model }));
    const opts = { context: { user: 'alice' }, sandbox: { session: s.box.session } };
    const paused = await sdkRun(agent, 'go', opts);
    const request = await s.store.getRequest('c20');
    expect(request?.door).toMatchObject({ kind: 'sandbox', schema: { type: 'object' } });
    const edited = { ...(JSON.parse(request!.args) as Record<string, unknown>), cmd: 'echo edited >> asked.log' };
    await s.control.approve(paused.state, paused.interruptions[0]!, { approver: 'bob', arguments: edited });
    const resumed = await sdkRun(agent, paused.state, opts);
    expect(resumed.finalOutput).toBe('done');
    expect(s.box.read('asked.log')).toBe('edited\n');
    expect(outputSeen(model, 1, 'c20')).toContain('Approved with changes by bob: cmd \\"echo proposed >> asked.log\\" → \\"echo edited >> asked.log\\"');
  }, 60_000);
});

async function forcedState(agent: Agent<Ctx>, saved: string) {
  const state = await RunState.fromString(agent, saved);
  state.approve(state.getInterruptions()[0]!);
  return state;
}

describe('apply_patch of a protected SandboxAgent (real files in a local sandbox)', () => {
  it('apply_patch_call: allow writes, deny writes nothing and the model reads why, approve pauses, runs once after the CLI approves, a second resume runs nothing', async () => {
    const s = await setup();
    const model = new ScriptedModel([
      [
        patchCall('p1', { type: 'create_file', path: 'docs/a.md', diff: '+hello\n' }),
        patchCall('p2', { type: 'create_file', path: '.env', diff: '+TOKEN=1\n' }),
        patchCall('p3', { type: 'create_file', path: 'src/b.ts', diff: '+export const b = 1;\n' }),
      ],
      [assistantMessage('done')],
      [assistantMessage('again')],
    ] as never);
    const agent = s.doors.protectSandboxAgent(new SandboxAgent<Ctx>({ name: 'box', instructions: 'x', model }));
    const opts = { context: { user: 'alice' }, sandbox: { session: s.box.session } };
    const paused = await sdkRun(agent, 'go', opts);
    expect(paused.interruptions.map((i) => i.rawItem.type)).toEqual(['apply_patch_call']);
    expect([s.box.has('docs/a.md'), s.box.has('.env'), s.box.has('src/b.ts')]).toEqual([true, false, false]);
    const saved = paused.state.toString();
    const listed = await s.operator(['approvals', 'list', '--pending']);
    expect(listed.stdout).toMatch(/p3\s+pending\s+box\.patch\s+alice/);
    expect((await s.operator(['approvals', 'approve', 'p3', '--as', 'bob'])).code).toBe(0);
    await s.control.resolve(paused.state);
    const resumed = await sdkRun(agent, paused.state, opts);
    expect(resumed.finalOutput).toBe('done');
    expect(s.box.read('src/b.ts')).toBe('export const b = 1;');
    expect(outputSeen(model, 1, 'p2')).toContain('box.patch denied by policy (rule[1])');

    // the same saved state again, answers applied: the used approval is a refusal the model reads; nothing is written twice
    rmSync(`${s.box.root}/src/b.ts`);
    const again = await RunState.fromString(agent, saved);
    await s.control.resolve(again);
    expect((await sdkRun(agent, again, opts)).finalOutput).toBe('again');
    expect(outputSeen(model, 2, 'p3')).toContain('its approval was already used');
    expect(s.box.has('src/b.ts')).toBe(false);
    expect((await s.store.listReceipts()).map((r) => [r.call_id, r.result])).toEqual([
      ['p1', 'allowed'],
      ['p1', 'executed'],
      ['p2', 'denied'],
      ['p3', 'requested'],
      ['p3', 'approved'],
      ['p3', 'claimed'],
      ['p3', 'executed'],
      ['p3', 'refused'],
    ]);
  }, 60_000);

  it('the function form (a Chat Completions model): decided on the patch operations, the SDK handed exactly those; an unreadable patch changes nothing', async () => {
    const s = await setup();
    const patch = (file: string) => `*** Begin Patch\n*** Add File: ${file}\n+hi\n*** End Patch\n`;
    const model = new ScriptedChatCompletionsModel([
      [
        functionCall('apply_patch', { patch: patch('docs/x.md') }, { callId: 'f1' }),
        functionCall('apply_patch', { patch: patch('.env.local') }, { callId: 'f2' }),
        functionCall('apply_patch', { patch: '*** Begin Patch\n*** Frobnicate File: a\n*** End Patch\n' }, { callId: 'f3' }),
        functionCall('apply_patch', { patch: patch('src/y.ts') }, { callId: 'f4' }),
      ],
      [assistantMessage('done')],
      [assistantMessage('forced')],
    ]);
    const agent = s.doors.protectSandboxAgent(new SandboxAgent<Ctx>({ name: 'box', instructions: 'x', model }));
    const opts = { context: { user: 'alice' }, sandbox: { session: s.box.session } };
    const paused = await sdkRun(agent, 'go', opts);
    expect(paused.interruptions.map((i) => [i.rawItem.type, (i as { name?: string }).name])).toEqual([['function_call', 'apply_patch']]);
    expect([s.box.has('docs/x.md'), s.box.has('.env.local'), s.box.has('src/y.ts')]).toEqual([true, false, false]);
    const requests = await s.store.listRequests();
    expect(requests.map((r) => [r.callId, r.action, r.args])).toEqual([
      ['f4', 'box.patch', JSON.stringify({ diff: '+hi\n', operation: 'create_file', path: 'src/y.ts' })],
    ]);
    const saved = paused.state.toString();
    await s.control.approve(paused.state, paused.interruptions[0]!, { approver: 'bob' });
    expect((await sdkRun(agent, paused.state, opts)).finalOutput).toBe('done');
    expect(s.box.read('src/y.ts')).toBe('hi');
    expect(outputSeen(model, 1, 'f2')).toContain('box.patch denied by policy (rule[1])');
    expect(outputSeen(model, 1, 'f3')).toContain('its patch could not be read');
    // a second resume, forced with the SDK's own approval: the SDK skips needsApproval, the body finds no decision and writes nothing
    rmSync(`${s.box.root}/src/y.ts`);
    expect((await run(agent, await forcedState(agent, saved), opts)).finalOutput).toBe('forced');
    expect(outputSeen(model, 2, 'f4')).toContain('no decision of the control reached this call');
    expect(s.box.has('src/y.ts')).toBe(false);
  }, 60_000);
});

/** The red team's policy (exact paths, as CTRLRun compares them), compiled as `generate` compiles it; apply_patch mapped. */
function exactPatchPolicy() {
  const doc = {
    schema: 'ctrlrun.policy/v6',
    actions: {
      'box.patch': {
        rules: [
          { when: { path_eq: '.env' }, decision: 'deny' },
          { when: { operation_eq: 'delete_file' }, decision: 'deny' },
          { when: { path_eq: 'src/app.ts' }, decision: 'approve' },
          { decision: 'allow' },
        ],
      },
    },
  };
  const parsed = parsePolicy(YAML.stringify(doc), 'ctrlrun.yaml');
  expect(parsed.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return { ...compileGenerated(parsed.value!), sandbox: { tools: { apply_patch: 'box.patch' } } };
}

describe('a function-form patch of several operations (red team #9)', () => {
  it('each operation is decided: a denied path or a deletion next to a harmless file writes nothing; one a person must see pauses the whole patch', async () => {
    const s = await setup(exactPatchPolicy());
    writeFileSync(`${s.box.root}/keep.txt`, 'important\n');
    const patch = (...ops: string[]) => `*** Begin Patch\n${ops.join('')}*** End Patch\n`;
    const add = (file: string) => `*** Add File: ${file}\n+hi\n`;
    const model = new ScriptedChatCompletionsModel([
      [
        functionCall('apply_patch', { patch: patch(add('notes.md'), add('.env')) }, { callId: 'm1' }),
        functionCall('apply_patch', { patch: patch(add('notes2.md'), '*** Delete File: keep.txt\n') }, { callId: 'm2' }),
        functionCall('apply_patch', { patch: patch(add('a.md'), add('b.md')) }, { callId: 'm3' }),
        functionCall('apply_patch', { patch: patch(add('c.md'), add('src/app.ts')) }, { callId: 'm4' }),
      ],
      [assistantMessage('done')],
    ]);
    const agent = s.doors.protectSandboxAgent(new SandboxAgent<Ctx>({ name: 'box', instructions: 'x', model, capabilities: [filesystem()] }));
    const opts = { context: { user: 'alice' }, sandbox: { session: s.box.session } };
    const paused = await sdkRun(agent, 'go', opts);
    expect(['notes.md', '.env', 'notes2.md', 'a.md', 'b.md', 'c.md', 'src/app.ts'].filter((f) => s.box.has(f))).toEqual(['a.md', 'b.md']);
    expect(s.box.read('keep.txt')).toBe('important\n');
    // the pause shows every operation of the patch
    expect(paused.interruptions.map((i) => (i.rawItem as { callId?: string }).callId)).toEqual(['m4']);
    const [request] = await s.store.listRequests();
    expect(JSON.parse(request!.args).operations).toEqual([
      { operation: 'create_file', path: 'c.md', diff: '+hi\n' },
      { operation: 'create_file', path: 'src/app.ts', diff: '+hi\n' },
    ]);
    // one receipt a decision, naming the rule of the part that decided (by call: the calls' stages interleave)
    const receipts = (await s.store.listReceipts()).map((r) => [r.call_id, r.result, r.reason]);
    expect(receipts.sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
      ['m1', 'denied', 'rule[0]'],
      ['m2', 'denied', 'rule[1]'],
      ['m3', 'allowed', 'rule[3]'],
      ['m3', 'executed', 'rule[3]'],
      ['m4', 'requested', 'rule[2]'],
    ]);
    await s.control.approve(paused.state, paused.interruptions[0]!, { approver: 'bob' });
    await sdkRun(agent, paused.state, opts);
    expect([s.box.read('c.md'), s.box.read('src/app.ts')]).toEqual(['hi', 'hi']);
    // the run went on: the model's next turn reads each refusal
    expect(outputSeen(model, 1, 'm1')).toContain('box.patch denied by policy (rule[0])');
    expect(outputSeen(model, 1, 'm2')).toContain('box.patch denied by policy (rule[1])');
  }, 60_000);
});

describe('a function-form patch of several operations filed by the control (red team #9)', () => {
  it('a pause whose request is not in this store is decided operation by operation when the control files it', async () => {
    const s = await setup(exactPatchPolicy());
    const add = (file: string) => `*** Add File: ${file}\n+hi\n`;
    const model = new ScriptedChatCompletionsModel([
      [functionCall('apply_patch', { patch: `*** Begin Patch\n${add('c.md')}${add('src/app.ts')}*** End Patch\n` }, { callId: 'm4' })],
      [assistantMessage('done')],
    ]);
    const agent = s.doors.protectSandboxAgent(new SandboxAgent<Ctx>({ name: 'box', instructions: 'x', model, capabilities: [filesystem()] }));
    const paused = await sdkRun(agent, 'go', { context: { user: 'alice' }, sandbox: { session: s.box.session } });
    const store = memoryStore();
    const other = createControl({ store, identity: (rc) => (rc.context as Ctx | undefined)?.user ?? null });
    bindSandbox(other, exactPatchPolicy());
    await other.approve(paused.state, paused.interruptions[0]!, { approver: 'bob' });
    expect((await store.listReceipts()).map((r) => [r.call_id, r.result, r.decision, r.reason])).toEqual([
      ['m4', 'requested', 'approve', 'rule[2]'],
      ['m4', 'approved', 'approve', '1 of 1 approvals'],
    ]);
  }, 60_000);
});

describe('capabilities of every kind, and the agent graph', () => {
  it("explicit capabilities with configureTools: a hand-written needsApproval is replaced by the policy's decision, an added tool is guarded too", async () => {
    const s = await setup();
    const deployed: string[] = [];
    const deploy = tool({ name: 'deploy', description: 'Deploy.', parameters: z.object({ env: z.string() }), execute: ({ env }) => void deployed.push(env) });
    const model = new ScriptedModel([
      [execCall('c1', 'touch asked.txt'), functionCall('deploy', { env: 'prod' }, { callId: 'd1' })],
      [assistantMessage('done')],
    ]);
    const agent = s.doors.protectSandboxAgent(
      new SandboxAgent<Ctx>({
        name: 'ops',
        instructions: 'x',
        model,
        capabilities: [
          // the app's own gate says no approval is needed; the policy sends this call to a person
          shell({ configureTools: (tools) => [...tools.map((t) => Object.assign(t, { needsApproval: async () => false })), deploy] }),
          filesystem(),
        ],
      }),
    );
    const paused = await sdkRun(agent, 'go', { context: { user: 'alice' }, sandbox: { session: s.box.session } });
    expect(paused.interruptions.map((i) => (i as { name?: string }).name)).toEqual(['exec_command']);
    expect(s.box.has('asked.txt')).toBe(false);
    expect(deployed).toEqual([]);
    expect((await s.store.listReceipts()).map((r) => [r.action, r.call_id, r.result])).toEqual([
      ['deny.all', 'd1', 'denied'],
      ['box.exec', 'c1', 'requested'],
    ]);
  }, 60_000);

  it('protectAgent guards a SandboxAgent it reaches through a handoff, in place; clones keep the guard; a plain agent is refused by protectSandboxAgent', async () => {
    const s = await setup();
    const policy = sandboxPolicy();
    const agents = bindAgentTools(s.control, policy);
    const model = new ScriptedModel([[execCall('c1', 'rm -rf x; touch gone.txt')], [assistantMessage('done')]]);
    const box = new SandboxAgent<Ctx>({ name: 'box', instructions: 'x', model });
    const desk = new Agent<Ctx>({ name: 'desk', instructions: 'y', handoffs: [box] });
    expect(agents.protectAgent(desk)).toBe(desk);
    expect(agents.protectAgent(desk)).toBe(desk); // again: nothing changes
    const clone = box.clone({ instructions: 'z' });
    await sdkRun(clone, 'go', { context: { user: 'alice' }, sandbox: { session: s.box.session } });
    expect(s.box.has('gone.txt')).toBe(false);
    expect((await s.store.listReceipts()).map((r) => [r.action, r.result])).toEqual([['box.exec', 'denied']]);
    expect(() => s.doors.protectSandboxAgent(new Agent({ name: 'plain' }))).toThrow(/pass a SandboxAgent/);
  }, 60_000);

  it('refused as a whole when run() of ctrlrun-gen/runtime meets an ApprovalMismatch: the error is itself', async () => {
    const s = await setup();
    const model = new ScriptedModel([[execCall('c2', 'echo ran >> asked.log')], [assistantMessage('done')]]);
    const agent = s.doors.protectSandboxAgent(new SandboxAgent<Ctx>({ name: 'box', instructions: 'x', model }));
    const opts = { context: { user: 'alice' }, sandbox: { session: s.box.session } };
    const paused = await sdkRun(agent, 'go', opts);
    // an approval only the SDK holds authorizes nothing
    paused.state.approve(paused.interruptions[0]!);
    await expect(run(agent, paused.state, opts)).rejects.toBeInstanceOf(ApprovalMismatch);
    expect(s.box.has('asked.log')).toBe(false);
  }, 60_000);
});

/** The SDK's shell behind an app's own Capability whose clone() makes a new one (red team #3). */
class AuditedShell extends Capability {
  readonly type = 'audited-shell';
  private inner = shell();
  override clone(): this {
    return new AuditedShell() as this;
  }
  override bind(session: Parameters<Capability['bind']>[0]): this {
    this.inner.bind(session);
    return super.bind(session);
  }
  override tools() {
    return this.inner.tools();
  }
}

/** An app's own SandboxAgent class (red team #1). */
class OpsAgent<C> extends SandboxAgent<C> {}

describe('capabilities the guard must still see (red team #1, #2, #3)', () => {
  /** Runs `agent` on one exec_command the policy denies; whether it left a trace, and the receipts. */
  async function denied(s: Awaited<ReturnType<typeof setup>>, agent: SandboxAgent<Ctx>, callId: string) {
    agent.model = new ScriptedModel([[execCall(callId, `rm -rf x; touch ${callId}.txt`)], [assistantMessage('done')]]);
    const result = await sdkRun(agent, 'go', { context: { user: 'alice' }, sandbox: { session: s.box.session } });
    expect(result.finalOutput).toBe('done');
    return s.box.has(`${callId}.txt`);
  }

  it('a shell pushed onto the capabilities after protectSandboxAgent, assigned, or given to clone({ capabilities }) is guarded', async () => {
    const s = await setup();
    const agent = s.doors.protectSandboxAgent(new SandboxAgent<Ctx>({ name: 'box', instructions: 'x', capabilities: [filesystem()] }));
    agent.capabilities.push(shell());
    expect(await denied(s, agent, 'pushed')).toBe(false);
    agent.capabilities = [shell()];
    expect(await denied(s, agent, 'assigned')).toBe(false);
    const operator = agent.clone({ name: 'operator', capabilities: [filesystem(), shell()] });
    expect(await denied(s, operator, 'cloned')).toBe(false);
    expect((await s.store.listReceipts()).map((r) => [r.action, r.call_id, r.result])).toEqual([
      ['box.exec', 'pushed', 'denied'],
      ['box.exec', 'assigned', 'denied'],
      ['box.exec', 'cloned', 'denied'],
    ]);
  }, 60_000);

  it("a custom Capability whose clone() makes a new instance stays guarded through the SDK's per-run clone", async () => {
    const s = await setup();
    const agent = s.doors.protectSandboxAgent(new SandboxAgent<Ctx>({ name: 'box', instructions: 'x', capabilities: [new AuditedShell()] }));
    expect(await denied(s, agent, 'custom')).toBe(false);
    expect((await s.store.listReceipts()).map((r) => [r.action, r.call_id, r.result])).toEqual([['box.exec', 'custom', 'denied']]);
  }, 60_000);

  it('refused rather than handed over: a clone() that makes no capability, a list that is no list, an agent with no clone()', async () => {
    const s = await setup();
    class Broken extends AuditedShell {
      override clone(): this {
        return {} as this;
      }
    }
    expect(() => s.doors.protectSandboxAgent(new SandboxAgent<Ctx>({ name: 'box', instructions: 'x', capabilities: [new Broken()] }))).toThrow(
      /capability that is not a sandbox Capability/,
    );
    const agent = s.doors.protectSandboxAgent(new SandboxAgent<Ctx>({ name: 'box', instructions: 'x', capabilities: [filesystem()] }));
    agent.capabilities = null as never;
    expect(() => agent.capabilities).toThrow(/capabilities are not a list/);
    expect(() => s.doors.protectSandboxAgent({ name: 'box', capabilities: [] } as never)).toThrow(/has no clone\(\)/);
  });

  it("an app's subclass of SandboxAgent is guarded by protectSandboxAgent and by protectAgent", async () => {
    const s = await setup();
    const agents = bindAgentTools(s.control, sandboxPolicy());
    const direct = s.doors.protectSandboxAgent(new OpsAgent<Ctx>({ name: 'box', instructions: 'x' }));
    expect(await denied(s, direct, 'direct')).toBe(false);
    const ops = new OpsAgent<Ctx>({ name: 'box', instructions: 'x' });
    expect(agents.protectAgent(ops)).toBe(ops);
    expect(await denied(s, ops, 'graph')).toBe(false);
    expect((await s.store.listReceipts()).map((r) => [r.call_id, r.result])).toEqual([
      ['direct', 'denied'],
      ['graph', 'denied'],
    ]);
  }, 60_000);
});
