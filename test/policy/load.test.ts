import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConditionKey, parseTemplate } from '../../src/policy/grammar.js';
import { loadPolicyFile, parsePolicy, policyHashInput } from '../../src/policy/load.js';
import { canonicalHash } from '../../src/runtime/canonical.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const SPEC = `schema: ctrlrun.policy/v6
mode: enforce
environment: production
controls:
  payments-approval:
    title: A refund above the autonomous band is approved by payments
    approver_role: payments-approver
actions:
  stripe.refund:
    effect: "refund:{payment_id}"
    resource: "payment:{payment_id}"
    controls: [payments-approval]
    approvals_required: 2
    max_attempts: 3
    rules:
      - when: { amount_gte: 0, amount_lte: 100000 }
        decision: allow
      - when: { amount_lte: 1000000 }
        decision: approve
      - decision: deny
  stripe.charge.read:
    decision: allow
`;

function load(text: string) {
  const r = parsePolicy(text, 'p.yaml');
  expect(r.diagnostics).toEqual([]);
  return r.value!;
}

describe('normalization', () => {
  it('produces the typed policy of the SPEC example', () => {
    const p = load(SPEC);
    expect(p).toMatchObject({ schemaVersion: 6, mode: 'enforce', environment: 'production', file: 'p.yaml' });
    expect(p.controls['payments-approval']).toEqual({
      id: 'payments-approval',
      title: 'A refund above the autonomous band is approved by payments',
      approverRole: 'payments-approver',
      loc: { file: 'p.yaml', line: 5, column: 3 },
    });
    const refund = p.actions['stripe.refund']!;
    expect(refund).toMatchObject({ id: 'stripe.refund', controls: ['payments-approval'], approvalsRequired: 2, maxAttempts: 3, loc: { line: 9, column: 3 } });
    expect(refund.effect).toEqual({ source: 'refund:{payment_id}', parts: [{ kind: 'text', text: 'refund:' }, { kind: 'arg', arg: 'payment_id' }], loc: { file: 'p.yaml', line: 10, column: 13 } });
    expect(refund.rules.map((r) => [r.index, r.decision, r.when.map((c) => [c.key, c.arg, c.op, c.value]), r.loc.line])).toEqual([
      [0, 'allow', [['amount_gte', 'amount', 'gte', 0], ['amount_lte', 'amount', 'lte', 100000]], 16],
      [1, 'approve', [['amount_lte', 'amount', 'lte', 1000000]], 18],
      [2, 'deny', [], 20],
    ]);
  });

  it('fills in defaults and turns `decision: X` into one rule without conditions', () => {
    const p = load('schema: ctrlrun.policy/v1\nactions:\n  a.b:\n    decision: approve\n');
    expect(p.mode).toBe('enforce');
    expect(p.environment).toBeUndefined();
    expect(p.controls).toEqual({});
    expect(p.actions['a.b']).toEqual({
      id: 'a.b',
      controls: [],
      approvalsRequired: 1,
      maxAttempts: 1,
      rules: [{ index: 0, when: [], decision: 'approve', loc: { file: 'p.yaml', line: 4, column: 5 } }],
      loc: { file: 'p.yaml', line: 3, column: 3 },
    });
  });

  it('splits `<arg>_<op>` on the last `_<op>`', () => {
    expect(parseConditionKey('min_amount_gte')).toEqual({ ok: true, arg: 'min_amount', op: 'gte' });
    expect(parseConditionKey('x_not_in')).toEqual({ ok: true, arg: 'x_not', op: 'in' });
    expect(parseConditionKey('lt_lt')).toEqual({ ok: true, arg: 'lt', op: 'lt' });
    expect(parseConditionKey('amount_eq_x')).toMatchObject({ ok: false, reason: 'no-operator' });
    expect(parseConditionKey('_eq')).toMatchObject({ ok: false, reason: 'no-arg' });
    const p = load('schema: ctrlrun.policy/v6\nactions:\n  a:\n    rules:\n      - when: { user_id_eq: 7, is_admin_eq: false }\n        decision: allow\n');
    expect(p.actions.a!.rules[0]!.when.map((c) => [c.arg, c.op, c.value])).toEqual([['user_id', 'eq', 7], ['is_admin', 'eq', false]]);
  });

  it('parses templates into text and placeholders, refusing stray braces', () => {
    expect(parseTemplate('{a}:{b}x')).toEqual({ parts: [{ kind: 'arg', arg: 'a' }, { kind: 'text', text: ':' }, { kind: 'arg', arg: 'b' }, { kind: 'text', text: 'x' }], errors: [] });
    expect(parseTemplate('static')).toEqual({ parts: [{ kind: 'text', text: 'static' }], errors: [] });
    expect(parseTemplate('a}b').errors).toEqual([{ index: 1, message: expect.stringContaining('`}`') }]);
    expect(parseTemplate('{a').errors).toEqual([{ index: 0, message: expect.stringContaining('never closed') }]);
    expect(parseTemplate('{a{b}').errors.map((e) => e.index)).toEqual([0]);
    expect(parseTemplate('{}').errors[0]!.message).toMatch(/empty/);
  });

  it('keeps strings that look like numbers as strings, and reads hex integers', () => {
    const p = load('schema: ctrlrun.policy/v6\nactions:\n  a:\n    rules:\n      - when: { code_eq: "1.5", n_lte: 0x10, tag_in: ["7", 7] }\n        decision: allow\n');
    expect(p.actions.a!.rules[0]!.when.map((c) => c.value)).toEqual(['1.5', 16, ['7', 7]]);
  });

  it('a rule after a catch-all is a warning, and the policy still loads', () => {
    const r = parsePolicy('schema: ctrlrun.policy/v6\nactions:\n  a:\n    rules:\n      - decision: deny\n      - decision: allow\n', 'p.yaml');
    expect(r.value).toBeDefined();
    expect(r.diagnostics).toMatchObject([{ severity: 'warning', code: 'unreachable-rule', line: 6, column: 9 }]);
  });
});

describe('policy hash', () => {
  const hash = (text: string) => load(text).hash;

  it('is SHA-256 over the canonical JSON of policyHashInput, which has no locations', () => {
    const p = load(SPEC);
    expect(p.hash).toBe(canonicalHash(policyHashInput(p)));
    expect(JSON.stringify(policyHashInput(p))).not.toMatch(/"(loc|line|column|file)"/);
  });

  it('does not change with formatting, comments, quoting, key order or the decision shorthand', () => {
    const reformatted = `# comment
{ "actions": { "stripe.charge.read": { "rules": [ { "decision": "allow", "when": {} } ] },
  "stripe.refund": { max_attempts: 3, approvals_required: 2, controls: ['payments-approval'],
    resource: 'payment:{payment_id}', effect: 'refund:{payment_id}',
    rules: [ { decision: allow, when: { amount_lte: 100000, amount_gte: 0 } },   # order of when entries
             { when: { amount_lte: 1000000 }, decision: approve },
             { decision: deny } ] } },
  "controls": { "payments-approval": { approver_role: payments-approver,
     title: "A refund above the autonomous band is approved by payments" } },
  environment: production, schema: ctrlrun.policy/v6 }
