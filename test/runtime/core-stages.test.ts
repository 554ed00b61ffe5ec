// Each stage of the core (src/runtime/core/) on its own: pure functions with plain inputs, and the
// store-bound stages over a fake in-memory store. The doors' end-to-end tests drive the whole path.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseArguments } from '../../src/runtime/arguments.js';
import { decideCall } from '../../src/runtime/decide.js';
import { memoryStore } from '../../src/runtime/index.js';
import { approvalVerdict, bindingOf, claimFromStore, vetFromStore } from '../../src/runtime/core/approval.js';
import { argumentsStage, inputIsTheCalls, inputProblem } from '../../src/runtime/core/arguments.js';
import { stillRunningHolds } from '../../src/runtime/core/body.js';
import { decideOn, decisionRefusal, guardrailRefusal } from '../../src/runtime/core/decision.js';
import { receiptOf } from '../../src/runtime/core/receipt.js';
import { reservationInput, reservationRefusal } from '../../src/runtime/core/reservation.js';
import { observedSettlement, settlementOf } from '../../src/runtime/core/settlement.js';
import { ReportedOutcome, type CallFacts } from '../../src/runtime/core/types.js';
import { upstreamProblem } from '../../src/runtime/core/upstream.js';
import { type ActionDenied, AmbiguousEffect, DuplicateEffect, NotExecuted } from '../../src/runtime/errors.js';
import { isBodyFailure } from '../../src/runtime/core/body-failures.js';
import { ESTABLISHED_NOT_EXECUTED } from '../../src/runtime/core/not-executed.js';
import type { ApprovalRequest, CompiledAction, CompiledAuthority } from '../../src/runtime/types.js';

const allowAll: CompiledAction = {
  id: 'a',
  decide: () => ({ decision: 'allow', rule: 0, reason: 'rule[0]' }),
  controls: [],
  approvalsRequired: 1,
  maxAttempts: 1,
};
const facts = (over: Partial<CallFacts> = {}): CallFacts => ({
  callId: 'c1',
  argsHash: 'h'.repeat(64),
  principal: 'alice',
  decision: { decision: 'approve', rule: 1, reason: 'rule[1]', effectKey: null, resource: null },
  ...over,
});

describe('stage 1, the arguments', () => {
  it('a JSON-schema `parameters` refuses "5000000" for an integer; zod drops the nulls strict mode sends', () => {
    const json = argumentsStage({ type: 'object', properties: { amount: { type: 'integer' } }, required: ['amount'] } as never, 'a');
    expect(json.policyArgs('{"amount":"5000000"}')).toEqual({ ok: false, problem: expect.stringContaining('amount') });
    expect(json.policyArgs('{"amount":5}')).toEqual({ ok: true, value: { amount: 5 } });
    expect(inputProblem(json, '{"amount":"5"}', { amount: '5' })).toEqual(expect.stringContaining('amount'));
    const zod = argumentsStage(z.object({ id: z.string(), note: z.string().optional() }) as never, 'a');
    expect(zod.policyArgs('{"id":"x","note":null}')).toEqual({ ok: true, value: { id: 'x' } });
    // a zod refusal says why, worded as a JSON schema's: its first issue's path and message
    expect(zod.policyArgs('{"id":5}')).toEqual({ ok: false, problem: expect.stringMatching(/^\/id: .*expected string/i) });
    expect(zod.policyArgs('{"id":')).toEqual({ ok: false }); // not JSON: no schema problem to tell
  });

  it('the input to run must be what the raw arguments give', () => {
    const stage = argumentsStage(undefined, 'a');
    expect(inputIsTheCalls(stage.policyArgs('{"amount":5}'), { amount: 5 })).toBe(true);
    expect(inputIsTheCalls(stage.policyArgs('{"amount":5}'), { amount: 6 })).toBe(false);
    expect(inputIsTheCalls(stage.policyArgs('not json'), { amount: 5 })).toBe(false);
    // a member more or fewer on either side is another call; an undefined member is no member (JSON has none)
    expect(inputIsTheCalls(stage.policyArgs('{"amount":5}'), { amount: 5, to: 'x' })).toBe(false);
    expect(inputIsTheCalls(stage.policyArgs('{"amount":5,"to":"x"}'), { amount: 5 })).toBe(false);
    expect(inputIsTheCalls(stage.policyArgs('{"amount":5,"to":{"a":[1]}}'), { to: { a: [1] }, amount: 5, note: undefined })).toBe(true);
    expect(inputIsTheCalls(stage.policyArgs('{"amount":5,"to":{"a":[1]}}'), { to: { a: [1], b: 2 }, amount: 5 })).toBe(false);
    expect(inputIsTheCalls({ ok: true, value: { amount: 5, note: undefined } }, { amount: 5 })).toBe(true);
  });
});

