import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Agent, run as sdkRun, RunState, type Computer } from '@openai/agents';
import { ScriptedModel, assistantMessage } from '@openai/agents/testing';
import { describe, expect, it } from 'vitest';
import { bindLocalTools, run, verifyReceipts } from '../../src/runtime/index.js';
import { jsonLines, runChildJson } from '../helpers/child-process.js';
import { doorWorkspaces } from '../helpers/door-workspaces.js';
import { REPO_ROOT } from '../helpers/paths.js';
// @ts-expect-error a plain ESM module (the child process imports it too)
import { computerCall, computerPolicy, recordingComputer } from '../helpers/computer-door.mjs';

const CHILD = path.join(REPO_ROOT, 'test/runtime/children/computer-resume.mjs');

interface Ctx {
  user?: string;
}

const ws = doorWorkspaces('ctrlrun-computer-', { root: 'screen', log: 'actions' });
const fresh = () => ws.fresh();

/** What the computer did, as it logged it. */
function acted(file: string): Array<{ type: string; text?: string; x?: number; pid: number }> {
  return jsonLines(file);
}
const typesOf = (file: string) => acted(file).map((a) => a.type);

function processOn(db: string) {
  return ws.processOn(db, (control) => bindLocalTools(control, computerPolicy()));
}

function deskAgent(p: ReturnType<typeof processOn>, f: ReturnType<typeof fresh>, model: ScriptedModel) {
  return new Agent<Ctx>({ name: 'desk', model, tools: [p.doors.protectComputerTool('host.computer', { computer: recordingComputer(f.root, f.log) })] });
}

/** Everything the model was sent on its `index`-th call. */
const seen = (model: ScriptedModel, index: number) => JSON.stringify(model.calls[index]?.request.input ?? null);
/** The screenshot the model was sent back for a call. */
function screenshotSent(model: ScriptedModel, index: number, callId: string): string | undefined {
  const input = model.calls[index]?.request.input;
  const item = Array.isArray(input)
    ? input.find((i) => (i as { type?: string; callId?: string }).type === 'computer_call_result' && (i as { callId?: string }).callId === callId)
    : undefined;
  return (item as { output?: { data?: string } } | undefined)?.output?.data;
}

function resumeInChild(config: { db: string; log: string; root: string; state: string; answer?: string; resolve?: boolean }): Promise<Record<string, unknown>> {
  return runChildJson(CHILD, config);
}