`;
    expect(hash(reformatted)).toBe(hash(SPEC));
    expect(hash(SPEC.replace('mode: enforce\n', ''))).toBe(hash(SPEC));
    expect(hash(SPEC.replace('approvals_required: 2', 'approvals_required: 2 # two people'))).toBe(hash(SPEC));
  });

  it('changes when the meaning changes', () => {
    const base = hash(SPEC);
    for (const [from, to] of [
      ['amount_lte: 100000', 'amount_lte: 100001'],
      ['decision: approve', 'decision: deny'],
      ['approvals_required: 2', 'approvals_required: 3'],
      ['mode: enforce', 'mode: observe'],
      ['environment: production', 'environment: staging'],
      ['"refund:{payment_id}"', '"refund2:{payment_id}"'],
      ['approver_role: payments-approver', 'approver_role: finance'],
    ]) {
      expect(hash(SPEC.replace(from!, to!)), `${from} -> ${to}`).not.toBe(base);
    }
    const swapped = SPEC.replace(
      '      - when: { amount_gte: 0, amount_lte: 100000 }\n        decision: allow\n      - when: { amount_lte: 1000000 }\n        decision: approve\n',
      '      - when: { amount_lte: 1000000 }\n        decision: approve\n      - when: { amount_gte: 0, amount_lte: 100000 }\n        decision: allow\n',
    );
    expect(swapped).not.toBe(SPEC);
    expect(hash(swapped)).not.toBe(base);
  });
});

describe('loadPolicyFile', () => {
  it('reads a file, and turns a missing or oversized file into a located diagnostic', () => {
    const dir = makeTempDir('policy-');
    dirs.push(dir);
    const file = path.join(dir, 'ctrlrun.yaml');
    writeFileSync(file, SPEC);
    expect(loadPolicyFile(file).value?.file).toBe(file);
    expect(loadPolicyFile(path.join(dir, 'nope.yaml')).diagnostics).toMatchObject([{ code: 'file-not-found', line: 1, column: 1 }]);
    mkdirSync(path.join(dir, 'adir'));
    expect(loadPolicyFile(path.join(dir, 'adir')).diagnostics).toMatchObject([{ code: 'not-a-file' }]);
    const big = path.join(dir, 'big.yaml');
    writeFileSync(big, Buffer.alloc(5 * 1024 * 1024, 0x20));
    expect(loadPolicyFile(big).diagnostics).toMatchObject([{ code: 'file-too-large', line: 1, column: 1 }]);
  });
});