describe('stages 2 and 3, the decision and the authority', () => {
  const scope = (compiled: CompiledAction, authority?: CompiledAuthority) => ({ action: 'a', compiled, policy: { authority }, environment: 'production' });

  it('a compiled decision function that throws is a denial, never an allow', () => {
    const throwing: CompiledAction = {
      ...allowAll,
      decide: () => {
        throw new Error('boom');
      },
    };
    expect(decideCall(throwing, { x: 1 })).toMatchObject({ decision: 'deny', reason: 'no_matching_rule' });
    expect(decideOn(scope(throwing), () => 0, '{"x":1}', undefined).decision).toMatchObject({ decision: 'deny' });
  });

  it('arguments that do not parse losslessly are invalid_argument before the rules', () => {
    expect(decideOn(scope(allowAll), () => 0, '{"x":1.5}', undefined).decision).toMatchObject({ decision: 'deny', reason: 'invalid_argument' });
    expect(decideOn(scope(allowAll), () => 0, '{"x":1}', undefined, null, null, parseArguments('{"x":1}'))).toMatchObject({
      decision: { decision: 'allow' },
      args: { x: 1 },
    });
  });

  it('a principal no grant covers is denied by authority (no_authority)', () => {
    const authority = { grants: [] } as unknown as CompiledAuthority;
    const who = { principal: 'alice', subject: { agent: 'alice', user: null } };
    expect(decideOn(scope(allowAll, authority), () => 0, '{"x":1}', undefined, who).decision).toMatchObject({ decision: 'deny', reason: 'no_authority' });
  });

  it('reads the clock only where grants are evaluated (a policy without them never asks the time)', () => {
    const who = { principal: 'alice', subject: { agent: 'alice', user: null } };
    let read = 0;
    const clock = () => ++read;
    expect(decideOn(scope(allowAll), clock, '{"x":1}', undefined, who).decision).toMatchObject({ decision: 'allow' });
    expect(read).toBe(0);
    const authority = { grants: [] } as unknown as CompiledAuthority;
    expect(decideOn(scope(allowAll, authority), clock, '{"x":1}', undefined, who).decision).toMatchObject({ reason: 'no_authority' });
    expect(read).toBe(1);
  });

  it('the refusals a decision implies: no principal, a denial, a refusal before the rules; none for allow', () => {
    expect(decisionRefusal('a', facts({ principal: null }))).toMatchObject({ code: 'no_principal', receipt: { result: 'refused', reason: 'no_principal' } });
    const denied = decisionRefusal('a', facts({ decision: { decision: 'deny', rule: 2, reason: 'rule[2]', effectKey: null, resource: null } }));
    expect(denied).toMatchObject({ code: 'rule[2]', receipt: { result: 'denied' }, message: expect.stringContaining('denied by policy') });
    const before = decisionRefusal(
      'a',
      facts({ decision: { decision: 'deny', rule: null, reason: 'invalid_argument', effectKey: null, resource: null, detail: 'x' } }),
    );
    expect(before).toMatchObject({ receipt: { result: 'refused' } });
    expect(decisionRefusal('a', facts({ decision: { decision: 'allow', rule: 0, reason: 'rule[0]', effectKey: null, resource: null } }))).toBeNull();
    expect(guardrailRefusal(facts({ principal: null }))).toMatchObject({ code: 'no_principal' });
    expect(guardrailRefusal(facts({ decision: { decision: 'deny', rule: null, reason: 'no_authority', effectKey: null, resource: null } }))?.why).toContain(
      'refused by authority',
    );
  });
});

