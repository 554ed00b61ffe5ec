import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConditionKey, parseTemplate } from '../../src/policy/grammar.js';
import { loadPolicyFile, parsePolicy, policyHashInput } from '../../src/policy/load.js';
import { canonicalHash } from '../../src/runtime/canonical.js';
import { REPO_ROOT } from '../helpers/paths.js';
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
    expect(refund.effect).toEqual({
      source: 'refund:{payment_id}',
      parts: [
        { kind: 'text', text: 'refund:' },
        { kind: 'arg', arg: 'payment_id' },
      ],
      loc: { file: 'p.yaml', line: 10, column: 13 },
    });
    expect(refund.rules.map((r) => [r.index, r.decision, r.when.map((c) => [c.key, c.arg, c.op, c.value]), r.loc.line])).toEqual([
      [
        0,
        'allow',
        [
          ['amount_gte', 'amount', 'gte', 0],
          ['amount_lte', 'amount', 'lte', 100000],
        ],
        16,
      ],
      [1, 'approve', [['amount_lte', 'amount', 'lte', 1000000]], 18],
      [2, 'deny', [], 20],
    ]);
  });

  it('fills in defaults (no max_attempts: no ceiling) and turns `decision: X` into one bare rule', () => {
    const p = load('schema: ctrlrun.policy/v1\nactions:\n  a.b:\n    decision: approve\n');
    expect(p.mode).toBe('enforce');
    expect(p.environment).toBeUndefined();
    expect(p.controls).toEqual({});
    expect(p.actions['a.b']).toEqual({
      id: 'a.b',
      bare: true,
      controls: [],
      approvalsRequired: 1,
      maxAttempts: null,
      mcp: { notExecutedOnError: false },
      rules: [{ index: 0, when: [], decision: 'approve', controls: [], loc: { file: 'p.yaml', line: 4, column: 5 } }],
      loc: { file: 'p.yaml', line: 3, column: 3 },
    });
  });

  it('reads YAML 1.1 as CTRLRun does: `no` is false, `017` is 15, `1:30` is 90, integers of any size', () => {
    const p = load(
      'schema: ctrlrun.policy/v6\nactions:\n  a:\n    rules:\n      - when: { f_eq: no, o_eq: 017, b_eq: 0b11, u_lte: 1_000, s_eq: 1:30, y_eq: y, h_lte: 123456789012345678901 }\n        decision: allow\n',
    );
    expect(p.actions.a!.rules[0]!.when.map((c) => c.value)).toEqual([false, 15, 3, 1000, 90, 'y', 123456789012345678901n]);
  });

  it('refuses a YAML 1.1 boolean or integer where CTRLRun needs a string key', () => {
    const r = parsePolicy('schema: ctrlrun.policy/v6\nactions:\n  on:\n    decision: allow\n', 'p.yaml');
    expect(r.value).toBeUndefined();
    expect(r.diagnostics).toMatchObject([{ code: 'bad-key', line: 3, column: 3, message: expect.stringContaining('boolean') }]);
  });

  it('loads what CTRLRun loads: v7/v8, a version label, any action id, `source:`, `mcp:`, no upper bounds', () => {
    const p = load(
      'schema: ctrlrun.policy/v8\nversion: "7"\ncontrols:\n  c:\n    title: T\n    source: s\nactions:\n  Wire / EUR:\n    mcp: { not_executed_on_error: true }\n    max_attempts: 500\n    approvals_required: 20\n    controls: [c]\n    decision: approve\n',
    );
    expect(p.schemaVersion).toBe(8);
    expect(p.version).toBe('7');
    expect(p.controls.c).toMatchObject({ title: 'T', source: 's' });
    expect(p.actions['Wire / EUR']).toMatchObject({ maxAttempts: 500, approvalsRequired: 20, mcp: { notExecutedOnError: true }, controls: ['c'] });
  });

  it('refuses what CTRLRun refuses: `when: {}`, mode/environment before v3, a blank environment, the reserved action name in a template', () => {
    const codes = (text: string) =>
      parsePolicy(text, 'p.yaml')
        .diagnostics.filter((d) => d.severity === 'error')
        .map((d) => d.code);
    expect(codes('schema: ctrlrun.policy/v6\nactions:\n  a:\n    rules:\n      - when: {}\n        decision: allow\n')).toEqual(['empty-when']);
    expect(codes('schema: ctrlrun.policy/v2\nmode: observe\nenvironment: prod\nactions: {}\n')).toEqual(['key-version', 'key-version']);
    expect(codes('schema: ctrlrun.policy/v3\nenvironment: "  "\nactions: {}\n')).toEqual(['blank-string']);
    expect(codes('schema: ctrlrun.policy/v6\nactions:\n  a:\n    effect: "x:ctrlrun.policy.change:{id}"\n    decision: allow\n')).toEqual(['reserved-name']);
    expect(codes('schema: ctrlrun.policy/v6\nactions:\n  a:\n    effect: "policy:{id}"\n    decision: allow\n')).toEqual(['reserved-name']);
    expect(codes('schema: ctrlrun.policy/v5\nactions:\n  ctrlrun.policy.change:\n    decision: approve\n')).toEqual(['key-version']);
    expect(codes('schema: ctrlrun.policy/v6\nactions:\n  ctrlrun.policy.change:\n    effect: "policy:{hash}"\n    decision: approve\n')).toEqual([]);
  });

  it('splits `<arg>_<op>` on the longest operator suffix; any non-empty argument name', () => {
    expect(parseConditionKey('amount-x_eq')).toEqual({ ok: true, arg: 'amount-x', op: 'eq' });
    expect(parseConditionKey('min_amount_gte')).toEqual({ ok: true, arg: 'min_amount', op: 'gte' });
    expect(parseConditionKey('x_not_in')).toEqual({ ok: true, arg: 'x_not', op: 'in' });
    expect(parseConditionKey('lt_lt')).toEqual({ ok: true, arg: 'lt', op: 'lt' });
    expect(parseConditionKey('amount_eq_x')).toMatchObject({ ok: false, reason: 'no-operator' });
    expect(parseConditionKey('_eq')).toMatchObject({ ok: false, reason: 'no-arg' });
    const p = load('schema: ctrlrun.policy/v6\nactions:\n  a:\n    rules:\n      - when: { user_id_eq: 7, is_admin_eq: false }\n        decision: allow\n');
    expect(p.actions.a!.rules[0]!.when.map((c) => [c.arg, c.op, c.value])).toEqual([
      ['user_id', 'eq', 7],
      ['is_admin', 'eq', false],
    ]);
  });

  it('parses templates into text and placeholders, refusing stray braces', () => {
    expect(parseTemplate('{a}:{b}x')).toEqual({
      parts: [
        { kind: 'arg', arg: 'a' },
        { kind: 'text', text: ':' },
        { kind: 'arg', arg: 'b' },
        { kind: 'text', text: 'x' },
      ],
      errors: [],
    });
    expect(parseTemplate('static')).toEqual({ parts: [{ kind: 'text', text: 'static' }], errors: [] });
    expect(parseTemplate('a}b').errors).toEqual([{ index: 1, message: expect.stringContaining('`}`') }]);
    expect(parseTemplate('{a').errors).toEqual([{ index: 0, message: expect.stringContaining('never closed') }]);
    expect(parseTemplate('{a{b}').errors.map((e) => e.index)).toEqual([0]);
    expect(parseTemplate('{}').errors[0]!.message).toMatch(/empty/);
  });

  it('keeps strings that look like numbers as strings, and reads hex integers', () => {
    const p = load(
      'schema: ctrlrun.policy/v6\nactions:\n  a:\n    rules:\n      - when: { code_eq: "1.5", n_lte: 0x10, tag_in: ["7", 7] }\n        decision: allow\n',
    );
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

  it('is `sha256:` + SHA-256 over the canonical JSON of policyHashInput, which has no locations', () => {
    const p = load(SPEC);
    expect(p.hash).toBe(`sha256:${canonicalHash(policyHashInput(p))}`);
    expect(JSON.stringify(policyHashInput(p))).not.toMatch(/"(loc|line|column|file)"/);
  });

  it('is in its own place among the fields, and a spread or JSON carries it', () => {
    const p = load(SPEC);
    const expected = `sha256:${canonicalHash(policyHashInput(p))}`;
    expect(Object.keys(p).slice(-3)).toEqual(['document', 'hash', 'file']);
    expect({ ...p }.hash).toBe(expected);
    expect(JSON.parse(JSON.stringify(p)).hash).toBe(expected);
    expect(p.hash).toBe(p.hash);
  });

  it("equals CTRLRun's policy hash for the same file (expected values from an independent canonicaliser of its algorithm)", () => {
    const table = JSON.parse(readFileSync(path.join(REPO_ROOT, 'test/policy/data/ctrlrun-hashes.json'), 'utf8')) as {
      cases: Array<{ name: string; policy: string; hash: string }>;
    };
    expect(table.cases.length).toBeGreaterThanOrEqual(10);
    for (const c of table.cases) {
      const r = parsePolicy(c.policy, 'ctrlrun.yaml');
      expect(r.value, c.name).toBeDefined();
      expect(r.value!.hash, c.name).toBe(c.hash);
    }
  });

  it('ignores the version label; the decision shorthand and its one-rule spelling differ (CTRLRun hashes the document)', () => {
    expect(hash(SPEC.replace('mode: enforce\n', 'mode: enforce\nversion: "2026-11"\n').replace('v6', 'v6'))).toBe(hash(SPEC));
    expect(hash('schema: ctrlrun.policy/v1\nactions:\n  a:\n    decision: allow\n')).not.toBe(
      hash('schema: ctrlrun.policy/v1\nactions:\n  a:\n    rules:\n      - decision: allow\n'),
    );
    expect(hash('schema: ctrlrun.policy/v3\nenvironment: production\nactions: {}\n')).toBe(hash('schema: ctrlrun.policy/v3\nactions: {}\n'));
  });

  it('does not change with formatting, comments, quoting or key order', () => {
    const reformatted = `# comment
{ "actions": { "stripe.charge.read": { "decision": "allow" },
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
