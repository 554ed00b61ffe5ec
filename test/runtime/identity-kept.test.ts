// The last string identity's answer is kept (internals.ts identityValueOf): a run's calls act for
// one principal, so its normalisation and checks run once, not on every call. The kept answer must
// be the one a fresh read gives, for that string only, and a refused string is refused every time.
import type { RunContext } from '@openai/agents';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { whoNow, type ControlInternals } from '../../src/runtime/internals.js';
import { checkIdentity } from '../../src/runtime/index.js';

const asked = (identity: (rc: RunContext<unknown>) => unknown) =>
  ({ identity, notice: () => {}, lastIdentity: { value: undefined, who: null } }) as unknown as ControlInternals;
const context = (user: unknown) => ({ context: { user } }) as unknown as RunContext<unknown>;
const byUser = asked((rc) => (rc.context as { user: unknown }).user);

/** What a string identity reads as, with nothing kept: the principal (normalised) and the subject (trimmed), or null. */
function fresh(raw: string): { principal: string; subject: { agent: string; user: null } } | null | 'refused' {
  const checked = checkIdentity(raw);
  if (!checked.ok) return checked.problem === 'blank' ? null : 'refused';
  return { principal: checked.value, subject: { agent: raw.trim(), user: null } };
}

function read(raw: string): unknown {
  try {
    return whoNow(byUser, context(raw));
  } catch {
    return 'refused';
  }
}

describe('the kept answer of a string identity', () => {
  it('is what a fresh read gives, whatever string came before', () => {
    const identities = fc.oneof(fc.constantFrom('alice', 'Alice ', 'bob', 'ALICE', '', '  ', 'al\u200bice', 'a\nb', 'ｂｏｂ'), fc.string({ maxLength: 6 }));
    fc.assert(
      fc.property(fc.array(identities, { minLength: 1, maxLength: 8 }), (sequence) => {
        for (const raw of sequence) {
          expect(read(raw)).toEqual(fresh(raw));
          expect(read(raw)).toEqual(fresh(raw)); // asked again: the kept answer
        }
      }),
    );
  });

  it('answers alice, bob, alice each as themselves', () => {
    const seen = ['alice', 'bob', 'alice'].map((u) => (whoNow(byUser, context(u)) as { principal: string }).principal);
    expect(seen).toEqual(['alice', 'bob', 'alice']);
  });

  it('refuses a string with a control character each time it is given', () => {
    for (let i = 0; i < 3; i++) expect(() => whoNow(byUser, context('ali\u0000ce'))).toThrow(/control character/);
  });

  it('is frozen: a caller cannot change the answer the next call gets', () => {
    const who = whoNow(byUser, context('carol')) as { principal: string; subject: { agent: string } };
    expect(Object.isFrozen(who) && Object.isFrozen(who.subject)).toBe(true);
    expect((whoNow(byUser, context('carol')) as { principal: string }).principal).toBe('carol');
  });

  it('is not kept for an { agent, user } identity: each is read as it is', () => {
    const pair = asked(() => ({ agent: 'bot', user: 'Dave' }));
    expect(whoNow(pair, context(null))).toEqual({ principal: 'dave', subject: { agent: 'bot', user: 'Dave' } });
  });
});

describe("the principal stage's answer without a task", () => {
  it("is each call's own principal, kept only while it is the same one", async () => {
    const { principalStage } = await import('../../src/runtime/core/principal.js');
    const stage = principalStage(byUser, false);
    const principals = ['alice', 'bob', 'bob', 'alice', ''].map(
      (u) => (stage.resolve(context(u)) as { who: { principal: string } | null }).who?.principal ?? null,
    );
    expect(principals).toEqual(['alice', 'bob', 'bob', 'alice', null]);
  });
});