describe('stage 4, the upstream', () => {
  it('a TLS-pinned action through a door that cannot observe the connection is upstream_unverified; a door check decides otherwise', async () => {
    const pinned = { ...allowAll, upstream: { tlsCertSha256: ['sha256:ab'] } };
    const call = { callId: 'c', arguments: '{}' };
    expect(await upstreamProblem(pinned, undefined, call)).toMatchObject({ reason: 'upstream_unverified' });
    expect(await upstreamProblem(allowAll, undefined, call)).toBeNull();
    expect(await upstreamProblem(pinned, async () => null, call)).toBeNull();
    expect(await upstreamProblem(allowAll, async () => ({ reason: 'upstream_mismatch', text: 't' }), call)).toMatchObject({ reason: 'upstream_mismatch' });
  });
});

describe('stage 5, the approval claim (a verdict on what the store answered)', () => {
  const request = (over: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
    callId: 'c1',
    action: 'a',
    toolName: 'a',
    argsHash: 'h'.repeat(64),
    args: '{}',
    policyHash: 'p',
    principal: 'alice',
    approvalsRequired: 1,
    state: 'approved',
    answers: [{ approver: 'bob', decision: 'approve', at: 10 }],
    createdAt: 0,
    decidedAt: 10,
    ...over,
  });
  const binding = bindingOf('a', 'p', facts());
  const rules = { now: 20, ttlMs: 1000, approvalsRequired: 1 };
  const verdict = (r: ApprovalRequest, f = facts(), rl = rules) => approvalVerdict(f, { outcome: 'claimed', request: r }, binding, rl);

  it('a claim of exactly this call, unexpired, from someone else, is usable', () => {
    expect(verdict(request())).toEqual({ ok: true, approvers: ['bob'] });
  });

  it("refuses whatever the store said: another call's request, another binding, expired, the requester, too few approvers", () => {
    expect(verdict(request({ callId: 'c2' }))).toMatchObject({ ok: false, reason: 'mismatch' });
    expect(verdict(request({ argsHash: 'x'.repeat(64) }))).toMatchObject({ ok: false, reason: 'mismatch' });
    expect(verdict(request({ principal: 'mallory' }))).toMatchObject({ ok: false, reason: 'mismatch' });
    expect(verdict(request({ decidedAt: undefined }))).toMatchObject({ ok: false, reason: 'expired' });
    expect(verdict(request(), facts(), { ...rules, now: 10 + 1001 })).toMatchObject({ ok: false, reason: 'expired' });
    expect(verdict(request({ answers: [{ approver: 'ALICE', decision: 'approve', at: 10 }] }))).toMatchObject({ ok: false, reason: 'approver_is_requester' });
    expect(verdict(request(), facts(), { ...rules, approvalsRequired: 2 })).toMatchObject({
      ok: false,
      reason: 'mismatch',
      text: expect.stringContaining('2 distinct'),
    });
    expect(
      verdict(
        request({
          approvalsRequired: 2,
          answers: [
            { approver: 'bob', decision: 'approve', at: 1 },
            { approver: 'BOB', decision: 'approve', at: 2 },
          ],
        }),
      ),
    ).toMatchObject({ ok: false, reason: 'mismatch' });
    expect(verdict(request(), facts({ callId: null }))).toMatchObject({ ok: false, reason: 'unknown' });
  });

  it('the store outcomes other than claimed authorize nothing', () => {
    expect(approvalVerdict(facts(), { outcome: 'unknown' }, binding, rules)).toMatchObject({ ok: false, reason: 'unknown' });
    expect(approvalVerdict(facts(), { outcome: 'not_approved', request: request({ state: 'pending' }) }, binding, rules)).toMatchObject({
      ok: false,
      reason: 'unknown',
    });
    expect(approvalVerdict(facts(), { outcome: 'consumed', request: request({ state: 'consumed' }) }, binding, rules)).toMatchObject({
      ok: false,
      reason: 'consumed',
      approvers: ['bob'],
    });
    expect(approvalVerdict(facts(), { outcome: 'mismatch', request: request() }, binding, rules)).toMatchObject({ ok: false, reason: 'mismatch' });
  });

  it('over a store: the claim uses the approval up once; the vet reads it and leaves it approved', async () => {
    const store = memoryStore();
    await store.putRequest({
      callId: 'c1',
      action: 'a',
      toolName: 'a',
      argsHash: 'h'.repeat(64),
      args: '{}',
      policyHash: 'p',
      principal: 'alice',
      approvalsRequired: 1,
      createdAt: 0,
    });
    await store.addAnswer('c1', { approver: 'bob', decision: 'approve', at: 10 });
    expect((await vetFromStore(store, facts(), binding)).outcome).toBe('claimed');
    expect((await store.getRequest('c1'))?.state).toBe('approved');
    expect((await claimFromStore(store, facts(), 20, binding)).outcome).toBe('claimed');
    expect((await claimFromStore(store, facts(), 21, binding)).outcome).toBe('consumed');
    expect(await claimFromStore(store, facts({ callId: null }), 21, binding)).toEqual({ outcome: 'unknown' });
  });
});

