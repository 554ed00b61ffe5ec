import fc from 'fast-check';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../src/policy/evaluate.js';
import { loadPolicyOrThrow } from '../../src/policy/load.js';
import { checkArguments } from '../../src/runtime/arguments.js';
import { decideCall, invalidArguments } from '../../src/runtime/decide.js';
import { parseTestFile } from '../../src/policy-test/cases.js';
import { createDecider } from '../../src/policy-test/decider.js';
import { diffPolicies } from '../../src/policy-test/diff.js';
import { replayCalls } from '../../src/policy-test/replay.js';
import { runTests } from '../../src/policy-test/run-tests.js';
import { readActionSchemas } from '../../src/generate/project-schemas.js';
import { acceptsCall } from '../../src/generate/tool-schemas.js';
import { loadProject } from '../../src/manifest/load.js';
import { compileGenerated } from '../helpers/compile-module.js';
import { FIXTURES } from '../helpers/paths.js';

// test, diff and replay decide through the runtime's own decision: on a large random corpus each
// gives what the generated module's functions and decideCall give (and what the reference semantics say).

// the project's loader: a fixture that does not load fails here with its diagnostics, not later as undefined
const load = (f: string) => loadPolicyOrThrow(path.join(FIXTURES, f)).policy;
const BASE = load('policy-test/diff/base.yaml');
const HEAD = load('policy-test/diff/head.yaml');
const ACTIONS = [...new Set([...Object.keys(BASE.actions), ...Object.keys(HEAD.actions), 'nope'])];

const value = fc.oneof(
  fc.integer({ min: -5, max: 1_100_000 }),
  fc.constantFrom(0, 1, 10000, 10001, 50000, 1000000, 1000001),
  fc.bigInt({ min: 2n ** 53n, max: 2n ** 60n }),
  fc.constantFrom('/tmp/a', '/tmp/b', '5000', '', 'x'),
  fc.boolean(),
  fc.constant(null),
);
const callArb = fc.record({
  action: fc.constantFrom(...ACTIONS),
  args: fc.dictionary(fc.constantFrom('amount', 'payment_id', 'path', 'note'), value, { maxKeys: 4 }),
});

function runtimeDecision(compiled: ReturnType<typeof compileGenerated>, action: string, args: unknown) {
  const checked = checkArguments(args);
  if (!checked.ok) return invalidArguments(checked.detail);
  return decideCall(Object.hasOwn(compiled.actions, action) ? compiled.actions[action] : undefined, checked.value);
}

