import { RunState } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { ApprovalMismatch, checkIdentity, CtrlrunError, normaliseIdentity, run } from '../../src/runtime/index.js';
import { agentWith, assistantMessage, refundCall, refundTool, scripted, setup, toolOutputSeen, type Setup } from './helpers.js';

const BIG = { payment_id: 'pay_1', amount: 512_345 }; // approve band
const SMALL = { payment_id: 'pay_1', amount: 5_000 }; // allow band

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (e: unknown) => e,
  );
}

async function pausedAs(s: Setup, user: string) {
  const { tool, calls } = refundTool(s);
  const model = scripted([refundCall(BIG, 'c1')], [assistantMessage('done')]);
  const agent = agentWith(model, [tool]);
  const result = await run(agent, 'refund pay_1', { context: { user } });
  await s.control.request(result.state);
  return { agent, result, calls };
}

describe('identities: one normalisation (NFKC, case fold, invisible and bidi characters removed, trim)', () => {
  it('printable ASCII (the quick path) normalises exactly as the full pipeline does', () => {
    const full = (raw: string) =>
      raw
        .normalize('NFKC')
        .replace(/[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}]/gu, '')
        .toUpperCase()
        .toLowerCase()
        .normalize('NFKC')
        .replace(/[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}]/gu, '')
        .trim();
    const ascii = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).join('');
    const samples = [ascii, ` ${ascii} `, 'Alice', '  BOB  ', 'a.b+c@EXAMPLE.com', 'user:42', '', '   '];
    for (let i = 0; i < ascii.length; i++) samples.push(ascii[i]!, `x${ascii[i]}Y`);
    for (const raw of samples) expect(normaliseIdentity(raw)).toBe(full(raw));
    // just outside it the full pipeline still runs: fullwidth, a soft hyphen, a sharp s, a tab
    expect(normaliseIdentity('ＡＬＩＣＥ')).toBe('alice');
    expect(normaliseIdentity('al\u00adice')).toBe('alice');
    expect(normaliseIdentity('STRAẞE')).toBe(full('STRAẞE'));
    expect(normaliseIdentity('\talice\t')).toBe('alice');
  });

  it('normalises the spellings of one person to one form', () => {
    for (const alice of ['Alice', 'alice ', 'alice\u200b', '\uff21\uff2c\uff29\uff23\uff25', 'ALICE', '\u202aalice\u202c', '\u00a0al\u00adice\ufe0f']) {
      expect(normaliseIdentity(alice)).toBe('alice');
    }
    expect(normaliseIdentity('STRASSE')).toBe(normaliseIdentity('straße'));
    expect(normaliseIdentity('bob@Example.COM')).toBe('bob@example.com');
    expect(normaliseIdentity('alice')).not.toBe(normaliseIdentity('alicf'));
  });

  it('refuses blank identities and ones with control characters', () => {
    expect(checkIdentity('   ')).toEqual({ ok: false, problem: 'blank' });
    expect(checkIdentity('\u200b\u2066')).toEqual({ ok: false, problem: 'blank' });
    expect(checkIdentity('alice\nsecurity-team')).toEqual({ ok: false, problem: 'control_character' });
    expect(checkIdentity('alice\u001b[2J')).toEqual({ ok: false, problem: 'control_character' });
    expect(checkIdentity('alice\u2028')).toEqual({ ok: false, problem: 'control_character' });
    expect(checkIdentity(42)).toEqual({ ok: false, problem: 'not_a_string' });
    expect(checkIdentity(' Bob ')).toEqual({ ok: true, value: 'bob' });
  });

  it.each(['Alice', 'alice ', 'alice\u200b', '\uff21\uff2c\uff29\uff23\uff25', 'ALICE'])(
    'the requester alice cannot approve their own call as %j (through the Runner)',
    async (spelling) => {
      const s = setup();
      const { agent, result, calls } = await pausedAs(s, 'alice');
      const restored = await RunState.fromString(agent, result.state.toString());
      const error = await caught(s.control.approve(restored, restored.getInterruptions()[0]!, { approver: spelling }));
      expect(error).toBeInstanceOf(ApprovalMismatch);
      expect((error as ApprovalMismatch).reason).toBe('approver_is_requester');
      expect((await s.store.getRequest('c1'))?.state).toBe('pending');
      await run(agent, restored).catch(() => undefined);
      expect(calls).toEqual([]);
    },
  );

  it('approvals_required 2: bob and BOB are one approver; the call runs only after a second person', async () => {
    const s = setup({ approvalsRequired: 2 });
    const { agent, result, calls } = await pausedAs(s, 'alice');
    const state = await RunState.fromString(agent, result.state.toString());
    const item = state.getInterruptions()[0]!;
    expect((await s.control.approve(state, item, { approver: 'bob' })).state).toBe('pending');
    expect((await s.control.approve(state, item, { approver: 'BOB' })).state).toBe('pending');
    expect((await s.control.approve(state, item, { approver: ' b\u200bob' })).state).toBe('pending');
    expect((await s.store.getRequest('c1'))?.answers.map((a) => a.approver)).toEqual(['bob']);
    expect((await s.control.approve(state, item, { approver: 'Carol' })).state).toBe('approved');
    await run(agent, state);
    expect(calls).toEqual([BIG]);
    expect((await s.store.listReceipts()).at(-1)).toMatchObject({ result: 'executed', approvers: ['bob', 'carol'], principal: 'alice' });
  });

  it('a principal is stored in its normal form, and an approver given with control characters is refused', async () => {
    const s = setup();
    const { agent, result } = await pausedAs(s, ' ALICE\u200b');
    expect((await s.store.getRequest('c1'))?.principal).toBe('alice');
    const state = await RunState.fromString(agent, result.state.toString());
    const error = await caught(s.control.approve(state, state.getInterruptions()[0]!, { approver: 'bob\napproved by security-team' }));
    expect(error).toBeInstanceOf(CtrlrunError);
    expect((error as Error).message).toContain('control character');
    expect((await s.store.getRequest('c1'))?.answers).toEqual([]);
  });

  it('identity returning whitespace only is no principal: refused as no_principal, nothing runs', async () => {
    const s = setup();
    const { tool: t, calls } = refundTool(s);
    const model = scripted([refundCall(SMALL, 'c1')], [assistantMessage('cannot')]);
    const result = await run(agentWith(model, [t]), 'refund', { context: { user: '   ' } });
    expect(result.finalOutput).toBe('cannot');
    expect(calls).toEqual([]);
    expect(toolOutputSeen(model, 1, 'c1')).toContain('no principal');
    expect((await s.store.listReceipts()).map((r) => [r.result, r.reason, r.principal])).toEqual([['refused', 'no_principal', null]]);
  });

  it('identity returning a principal with a control character: nothing runs, a CtrlrunError says why', async () => {
    const s = setup();
    const { tool: t, calls } = refundTool(s);
    const model = scripted([refundCall(SMALL, 'c1')], [assistantMessage('done')]);
    const error = await caught(run(agentWith(model, [t]), 'refund', { context: { user: 'alice\u001b[2J' } }));
    expect(error).toBeInstanceOf(CtrlrunError);
    expect((error as Error).message).toContain('control character');
    expect(calls).toEqual([]);
  });
});