describe('stage 6, the effect reservation', () => {
  it("the store's input: no max_attempts is no ceiling; charges and the claim only when there are some", () => {
    const base = { key: 'k', action: 'a', maxAttempts: null, now: 1, leaseMs: 5, charges: [] };
    expect(reservationInput(base, 'att')).toEqual({ key: 'k', action: 'a', attemptId: 'att', maxAttempts: Number.MAX_SAFE_INTEGER, now: 1, leaseMs: 5 });
    const claim = { callId: 'c1', binding: bindingOf('a', 'p', facts()) };
    expect(reservationInput({ ...base, maxAttempts: 2, claim }, 'att')).toMatchObject({ maxAttempts: 2, claim });
  });

  it('each refused outcome: its receipt and its error', () => {
    const where = { action: 'a', callId: 'c1' };
    const effect = { key: 'k', action: 'a', state: 'committed' as const, attempts: 2, attemptId: 'x', leaseUntil: 0, updatedAt: 0 };
    const dup = reservationRefusal('a', 'k', { outcome: 'duplicate', effect }, ['bob'], where);
    expect(dup.receipt).toEqual({ result: 'duplicate', reason: 'effect_committed', approvers: ['bob'], effect_key: 'k' });
    expect(dup.error).toBeInstanceOf(DuplicateEffect);
    const amb = reservationRefusal('a', 'k', { outcome: 'ambiguous', effect: { ...effect, state: 'in_flight' } }, [], where);
    expect(amb.receipt.reason).toBe('effect_in_flight');
    expect(amb.error).toBeInstanceOf(AmbiguousEffect);
    const ex = reservationRefusal('a', 'k', { outcome: 'exhausted', effect: { ...effect, state: 'failed' } }, [], where);
    expect([ex.receipt.reason, (ex.error as ActionDenied).reason]).toEqual(['max_attempts', 'max_attempts']);
    const charge = { grantId: 'g', metric: 'amount', amount: '5', limit: '10', windowMs: 86_400_000 };
    const budget = reservationRefusal('a', 'k', { outcome: 'budget_exhausted', charge }, [], where);
    expect(budget.error.message).toContain('over 1 day(s) is spent');
    expect(budget.error.message).not.toContain('10');
  });
});

describe('stage 7, the body: holds after the SDK gave up', () => {
  it('holds the arguments from the abort until the body settles, and only then', async () => {
    const holds = stillRunningHolds();
    const signal = new AbortController();
    let finish!: () => void;
    const running = holds.run('h', signal.signal, () => new Promise<void>((r) => (finish = r)));
    expect(holds.holds('h')).toBe(false);
    signal.abort();
    expect(holds.holds('h')).toBe(true);
    expect(holds.holds('other')).toBe(false);
    finish();
    await running;
    expect(holds.holds('h')).toBe(false);
    expect(await holds.run('h', undefined, async () => 7)).toBe(7);
  });
});

