import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parsePolicy } from '../../src/policy/load.js';
import { parseTestFile } from '../../src/policy-test/cases.js';
import { createDecider } from '../../src/policy-test/decider.js';
import { runTests } from '../../src/policy-test/run-tests.js';
import { starterTestText } from '../../src/policy-test/starter.js';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';
import { expectGolden } from './golden.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));
const REFUND = path.join(FIXTURES, 'policy-test/refund');

function scratch(): string {
  const dir = copyFixture('policy-test/refund');
  dirs.push(dir);
  return dir;
}

describe('ctrlrun-gen test', () => {
  it('reports each case, a located diff for the failing one, and exits 1 (text, json, junit golden files)', async () => {
    for (const [format, ext] of [
      ['text', 'text'],
      ['json', 'json'],
      ['junit', 'xml'],
    ] as const) {
      const r = await cli(['test', '--coverage', '--format', format], { cwd: REFUND });
      expect(r.code, r.stderr).toBe(1);
      expectGolden(r.stdout, path.join(REFUND, `expected.test.${ext}`));
    }
    const text = await cli(['test'], { cwd: REFUND });
    expect(text.stdout).toContain('ctrlrun.test.yaml:24:17: expect.decision\n    - expected: "approve"\n    + actual:   "deny"');
    expect(text.stdout).not.toContain('coverage:');
  });

  it('exits 0 when every case passes, and --min-coverage fails (exit 1) below the figure', async () => {
    const dir = scratch();
    const file = path.join(dir, 'ctrlrun.test.yaml');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.slice(0, text.indexOf('  - name: a wrong expectation')));
    const ok = await cli(['test'], { cwd: dir });
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toContain('4 cases: 4 passed, 0 failed');
    // 3 of the 5 rules are reached: 60%
    expect((await cli(['test', '--min-coverage', '60'], { cwd: dir })).code).toBe(0);
    const below = await cli(['test', '--min-coverage', '61'], { cwd: dir });
    expect(below.code).toBe(1);
    expect(below.stderr).toContain('coverage 60% is below --min-coverage 61');
    expect(below.stdout).toContain('no case reaches action accounts.close  ctrlrun.yaml:27:3');
    const bad = await cli(['test', '--min-coverage', '101'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--min-coverage must be a percentage from 0 to 100');
  });

  it('--output writes the report to a file and prints a summary', async () => {
    const dir = scratch();
    const r = await cli(['test', '--format', 'junit', '--output', 'report.xml'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('5 cases: 4 passed, 1 failed (report: report.xml)\n');
    expect(readFileSync(path.join(dir, 'report.xml'), 'utf8')).toBe(readFileSync(path.join(REFUND, 'expected.test.xml'), 'utf8'));
  });

  it('--output counts one case in the singular, as the text report does', async () => {
    const dir = scratch();
    const file = path.join(dir, 'ctrlrun.test.yaml');
    const text = readFileSync(file, 'utf8');
    // keep the header and the first case only
    const first = text.indexOf('  - name:');
    writeFileSync(file, text.slice(0, text.indexOf('  - name:', first + 1)));
    const r = await cli(['test', '--output', 'report.txt'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toBe('1 case: 1 passed, 0 failed (report: report.txt)\n');
    expect(readFileSync(path.join(dir, 'report.txt'), 'utf8')).toContain('\n1 case: 1 passed, 0 failed');
  });

  it('a malformed test file is a usage error (exit 2) with file:line:col and a hint, and no report', async () => {
    const dir = scratch();
    const file = path.join(dir, 'ctrlrun.test.yaml');
    const cases: Array<[string, string, string]> = [
      [
        '    expect: { decision: allow, rule: 0, reason: "rule[0]", effect_key: "refund:ch_1:10000", resource: "payment:ch_1" }',
        '    expect: { decision: alow }',
        'ctrlrun.test.yaml:7:25: error: unknown decision `alow`',
      ],
      [
        '    args: { payment_id: ch_1, amount: 10001 }',
        '    args: { payment_id: ch_1, amount: 100.5 }',
        'ctrlrun.test.yaml:10:39: error: this value cannot be an argument here (a float)',
      ],
      [
        '    action: stripe.refund\n    args: { payment_id: ch_1, amount: 10001 }',
        '    acton: stripe.refund\n    args: { payment_id: ch_1, amount: 10001 }',
        'unknown key `acton` in a case',
      ],
      ['schema: ctrlrun.policy-test/v1', 'schema: ctrlrun.policy-test/v9', 'unsupported schema `ctrlrun.policy-test/v9`'],
    ];
    const original = readFileSync(file, 'utf8');
    for (const [from, to, message] of cases) {
      expect(original).toContain(from);
      writeFileSync(file, original.replace(from, to));
      const r = await cli(['test'], { cwd: dir });
      expect(r.code, to).toBe(2);
      expect(r.stderr).toContain(message);
      expect(r.stderr).toContain('hint');
      expect(r.stdout).toBe('');
    }
    writeFileSync(file, original);
    const missing = await cli(['test', 'nope.test.yaml'], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('the policy test file does not exist');
  });

  it("args written as JSON text are parsed as the runtime parses the model's (a bigint, a duplicate key)", async () => {
    const policy = parsePolicy(
      'schema: ctrlrun.policy/v2\nactions:\n  pay:\n    rules:\n      - when: { amount_gt: 9007199254740993 }\n        decision: deny\n      - decision: allow\n',
      '/p/ctrlrun.yaml',
    ).value!;
    const suite = parseTestFile(
      [
        'schema: ctrlrun.policy-test/v1',
        'cases:',
        '  - { action: pay, args: \'{"amount": 9007199254740994}\', expect: { decision: deny, rule: 0 } }',
        '  - { action: pay, args: { amount: 9007199254740994 }, expect: { decision: deny, rule: 0 } }',
        '  - { action: pay, args: \'{"amount": 9007199254740993}\', expect: { decision: allow, rule: 1 } }',
        '  - { action: pay, args: \'{"amount": 1, "amount": 2}\', expect: { decision: deny, reason: invalid_argument } }',
        '  - { action: nope, expect: { decision: deny, reason: unknown_action } }',
      ].join('\n'),
      '/p/ctrlrun.test.yaml',
    ).value!;
    const run = runTests(suite, createDecider(policy));
    expect(run.results.map((r) => r.mismatches)).toEqual([[], [], [], [], []]);
  });

  it("init's starter file parses, passes against its policy, and reaches every rule a call can reach", async () => {
    const texts = [
      readFileSync(path.join(REFUND, 'ctrlrun.yaml'), 'utf8'),
      [
        'schema: ctrlrun.policy/v4',
        'actions:',
        '  files.write:',
        '    resource: "file:{path}"',
        '    data: { body: pii }',
        '    rules:',
        '      - when: { path_in: ["/tmp/a", "/tmp/b"], size_lt: 100 }',
        '        decision: allow',
        '      - when: { data_scope_in: [pii] }',
        '        decision: approve',
        '      - when: { mode_neq: "append", size_gte: 100 }',
        '        decision: deny',
        '      - when: { force_eq: true }',
        '        decision: approve',
        '      - decision: deny',
      ].join('\n'),
    ];
    for (const text of texts) {
      const policy = parsePolicy(text, '/p/ctrlrun.yaml').value!;
      const starter = starterTestText(policy);
      expect(starter.split('\n')[0]).toBe('# yaml-language-server: $schema=./node_modules/ctrlrun-gen/policy-test.schema.json');
      const suite = parseTestFile(starter, '/p/ctrlrun.test.yaml');
      expect(suite.diagnostics).toEqual([]);
      const run = runTests(suite.value!, createDecider(policy));
      expect(run.failed).toBe(0);
      expect(run.coverage.rulesUnreached).toEqual([]);
      // each comparison's boundary and the value just past it are cases
      if (text.includes('size_lt')) {
        const sizes = suite.value!.cases.map((c) => (c.args as Record<string, unknown>)['size']);
        expect(sizes).toContain(99);
        expect(sizes).toContain(100);
        expect(suite.value!.cases.some((c) => (c.args as Record<string, unknown>)['path'] === '/tmp/b')).toBe(true);
      }
    }
  });
});

/** The refund desk without its policy and manifest, after `init`. */
async function freshInit() {
  const dir = copyFixture('refund-desk');
  dirs.push(dir);
  rmSync(path.join(dir, 'ctrlrun.yaml'));
  rmSync(path.join(dir, 'ctrlrun.tools.yaml'));
  const init = await cli(['init'], { cwd: dir });
  expect(init.code, init.stderr).toBe(0);
  return { dir, init };
}

describe('init writes the starter tests', () => {
  it('beside a fresh policy, and `test` passes on it; an existing test file is kept', async () => {
    const { dir, init } = await freshInit();
    expect(init.stdout).toContain('wrote ctrlrun.test.yaml');
    const r = await cli(['test', '--coverage'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('coverage: 3/3 rules reached (100%)');
    writeFileSync(path.join(dir, 'ctrlrun.test.yaml'), 'schema: ctrlrun.policy-test/v1\ncases: []\n');
    const again = await cli(['init', '--force'], { cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(path.join(dir, 'ctrlrun.test.yaml'), 'utf8')).toBe('schema: ctrlrun.policy-test/v1\ncases: []\n');
  });
});

describe("the starter tests stay within the tools' parameter schemas", () => {
  // a case the schema refuses (a required argument left out) expects a decision no call gets: the runtime checks the schema first
  const refundCases = (dir: string, action = 'stripe.refund') =>
    parseTestFile(readFileSync(path.join(dir, 'ctrlrun.test.yaml'), 'utf8'), path.join(dir, 'ctrlrun.test.yaml'))
      .value!.cases.filter((c) => c.action === action)
      .map((c) => c.args as Record<string, unknown>);

  it('a catch-all rule after an `in` on a required enum is reached by another enum value, not by leaving the argument out', () => {
    const text = [
      'schema: ctrlrun.policy/v6',
      'actions:',
      '  memory.read:',
      '    rules:',
      '      - when: { target_in: [today, yesterday] }',
      '        decision: allow',
      '      - decision: approve',
    ].join('\n');
    const policy = parsePolicy(text, '/p/ctrlrun.yaml').value!;
    const loc = { file: '/p/tools.ts', line: 1, column: 1 };
    const target = {
      name: 'target',
      type: 'enum' as const,
      enumValues: ['long_term', 'today', 'yesterday'],
      required: true,
      nullable: false,
      lo: null,
      hi: null,
      loc,
    };
    const schemas = {
      byAction: new Map([['memory.read', { action: 'memory.read', tools: ['read'], loc, params: new Map([['target', target]]) }]]),
      unread: new Map(),
    };
    const suite = parseTestFile(starterTestText(policy, { policyPath: 'ctrlrun.yaml', schemas }), '/p/ctrlrun.test.yaml').value!;
    expect(suite.cases.map((c) => [c.args, c.expect.decision])).toEqual([
      [{ target: 'today' }, 'allow'],
      [{ target: 'yesterday' }, 'allow'],
      [{ target: 'long_term' }, 'approve'],
    ]);
    const run = runTests(suite, createDecider(policy));
    expect([run.failed, run.coverage.rulesUnreached]).toEqual([0, []]);
  });

  it('init on a fresh policy: every action decision-only, each case with the required arguments', async () => {
    const { dir } = await freshInit();
    expect(refundCases(dir, 'refund')).toEqual([{ payment_id: 'payment_id-1', amount: 0 }]);
    expect(refundCases(dir, 'lookup_charge')).toEqual([{ payment_id: 'payment_id-1' }]);
  });

  it('init --force after the policy was edited: no case leaves out `amount` or `payment_id`, and `test` passes with full coverage', async () => {
    const dir = copyFixture('refund-desk');
    dirs.push(dir);
    const init = await cli(['init', '--force'], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    const cases = refundCases(dir);
    expect(cases.length).toBeGreaterThan(3);
    for (const args of cases) expect(Object.keys(args).sort()).toEqual(['amount', 'payment_id']);
    const r = await cli(['test', '--coverage'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('coverage: 5/5 rules reached (100%)');
  });
});

describe("test checks each case as the runtime would: the tool's schema first, then an action the policy has", () => {
  const CASES = `schema: ctrlrun.policy-test/v1
cases:
  - name: a textual amount, expected as the rules would decide it
    action: stripe.refund
    args: { payment_id: ch_1, amount: "4500" }
    expect: { decision: deny, rule: 2 }
  - name: the tool refuses a textual amount before any rule
    action: stripe.refund
    args: { payment_id: ch_1, amount: "4500" }
    expect: { decision: deny, reason: invalid_arguments }
  - name: a misspelled action
    action: acounts.close
    args: { account: a_1 }
    expect: { decision: deny }
  - name: an unlisted action is denied
    action: accounts.delete
    expect: { decision: deny, reason: unknown_action }
  - name: a refund within the schema
    action: stripe.refund
    args: { payment_id: ch_1, amount: 4500 }
    expect: { decision: allow, rule: 0 }
`;

  it('fails a case whose arguments the tool refuses (saying so), and one naming an unknown action (with a did-you-mean)', async () => {
    const dir = copyFixture('refund-desk');
    dirs.push(dir);
    writeFileSync(path.join(dir, 'ctrlrun.test.yaml'), CASES);
    const r = await cli(['test'], { cwd: dir });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain('FAIL a textual amount, expected as the rules would decide it');
    expect(r.stdout).toContain(
      'why: the parameter schema of tool `refund` refuses these arguments (/amount: must be integer, got string), so at run time the call is refused before any rule',
    );
    expect(r.stdout).toContain('PASS the tool refuses a textual amount before any rule');
    expect(r.stdout).toContain(
      'ctrlrun.test.yaml:12:13: the policy has no action `acounts.close` (a call to it is denied unknown_action); did you mean `accounts.close`?',
    );
    expect(r.stdout).toContain('PASS an unlisted action is denied');
    expect(r.stdout).toContain('5 cases: 3 passed, 2 failed');
    const json = JSON.parse((await cli(['test', '--format', 'json'], { cwd: dir })).stdout);
    expect(json.cases[0].actual.reason).toBe('invalid_arguments');
    expect(json.cases[2].mismatches).toEqual([expect.objectContaining({ field: 'action', actual: 'acounts.close', line: 12, column: 13 })]);
  });
});