describe('protectComputerTool: a real computer (actions logged, text typed to a file, PNG screenshots), through the Runner', () => {
  it('allow runs the batch once; the model gets the screenshot; receipts verify', async () => {
    const f = fresh();
    const p = processOn(f.db);
    const model = new ScriptedModel([
      [computerCall('c1', [{ type: 'move', x: 5, y: 6 }, { type: 'click', x: 10, y: 20, button: 'left' }, { type: 'screenshot' }])],
      [assistantMessage('done')],
    ]);
    const result = await run(deskAgent(p, f, model), 'look', { context: { user: 'alice' } });
    expect(result.finalOutput).toBe('done');
    expect(acted(f.log).map((a) => [a.type, a.x ?? null])).toEqual([
      ['move', 5],
      ['click', 10],
      ['screenshot', null],
    ]);
    expect(screenshotSent(model, 1, 'c1')).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    const receipts = await p.store.listReceipts();
    expect(receipts.map((r) => [r.action, r.call_id, r.result, r.reason])).toEqual([
      ['host.computer', 'c1', 'allowed', 'rule[0]'],
      ['host.computer', 'c1', 'executed', 'rule[0]'],
    ]);
    expect(await verifyReceipts(p.store)).toEqual({ ok: true, count: 2 });
  });

  it('deny: no action of the batch runs (not even the click before the typing) and the model is told why; the run goes on', async () => {
    const f = fresh();
    const p = processOn(f.db);
    const model = new ScriptedModel([
      [
        computerCall('c2', [
          { type: 'click', x: 1, y: 2, button: 'left' },
          { type: 'type', text: 'DROP TABLE users' },
        ]),
      ],
      [assistantMessage('I was not allowed to do that.')],
    ]);
    const result = await run(deskAgent(p, f, model), 'clean up', { context: { user: 'alice' } });
    expect(result.finalOutput).toBe('I was not allowed to do that.');
    expect(acted(f.log)).toEqual([]);
    expect(existsSync(path.join(f.root, 'screen.txt'))).toBe(false);
    const told = seen(model, 1);
    expect(told).toContain('host.computer denied by policy (rule[1])');
    expect(told).toContain('must not be retried');
    expect((await p.store.listReceipts()).map((r) => [r.result, r.reason])).toEqual([['denied', 'rule[1]']]);
    expect(await p.store.getRequest('c2')).toBeNull();
  });

  it("with the SDK's own run(): a refused call pauses; control.request asks no one, rejects it with the reason, and the resumed run tells the model", async () => {
    const f = fresh();
    const p = processOn(f.db);
    const agent = deskAgent(p, f, new ScriptedModel([[computerCall('c3', [{ type: 'type', text: 'DROP DATABASE' }])], [assistantMessage('refused, ok')]]));
    const paused = await sdkRun(agent, 'go', { context: { user: 'alice' } });
    expect(paused.interruptions.map((i) => i.rawItem.type)).toEqual(['computer_call']);
    expect(await p.control.request(paused.state)).toEqual([]);
    const resumed = await sdkRun(agent, paused.state);
    expect(resumed.finalOutput).toBe('refused, ok');
    expect(acted(f.log)).toEqual([]);
    expect(await p.store.getRequest('c3')).toBeNull();
  });

  it('no principal: refused, nothing runs', async () => {
    const f = fresh();
    const p = processOn(f.db);
    const model = new ScriptedModel([[computerCall('c4', [{ type: 'click', x: 1, y: 1, button: 'left' }])], [assistantMessage('done')]]);
    await run(deskAgent(p, f, model), 'go', { context: {} });
    expect(acted(f.log)).toEqual([]);
    expect(seen(model, 1)).toContain('host.computer refused: identity(runContext) returned no principal');
    expect((await p.store.listReceipts()).map((r) => [r.result, r.reason])).toEqual([['refused', 'no_principal']]);
  });

  it('approve pauses; a second person approves; a real child process resumes and runs the batch once; a second resume runs nothing', async () => {
    const f = fresh();
    const p1 = processOn(f.db);
    const actions = [
      { type: 'click', x: 40, y: 12, button: 'left' },
      { type: 'type', text: 'hello' },
      { type: 'keypress', keys: ['CTRL', 'S'] },
    ];
    const paused = await run(deskAgent(p1, f, new ScriptedModel([[computerCall('c9', actions)]])), 'write it', { context: { user: 'alice' } });
    expect(paused.interruptions.map((i) => i.rawItem.type)).toEqual(['computer_call']);
    expect(acted(f.log)).toEqual([]);
    // filed as it paused (issue 21 item 5), under the tool's name; request() returns that one request
    const filed = await p1.store.listRequests();
    expect(filed.map((r) => [r.callId, r.toolName, r.principal])).toEqual([['c9', 'computer_use_preview', 'alice']]);
    const requests = await p1.control.request(paused.state);
    expect(requests).toEqual(filed);
    expect(requests.map((r) => [r.callId, r.action, r.principal, r.state])).toEqual([['c9', 'host.computer', 'alice', 'pending']]);
    // the whole batch is one request: what a person reads and approves
    expect(JSON.parse(requests[0]!.args)).toEqual({ action: 'click\ntype\nkeypress', actions, text: 'hello', keys: 'CTRL+S' });
    await expect(p1.control.approve(paused.state, paused.interruptions[0]!, { approver: 'alice' })).rejects.toMatchObject({ reason: 'approver_is_requester' });
    await p1.control.approve(paused.state, paused.interruptions[0]!, { approver: 'bob' });
    const statePath = path.join(ws.dir(), `computer-state-${f.n}.json`);
    writeFileSync(statePath, paused.state.toString());

    const child = await resumeInChild({ db: f.db, log: f.log, root: f.root, state: statePath, answer: 'saved' });
    expect(child).toMatchObject({ output: 'saved', pending: 0, code: 0 });
    const ran = acted(f.log);
    expect(ran.map((a) => a.type)).toEqual(['click', 'type', 'keypress', 'screenshot']);
    expect(new Set(ran.map((a) => a.pid))).toEqual(new Set([child.pid]));
    expect(child.pid).not.toBe(process.pid);
    expect(readFileSync(path.join(f.root, 'screen.txt'), 'utf8')).toBe('hello');
    expect(String(child.seen)).toContain('data:image/png;base64,iVBORw0KGgo');

    // the same saved state again, in another child: the answer says it was used, so the SDK rejects it
    const again = await resumeInChild({ db: f.db, log: f.log, root: f.root, state: statePath, answer: 'again' });
    expect(again).toMatchObject({ output: 'again', code: 0 });
    expect(String(again.seen)).toContain('its approval was already used');
    // and once more without applying the answers: the claim refuses it and the run stops
    const forced = await resumeInChild({ db: f.db, log: f.log, root: f.root, state: statePath, resolve: false });
    expect(forced).toMatchObject({ error: 'ApprovalMismatch', reason: 'consumed' });
    expect(typesOf(f.log)).toEqual(['click', 'type', 'keypress', 'screenshot']);
    expect(readFileSync(path.join(f.root, 'screen.txt'), 'utf8')).toBe('hello');

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

  it('an approval held only by the SDK state (state.approve) runs nothing', async () => {
    const f = fresh();
    const p = processOn(f.db);
    const paused = await run(deskAgent(p, f, new ScriptedModel([[computerCall('c5', [{ type: 'type', text: 'rm -rf /' }])]])), 'go', {
      context: { user: 'alice' },
    });
    paused.state.approve(paused.interruptions[0]!);
    const m2 = new ScriptedModel([[assistantMessage('done')]]);
    const agent2 = deskAgent(p, f, m2);
    const state = await RunState.fromString(agent2, paused.state.toString());
    const result = await run(agent2, state);
    expect(result.finalOutput).toBe('done');
    expect(acted(f.log)).toEqual([]);
    expect(screenshotSent(m2, 0, 'c5')).toBe('');
    // the pause filed its request (issue 21 item 5); the SDK's own yes still authorizes nothing
    expect((await p.store.listReceipts()).map((r) => [r.result, r.reason])).toEqual([
      ['requested', 'rule[2]'],
      ['refused', 'approval_unrecorded'],
    ]);
  });

  it('a rejected call never runs and the model reads who rejected it', async () => {
    const f = fresh();
    const p = processOn(f.db);
    const paused = await run(
      deskAgent(
        p,
        f,
        new ScriptedModel([
          [
            computerCall('c6', [
              {
                type: 'drag',
                path: [
                  { x: 1, y: 1 },
                  { x: 9, y: 9 },
                ],
              },
            ]),
          ],
        ]),
      ),
      'go',
      {
        context: { user: 'alice' },
      },
    );
    await p.control.reject(paused.state, paused.interruptions[0]!, { approver: 'bob', message: 'not that window' });
    const m2 = new ScriptedModel([[assistantMessage('ok')]]);
    const agent2 = deskAgent(p, f, m2);
    const state = await RunState.fromString(agent2, paused.state.toString());
    await p.control.resolve(state);
    await run(agent2, state);
    expect(acted(f.log)).toEqual([]);
    expect(seen(m2, 0)).toContain('rejected by bob: not that window');
  });

  it('a computer made per run by an initializer ({ create, dispose }) is guarded the same; dispose gets the computer it created', async () => {
    const f = fresh();
    const p = processOn(f.db);
    const disposed: unknown[] = [];
    const made: unknown[] = [];
    let closed = 0;
    // your computer's own type reaches dispose (a type error here if the options were not generic)
    const make = (): Computer & { close(): void } => Object.assign(recordingComputer(f.root, f.log) as Computer, { close: () => void closed++ });
    const tool = p.doors.protectComputerTool('host.computer', {
      computer: {
        create: async () => {
          const c = make();
          made.push(c);
          return c;
        },
        dispose: async ({ computer }) => {
          computer.close();
          disposed.push(computer);
        },
      },
    });
    const model = new ScriptedModel([
      [computerCall('c7', [{ type: 'click', x: 3, y: 4, button: 'left' }]), computerCall('c8', [{ type: 'type', text: 'DROP x' }])],
      [assistantMessage('done')],
    ]);
    await run(new Agent<Ctx>({ name: 'desk', model, tools: [tool] }), 'go', { context: { user: 'alice' } });
    expect(typesOf(f.log)).toEqual(['click', 'screenshot']);
    expect(seen(model, 1)).toContain('host.computer denied by policy (rule[1])');
    expect(made).toHaveLength(1);
    expect(disposed).toEqual(made);
    expect(closed).toBe(1);
  });

  it('refuses needsApproval, onApproval and something that is not a computer at creation', () => {
    const f = fresh();
    const p = processOn(f.db);
    const computer = recordingComputer(f.root, f.log);
    expect(() => p.doors.protectComputerTool('host.computer', { computer, needsApproval: true } as never)).toThrow(/remove `needsApproval`/);
    expect(() => p.doors.protectComputerTool('host.computer', { computer, onApproval: async () => ({ approve: true }) } as never)).toThrow(
      /remove `onApproval`/,
    );
    expect(() => p.doors.protectComputerTool('host.computer', { computer: { click() {} } } as never)).toThrow(/must be a Computer/);
  });
});