describe('stage 8, the settlement (a plan)', () => {
  const scope = { action: 'a', callId: 'c1', key: 'k', approvers: ['bob'], hasUserErrorFunction: false };

  it('success commits; NotExecuted fails the key and is established; a throw is ambiguous', () => {
    expect(settlementOf(scope, { ok: true, output: 'x' })).toEqual({
      effect: 'committed',
      receipt: { result: 'executed', approvers: ['bob'], effect_key: 'k' },
      answer: { return: 'x' },
    });
    const ne = settlementOf(scope, { ok: false, error: new NotExecuted('declined') });
    expect([ne.effect, ne.receipt.result]).toEqual(['failed', 'not_executed']);
    expect(((ne.answer as { throw: object }).throw as Record<symbol, unknown>)[ESTABLISHED_NOT_EXECUTED]).toBe(true);
    const thrown = settlementOf(scope, { ok: false, error: new Error('boom') });
    expect([thrown.effect, thrown.receipt.result]).toEqual(['ambiguous', 'ambiguous']);
    expect((thrown.answer as { throw: unknown }).throw).toBeInstanceOf(AmbiguousEffect);
  });

  it("without a key a throw is failed and the body's own error; with the user's errorFunction too", () => {
    const noKey = settlementOf({ ...scope, key: null }, { ok: false, error: new Error('boom') });
    expect(noKey.receipt.result).toBe('failed');
    expect(isBodyFailure((noKey.answer as { throw: unknown }).throw)).toBe(true);
    const user = settlementOf({ ...scope, hasUserErrorFunction: true }, { ok: false, error: new Error('boom') });
    expect(isBodyFailure((user.answer as { throw: unknown }).throw)).toBe(true);
  });

  it('a reported outcome is recorded as it says, its output returned', () => {
    const ne = settlementOf(scope, { ok: true, output: new ReportedOutcome('not_executed', 'why', 'out') });
    expect([ne.effect, ne.receipt.result, ne.answer]).toEqual(['failed', 'not_executed', { return: 'out' }]);
    const amb = settlementOf(scope, { ok: true, output: new ReportedOutcome('ambiguous', 'why', 'out') });
    expect([amb.effect, amb.receipt.result]).toEqual(['ambiguous', 'ambiguous']);
    expect(settlementOf({ ...scope, key: null }, { ok: true, output: new ReportedOutcome('ambiguous', 'why', 'out') }).receipt.result).toBe('failed');
  });

  it('observe mode records what happened with the decision enforce would have taken', () => {
    expect(observedSettlement('rule[2]', null, { ok: true, output: 'x' })).toEqual({
      receipt: { result: 'executed', reason: 'rule[2]', effect_key: null },
      answer: { return: 'x' },
    });
    expect(observedSettlement('r', null, { ok: false, error: new NotExecuted('n') }).receipt.result).toBe('not_executed');
  });
});

describe('stage 9, the receipt', () => {
  const stamped = (f: CallFacts, fields: Parameters<typeof receiptOf>[2]) => receiptOf('a', f, fields, 7, { hash: 'p'.repeat(64), mode: 'enforce' }, 'staging');

  it("maps the call's facts and the stage's fields; the reason defaults to the decision's", () => {
    expect(stamped(facts(), { result: 'claimed', approvers: ['bob'] })).toEqual({
      at: 7,
      action: 'a',
      call_id: 'c1',
      args_hash: 'h'.repeat(64),
      principal: 'alice',
      decision: 'approve',
      reason: 'rule[1]',
      approvers: ['bob'],
      effect_key: null,
      result: 'claimed',
      policy_hash: 'p'.repeat(64),
      mode: 'enforce',
      environment: 'staging',
    });
    expect(stamped(facts(), { result: 'refused', reason: 'x', effect_key: 'k' })).toMatchObject({ reason: 'x', effect_key: 'k', approvers: [] });
  });

  it('writes its members in the order of the base-then-fields merge (the SQL stores keep the JSON text as written)', () => {
    // the order every receipt had when it was the control's base (receiptBase) with the stage's fields assigned over it
    const order = [
      'at',
      'call_id',
      'args_hash',
      'principal',
      'decision',
      'approvers',
      'effect_key',
      'policy_hash',
      'mode',
      'environment',
      'action',
      'reason',
      'result',
    ];
    expect(Object.keys(stamped(facts(), { result: 'allowed' }))).toEqual(order);
    const edited = {
      ...facts(),
      edit: { ran_args_hash: 'r'.repeat(64) } as unknown as CallFacts['edit'],
      approvalGrant: { id: 'g1' } as CallFacts['approvalGrant'],
    };
    expect(Object.keys(stamped(edited, { result: 'executed' }))).toEqual([...order, 'edit', 'approval_grant']);
  });
});
