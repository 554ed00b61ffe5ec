import { describe, expect, it } from 'vitest';
import { proposeIdentity } from '../../src/init/identity.js';
import { scanSource } from '../../src/scan/index.js';

// Found on a public repo: its one run with a context passed `{ uid: 'abc', isProUser: true, ... }`,
// and init proposed `runContext.context.isProUser` (a boolean flag, typed `string` in the control)
// as who the run acts for, because the key contains "User".
const scan = (context: string) =>
  scanSource(
    '/r/src/a.ts',
    `import { Agent, run } from '@openai/agents';\nconst agent = new Agent({ name: 'a' });\nawait run(agent, 'hi', { context: ${context} });\n`,
  );

describe('proposeIdentity', () => {
  it('proposes the id key over a flag whose name mentions the user', () => {
    const { proposal } = proposeIdentity([scan("{ uid: 'abc', isProUser: true, fetchPurchases: async () => [] }")]);
    expect(proposal).toMatchObject({ kind: 'context', path: ['uid'] });
    expect(proposeIdentity([scan("{ tenant: 'acme', uid: 'abc' }")]).proposal).toMatchObject({ path: ['uid'] });
  });

  it('never proposes a flag by its name alone: another user-like key, else the default (a key that names no one, such as tenant, is never proposed)', () => {
    expect(proposeIdentity([scan('{ isProUser: true, userRecord: r }')]).proposal).toMatchObject({ path: ['userRecord'] });
    expect(proposeIdentity([scan("{ hasAccount: true, tenant: 'acme' }")])).toMatchObject({
      proposal: { kind: 'context', path: ['user'] },
      otherKeys: ['hasAccount', 'tenant'],
    });
    const flagsOnly = proposeIdentity([scan('{ isProUser: true, canRefund: false }')]).proposal;
    expect(flagsOnly).toEqual({ kind: 'context', path: ['user'] });
  });

  it('still proposes a user-like key that is not a flag (issue 21, item 4)', () => {
    expect(proposeIdentity([scan("{ tenant: 'acme', sessionUser: s }")]).proposal).toMatchObject({ path: ['sessionUser'] });
    expect(proposeIdentity([scan("{ tenant: 'acme', currentUser: u }")]).proposal).toMatchObject({ path: ['currentUser'] });
    // `is` followed by a small letter is a word (issuer), not a flag's prefix
    expect(proposeIdentity([scan("{ isolationId: 'y', issuerAccount: 'x' }")]).proposal).toMatchObject({ path: ['issuerAccount'] });
  });
});
