import { describe, expect, it } from 'vitest';
import { CtrlrunError } from '../../src/runtime/errors.js';
import { haltInputProblem, liftHalt, setHalt } from '../../src/runtime/halt-actions.js';
import { memoryStore } from '../../src/runtime/index.js';
import type { Store } from '../../src/runtime/types.js';

/**
 * The one way every surface sets and lifts a halt: each refused input is named, and a refused set
 * or lift writes nothing (no halt, no receipt).
 */
const ok = { target: 'action', value: 'stripe.refund', reason: 'incident 42', by: 'carol' } as const;

describe('haltInputProblem', () => {
  it('accepts each target with what it names', () => {
    expect(haltInputProblem(ok)).toBeUndefined();
    expect(haltInputProblem({ target: 'all', reason: 'freeze', by: 'carol', hard: true })).toBeUndefined();
    expect(haltInputProblem({ target: 'all', value: '', reason: 'freeze', by: 'carol' })).toBeUndefined();
    expect(haltInputProblem({ target: 'run', value: 'conv-7', reason: 'looping', by: 'carol' })).toBeUndefined();
    expect(haltInputProblem({ target: 'principal', value: 'ALICE ', reason: 'x', by: 'carol' })).toBeUndefined();
  });

  it.each([
    ['an unknown target', { ...ok, target: 'everything' }, 'target must be one of all, run, principal, action'],
    ['no target', { ...ok, target: undefined }, 'target must be one of'],
    ['a value with all', { ...ok, target: 'all' }, 'a halt of every call names no value'],
    ['no value', { ...ok, value: undefined }, 'a halt of one action names it'],
    ['a blank value', { ...ok, value: '   ' }, 'a halt of one action names it'],
    ['a value of 501 characters', { ...ok, value: 'a'.repeat(501) }, 'a halt of one action names it'],
    ['a value on two lines', { ...ok, target: 'run', value: 'conv\n7' }, 'a halt of one run names it'],
    ['a value with a bidi control', { ...ok, value: 'stripe\u202e.refund' }, 'a halt of one action names it'],
    ['a principal that is only invisible characters', { ...ok, target: 'principal', value: '\u200b' }, 'the principal is not a usable identity'],
    ['no reason', { ...ok, reason: undefined }, 'say why'],
    ['a blank reason', { ...ok, reason: ' ' }, 'say why'],
    ['a reason of 2001 characters', { ...ok, reason: 'r'.repeat(2001) }, 'say why'],
    ['a reason on two lines', { ...ok, reason: 'a\nb' }, 'say why'],
    ['hard as text', { ...ok, hard: 'yes' }, 'hard is true or false'],
    ['no one halting', { ...ok, by: undefined }, 'name who halts'],
    ['a blank name halting', { ...ok, by: '  ' }, 'name who halts'],
  ])('refuses %s', (_what, input, problem) => {
    expect(haltInputProblem(input as never)).toContain(problem);
  });

  it('takes a value of exactly 500 and a reason of exactly 2000 characters', () => {
    expect(haltInputProblem({ ...ok, value: 'a'.repeat(500), reason: 'r'.repeat(2000) })).toBeUndefined();
  });
});

describe('setHalt and liftHalt', () => {
  it('a refused halt writes nothing', async () => {
    const store = memoryStore();
    await expect(setHalt(store, { ...ok, reason: '' }, 1)).rejects.toThrow(/halt refused: say why/);
    expect((await store.readHalts!()).halts).toEqual([]);
    expect(await store.listReceipts()).toEqual([]);
  });

  it('a store that keeps no halts is refused, saying so', async () => {
    const plain = memoryStore();
    const store = { ...plain, kind: plain.kind, readHalts: undefined, putHalt: undefined, liftHalt: undefined } as unknown as Store;
    const error = await setHalt(store, ok, 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CtrlrunError);
    expect((error as Error).message).toContain('keeps no halts; nothing was halted');
  });

  it('normalises the principal and who halts; a lift is refused without a name or with a multi-line reason, and an unknown id records nothing', async () => {
    const store = memoryStore();
    const halt = await setHalt(store, { target: 'principal', value: ' ALICE', reason: ' compromised ', by: 'Carol' }, 1);
    expect(halt).toMatchObject({ target: 'principal', value: 'alice', by: 'carol', reason: 'compromised', hard: false });
    await expect(liftHalt(store, halt.id, ' ', 2)).rejects.toThrow(/name who lifts/);
    await expect(liftHalt(store, halt.id, 'dave', 2, undefined, 'a\nb')).rejects.toThrow(/one line of text/);
    await expect(liftHalt(store, halt.id, 'dave', 2, undefined, 'r'.repeat(2001))).rejects.toThrow(/one line of text/);
    expect((await store.readHalts!()).halts.map((h) => h.id)).toEqual([halt.id]);
    expect(await liftHalt(store, 'halt_nope', 'dave', 2)).toBeNull();
    expect((await store.listReceipts()).map((r) => r.result)).toEqual(['halted']);
    expect(await liftHalt(store, halt.id, 'Dave', 3, undefined, 'fixed')).toMatchObject({ id: halt.id });
    expect((await store.listReceipts()).map((r) => [r.result, r.approvers, r.reason])).toEqual([
      ['halted', ['carol'], 'principal alice: compromised'],
      ['lifted', ['dave'], 'principal alice: fixed'],
    ]);
  });
});
