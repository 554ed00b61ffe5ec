import fc from 'fast-check';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import { actionExposure, grantsCovering, passingCall } from '../../src/policy/exposure.js';
import { parsePolicy } from '../../src/policy/load.js';
import type { Policy } from '../../src/policy/types.js';
import { evaluateAuthority } from '../../src/runtime/authority.js';
import { checkArguments } from '../../src/runtime/arguments.js';
import { decideCall } from '../../src/runtime/decide.js';
import type { CompiledPolicy } from '../../src/runtime/types.js';
import { compileGenerated } from '../helpers/compile-module.js';

function policyOf(doc: Record<string, unknown>): Policy {
  const loaded = parsePolicy(YAML.stringify({ schema: 'ctrlrun.policy/v7', ...doc }, { version: '1.1' }), 'ctrlrun.yaml');
  if (!loaded.value) throw new Error(loaded.diagnostics.map((d) => `${d.path}: ${d.message}`).join('\n'));
  return loaded.value;
}

/**
 * Whether the runtime (the generated module's compiled functions, the authority stage) lets `args`
 * pass, under `grantId` when given, in a run the grant's own subject, environments, expiry and
 * tasks admit (those are the run's part: exposure must not count them against the arguments).
 */
function runtimePasses(compiled: CompiledPolicy, action: string, args: Record<string, unknown>, grantId: string | null): boolean {
  const checked = checkArguments(args);
  if (!checked.ok) return false;
  const decision = decideCall(compiled.actions[action], checked.value);
  if (decision.decision === 'deny') return false;
  if (grantId === null) return true;
  const grant = compiled.authority!.grants.find((g) => g.id === grantId)!;
  const result = evaluateAuthority(
    { grants: [grant] },
    { agent: 'bot', user: grant.user === null ? null : 'dana@example.com' },
    {
      action,
      resource: decision.resource,
      environment: grant.environments?.[0] ?? 'production',
      task: grant.tasks === null ? null : 'refund:1',
      args: checked.value,
      now: grant.expiresAt ?? 0,
    },
  );
  return result.passed;
}

const ACTION = 'x.y';