describe('test, diff and replay agree with the runtime', () => {
  const base = createDecider(BASE);
  const head = createDecider(HEAD);
  const baseModule = compileGenerated(BASE);
  const headModule = compileGenerated(HEAD);

  it("test: each case's actual decision, rule, reason, effect key and resource are the runtime's", () => {
    fc.assert(
      fc.property(fc.array(callArb, { minLength: 1, maxLength: 50 }), (calls) => {
        const lines = [
          'schema: ctrlrun.policy-test/v1',
          'cases:',
          ...calls.map(
            (c) =>
              `  - { action: ${JSON.stringify(c.action)}, args: ${JSON.stringify(JSON.stringify(c.args, (_k, v) => (typeof v === 'bigint' ? `@@${v}@@` : v)).replace(/"@@(\d+)@@"/g, '$1'))}, expect: { decision: allow } }`,
          ),
        ];
        const suite = parseTestFile(lines.join('\n'), '/p/ctrlrun.test.yaml').value!;
        const run = runTests(suite, head);
        run.results.forEach((r, i) => {
          const want = runtimeDecision(headModule, calls[i]!.action, calls[i]!.args);
          expect({
            decision: r.actual.decision,
            rule: r.actual.rule,
            reason: r.actual.reason,
            effectKey: r.actual.effectKey,
            resource: r.actual.resource,
          }).toEqual({ decision: want.decision, rule: want.rule, reason: want.reason, effectKey: want.effectKey, resource: want.resource });
          const ref = evaluate(HEAD, calls[i]!.action, calls[i]!.args);
          expect([ref.decision, ref.reason, ref.effectKey, ref.resource]).toEqual([want.decision, want.reason, want.effectKey, want.resource]);
        });
      }),
      { numRuns: 60 },
    );
  });

  it("replay: every call's new decision is the runtime's under the candidate, and the baseline the runtime's under the base", () => {
    fc.assert(
      fc.property(fc.array(callArb, { minLength: 1, maxLength: 200 }), (calls) => {
        const recorded = calls.map((c, i) => ({
          line: i + 1,
          action: c.action,
          argsText: JSON.stringify(c.args, (_k, v) => (typeof v === 'bigint' ? `@@${v}@@` : v)).replace(/"@@(\d+)@@"/g, '$1'),
          hashed: [],
          principal: null,
          environment: null,
          task: null,
          at: null,
          recorded: null,
          callId: null,
        }));
        const result = replayCalls(recorded, head, base);
        let changed = 0;
        for (const c of calls)
          if (runtimeDecision(baseModule, c.action, c.args).decision !== runtimeDecision(headModule, c.action, c.args).decision) changed += 1;
        expect(result.summary.changed).toBe(changed);
        for (const g of result.changes) {
          const c = calls[g.example.call.line - 1]!;
          expect([g.before, g.after, g.reason]).toEqual([
            runtimeDecision(baseModule, c.action, c.args).decision,
            runtimeDecision(headModule, c.action, c.args).decision,
            runtimeDecision(headModule, c.action, c.args).reason,
          ]);
        }
      }),
      { numRuns: 40 },
    );
  });

  it("diff: each region's witness is decided as the runtime decides it, and no random call changes decision in an action diff reports as unchanged", () => {
    const diff = diffPolicies(BASE, HEAD);
    for (const a of diff.actions) {
      for (const r of a.regions) {
        expect(r.before).toEqual(runtimeDecision(baseModule, a.action, r.witness.args));
        expect(r.after).toEqual(runtimeDecision(headModule, a.action, r.witness.args));
      }
    }
    const unchanged = Object.keys(BASE.actions).filter((id) => !diff.actions.some((a) => a.action === id));
    fc.assert(
      fc.property(callArb, (c) => {
        if (!unchanged.includes(c.action)) return;
        expect(runtimeDecision(baseModule, c.action, c.args).decision).toBe(runtimeDecision(headModule, c.action, c.args).decision);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("diff within the tools' schemas agrees with the runtime", () => {
  const dir = path.join(FIXTURES, 'policy-test/diff-schema');
  const project = loadProject({ cwd: dir });
  const schemas = readActionSchemas(project.manifest);
  const base = load('policy-test/diff-schema/base.yaml');
  const head = project.policy;
  const baseModule = compileGenerated(base);
  const headModule = compileGenerated(head);
  const diff = diffPolicies(base, head, { schemas });

  it("each region's witness is a call the tool's schema accepts, and its old and new decisions are the runtime's", () => {
    let witnesses = 0;
    for (const a of diff.actions) {
      const schema = schemas.byAction.get(a.action);
      for (const { witness, before, after } of a.regions) {
        if (schema) expect(acceptsCall(schema, witness.args), JSON.stringify(witness.args)).toBe(true);
        expect(before).toEqual(runtimeDecision(baseModule, a.action, witness.args));
        expect(after).toEqual(runtimeDecision(headModule, a.action, witness.args));
        witnesses += 1;
      }
    }
    expect(witnesses).toBeGreaterThan(0);
  });

  it('no call the schema accepts changes decision in an action the diff does not report (stripe.refund)', () => {
    expect(diff.actions.find((a) => a.action === 'stripe.refund')).toBeUndefined();
    const refund = fc.record({
      payment_id: fc.constantFrom('ch_1', 'x', ''),
      amount: fc.oneof(fc.integer({ min: 1, max: 1_000_000 }), fc.constantFrom(1, 9999, 10000, 10001, 1_000_000)),
      currency: fc.constantFrom('USD', 'EUR'),
    });
    fc.assert(
      fc.property(refund, (args) => {
        expect(runtimeDecision(baseModule, 'stripe.refund', args).decision).toBe(runtimeDecision(headModule, 'stripe.refund', args).decision);
      }),
      { numRuns: 2000 },
    );
    // outside the schema (no amount) the two versions do differ: the schema is what makes them agree
    expect(runtimeDecision(baseModule, 'stripe.refund', { payment_id: 'ch_1', currency: 'USD' }).decision).toBe('deny');
    expect(runtimeDecision(headModule, 'stripe.refund', { payment_id: 'ch_1', currency: 'USD' }).decision).toBe('approve');
  });
});