describe('least exposure: exactly which actions and grants can never pass a call', () => {
  const cases: Array<{ name: string; action: Record<string, unknown>; grants?: Array<Record<string, unknown>>; never: boolean; dead?: string[] }> = [
    { name: 'a bare deny', action: { decision: 'deny' }, never: true },
    { name: 'a bare approve', action: { decision: 'approve' }, never: false },
    {
      name: 'allow only where the conditions contradict each other',
      action: { rules: [{ when: { n_gt: 5, n_lt: 3 }, decision: 'allow' }, { decision: 'deny' }] },
      never: true,
    },
    {
      name: 'an allow shadowed by an earlier catch-all deny',
      action: { rules: [{ decision: 'deny' }, { when: { n_eq: 1 }, decision: 'allow' }] },
      never: true,
    },
    {
      name: 'an allow only a value the runtime refuses (a lone surrogate) matches',
      action: { rules: [{ when: { id_eq: 'a\ud800b' }, decision: 'allow' }, { decision: 'deny' }] },
      never: true,
    },
    { name: 'an argument named __proto__ (a witness keeps it as a key)', action: { rules: [{ when: { __proto___eq: 0 }, decision: 'allow' }] }, never: false },
    { name: 'a neq that only a missing argument fails', action: { rules: [{ when: { n_neq: 1 }, decision: 'approve' }] }, never: false },
    {
      name: 'an effect template whose {resource} never resolves (no resource template)',
      action: { effect: 'e:{resource}', decision: 'allow' },
      never: true,
    },
    {
      name: 'grants: resources the template cannot render, constraints the rules refuse',
      action: { resource: 'acct:{n}', rules: [{ when: { n_gte: 100, n_lte: 199 }, decision: 'allow' }, { decision: 'deny' }] },
      grants: [
        { id: 'two', subject: { agent: 'bot' }, actions: ['x.*'], resources: ['acct:2*'] },
        { id: 'one', subject: { agent: 'bot' }, actions: ['x.*'], resources: ['acct:15*'] },
        { id: 'big', subject: { agent: 'bot' }, actions: ['x.y'], constraints: { n_gte: 500 } },
        { id: 'exact', subject: { agent: 'bot' }, actions: ['x.y'], resources: ['acct:1999'] },
        { id: 'other', subject: { agent: 'bot' }, actions: ['z.*'] },
      ],
      never: false,
      dead: ['two', 'big', 'exact'],
    },
    {
      name: 'a string placeholder: a prefix no allowed value has, and one a fresh value has',
      action: { resource: 'item:{id}', rules: [{ when: { id_neq: 'c1' }, decision: 'allow' }] },
      grants: [
        { id: 'c', subject: { agent: 'bot' }, actions: ['x.y'], resources: ['item:c1'] },
        { id: 'cx', subject: { agent: 'bot' }, actions: ['x.y'], resources: ['item:c*'] },
        { id: 'deep', subject: { agent: 'bot' }, actions: ['x.y'], resources: ['item:c1:**'] },
      ],
      never: false,
      dead: ['c'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const policy = policyOf({ actions: { [ACTION]: c.action }, ...(c.grants ? { authority: { grants: c.grants } } : {}) });
      const exposure = actionExposure(policy, ACTION);
      expect(exposure.never).toBe(c.never);
      expect(exposure.deadGrants.sort()).toEqual([...(c.dead ?? [])].sort());
      const compiled = compileGenerated(policy);
      // every answer "usable" comes with a call the runtime itself lets through
      for (const grant of [null, ...grantsCovering(policy, ACTION)]) {
        const witness = passingCall(policy, ACTION, grant);
        if (witness) expect(runtimePasses(compiled, ACTION, witness, grant?.id ?? null), JSON.stringify(witness)).toBe(true);
      }
    });
  }

  it('past the budget answers "usable" (undefined, never null): nothing is hidden on a guess', () => {
    const policy = policyOf({ actions: { [ACTION]: { rules: [{ when: { n_gt: 5, n_lt: 3 }, decision: 'allow' }, { decision: 'deny' }] } } });
    expect(passingCall(policy, ACTION, null)).toBeNull();
    expect(passingCall(policy, ACTION, null, 1)).toBeUndefined();
    // the action and its grant (both in fact unusable) stay offered
    const granted = policyOf({
      actions: { [ACTION]: { resource: 'item:{id}', rules: [{ when: { id_eq: 'c' }, decision: 'allow' }, { decision: 'deny' }] } },
      authority: { grants: [{ id: 'd', subject: { agent: 'bot' }, actions: [ACTION], resources: ['item:d'] }] },
    });
    expect(actionExposure(granted, ACTION)).toEqual({ never: false, deadGrants: ['d'] });
    expect(actionExposure(granted, ACTION, 1)).toEqual({ never: false, deadGrants: [] });
    expect(actionExposure(policy, ACTION, 1)).toEqual({ never: false, deadGrants: [] });
  });

  it('a grant whose patterns are too many classes to search is kept, though no call reaches it', () => {
    // a long literal of two letters: about as many classes of pasted text as its substrings
    let literal = '';
    for (let i = 0, x = 7; i < 220; i++, x = (x * 48271) % 2147483647) literal += 'ab'[x % 2];
    const policy = policyOf({
      actions: { [ACTION]: { resource: 'item:{id}', rules: [{ when: { id_eq: 'c' }, decision: 'allow' }, { decision: 'deny' }] } },
      authority: { grants: [{ id: 'long', subject: { agent: 'bot' }, actions: [ACTION], resources: [`item:${literal}*`] }] },
    });
    expect(actionExposure(policy, ACTION)).toEqual({ never: false, deadGrants: [] });
  });

  // small random policies against brute force over a domain around their constants
  const INTS = [-2, -1, 0, 1, 2, 3, 5, 9, 10, 12, 15, 100];
  const STRS = ['a', 'b', 'c', 'c1', '1', '12'];
  const condition = fc.oneof(
    fc.tuple(fc.constantFrom('n_gt', 'n_gte', 'n_lt', 'n_lte', 'n_eq', 'n_neq'), fc.constantFrom(...INTS)),
    fc.tuple(fc.constant('n_in'), fc.subarray(INTS, { minLength: 1, maxLength: 3 })),
    fc.tuple(fc.constantFrom('id_eq', 'id_neq'), fc.constantFrom(...STRS, 1, 12)),
    fc.tuple(fc.constant('id_in'), fc.subarray([...STRS, 1], { minLength: 1, maxLength: 3 })),
    fc.tuple(fc.constantFrom('data_scope_in', 'data_scope_eq', 'data_scope_neq'), fc.constantFrom(['pii'], ['pii', 'pay'], [])),
  );
  const rule = fc.record({
    when: fc.uniqueArray(condition, { maxLength: 2, selector: (c) => c[0] }).map((cs) => (cs.length === 0 ? undefined : Object.fromEntries(cs))),
    decision: fc.constantFrom('allow', 'approve', 'deny'),
  });
  const grant = fc.record({
    resources: fc.option(
      fc.subarray(['item:*', 'item:c*', 'item:a', 'n:1*', 'n:**', '*', 'c*:1', '**', 'a:*', '1*', 'item:c1:**'], { minLength: 1, maxLength: 2 }),
      {
        nil: undefined,
      },
    ),
    constraints: fc.option(fc.oneof(fc.constant({ n_gte: 5 }), fc.constant({ id_neq: 'a' }), fc.constant({ n_in: [1, 12] })), { nil: undefined }),
    // the run's part of a grant (a user, an environment, a past expiry, tasks): never the arguments' business
    run: fc.subarray(['user', 'environments', 'expires_at', 'tasks'] as const),
  });
  const policyDoc = fc.record({
    rules: fc.array(rule, { minLength: 1, maxLength: 3 }),
    resource: fc.option(fc.constantFrom('item:{id}', '{id}', 'n:{n}', '{id}:{n}', 'item:{id}:{n}'), { nil: undefined }),
    effect: fc.option(fc.constantFrom('e:{id}', 'e:{resource}', 'e:{n}'), { nil: undefined }),
    grants: fc.array(grant, { minLength: 1, maxLength: 2 }),
    data: fc.option(fc.constantFrom({ n: 'pii' }, { id: 'pay', n: 'pii' }), { nil: undefined }),
  });
  const DOMAIN_N: unknown[] = [undefined, null, true, 'x', '1', ...Array.from({ length: 20 }, (_, i) => i - 3), 99, 100, 101, 120, 150];
  const DOMAIN_ID: unknown[] = [undefined, '', 'a', 'b', 'c', 'c1', 'cz', 'c1:x', '1', '12', 'x:y', 'item', 'a:1', 0, 1, 12, null, []];

  it('agrees with brute force on small random policies (a passing call found by brute force is never missed; each witness passes the runtime)', () => {
    fc.assert(
      fc.property(policyDoc, (d) => {
        const action: Record<string, unknown> = { rules: d.rules.map((r) => (r.when === undefined ? { decision: r.decision } : r)) };
        if (d.resource) action.resource = d.resource;
        if (d.effect && !(d.effect === 'e:{resource}' && !d.resource)) action.effect = d.effect;
        if (d.data) action.data = d.data;
        const grants = d.grants.map((g, i) => ({
          id: `g${i}`,
          subject: { agent: 'bot', ...(g.run.includes('user') ? { user: 'dana@*' } : {}) },
          actions: ['x.*'],
          ...(g.resources && d.resource ? { resources: g.resources } : {}),
          ...(g.constraints ? { constraints: g.constraints } : {}),
          ...(g.run.includes('environments') ? { environments: ['staging'] } : {}),
          // expired before any clock the generator might read: still the run's business
          ...(g.run.includes('expires_at') ? { expires_at: '1969-07-20T20:17:00Z' } : {}),
          ...(g.run.includes('tasks') ? { tasks: ['refund:*'] } : {}),
        }));
        const policy = policyOf({ actions: { [ACTION]: action }, authority: { grants } });
        const compiled = compileGenerated(policy);
        const exposure = actionExposure(policy, ACTION);
        for (const g of [null, ...policy.authority!.grants]) {
          const witness = passingCall(policy, ACTION, g);
          expect(witness).not.toBeUndefined();
          if (witness) expect(runtimePasses(compiled, ACTION, witness, g?.id ?? null), JSON.stringify({ d, g: g?.id, witness })).toBe(true);
          let brute: Record<string, unknown> | null = null;
          for (const n of DOMAIN_N) {
            for (const id of DOMAIN_ID) {
              const args: Record<string, unknown> = {};
              if (n !== undefined) args.n = n;
              if (id !== undefined) args.id = id;
              if (brute === null && runtimePasses(compiled, ACTION, args, g?.id ?? null)) brute = args;
            }
          }
          if (brute !== null) expect(witness, JSON.stringify({ d, g: g?.id, brute })).not.toBeNull();
          // actionExposure says the same: never when the rules pass nothing, else the grants with no call
          if (g === null) expect(exposure.never).toBe(witness === null);
          else if (!exposure.never) expect(exposure.deadGrants.includes(g.id)).toBe(witness === null);
        }
      }),
      { numRuns: 40 },
    );
  });
});
