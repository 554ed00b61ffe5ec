import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, cliProcess } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { copyFixture, removeDir, writeFiles } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function refundDesk(files: Record<string, string | Buffer> = {}): string {
  const dir = copyFixture('refund-desk', 'validate-');
  dirs.push(dir);
  writeFiles(dir, files);
  return dir;
}

const STACK = /^\s+at .*[(\s]\S+:\d+:\d+\)?$/m;

/** exit 2; every expected `file:line:col: error:` printed with a code frame; no stack trace. */
async function expectRefused(dir: string, located: string[], args: string[] = ['validate']) {
  const r = await cli(args, { cwd: dir });
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  for (const loc of located) expect(r.stderr).toContain(`${loc}: error:`);
  expect(r.stderr.match(/: error: /g)?.length).toBe(located.length);
  expect(r.stderr).not.toMatch(STACK);
  expect(r.stderr).not.toMatch(/internal error/);
  return r;
}

const policy = (body: string) =>
  `schema: ctrlrun.policy/v6\nactions:\n  stripe.refund:\n${body}  stripe.charge.read:\n    decision: allow\n  accounts.close:\n    decision: deny\n`;

describe('validate', () => {
  it('exits 0 with a one-line summary on the sample repo, from a subdirectory too', async () => {
    const dir = refundDesk();
    for (const args of [['validate'], ['validate', '--cwd', 'src']]) {
      const r = await cli(args, { cwd: dir });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(
        /^ok: (\.\.\/)?ctrlrun\.yaml \(ctrlrun\.policy\/v6, 3 actions, hash sha256:[0-9a-f]{12}\); (\.\.\/)?ctrlrun\.tools\.yaml maps 3 tools\n$/,
      );
      expect(r.stderr).toBe('');
    }
  });

  it('prints every error with file:line:col, the path, a code frame and a hint', async () => {
    const dir = refundDesk({ 'ctrlrun.yaml': readFileSync(path.join(FIXTURES, 'policy/invalid/many-errors.yaml'), 'utf8') });
    const r = await expectRefused(dir, [
      'ctrlrun.yaml:3:1',
      'ctrlrun.yaml:3:7',
      'ctrlrun.yaml:6:5',
      'ctrlrun.yaml:7:21',
      'ctrlrun.yaml:9:9',
      'ctrlrun.yaml:9:29',
      'ctrlrun.yaml:9:35',
      'ctrlrun.yaml:10:9',
      'ctrlrun.yaml:13:5',
      'ctrlrun.yaml:13:12',
    ]);
    expect(r.stderr).toContain('  at actions.stripe.refund.rules[0].decison');
    expect(r.stderr).toContain('> 10 |         decison: allow');
    expect(r.stderr).toContain('hint: did you mean `decision`?');
    expect(r.stderr).toContain('`mode` needs ctrlrun.policy/v3 or later');
    expect(r.stderr).toMatch(/10 errors in the policy and manifest\n$/);
  });

  it('reports the manifest and the policy together', async () => {
    const dir = refundDesk({
      'ctrlrun.yaml': policy('    decison: allow\n'),
      'ctrlrun.tools.yaml': 'schema: ctrlrun.tools/v1\ntools:\n  - tool: refund\n    action: stripe.refund\n  - tol: x\n    action: accounts.close\n',
    });
    await expectRefused(dir, ['ctrlrun.tools.yaml:5:5', 'ctrlrun.tools.yaml:5:5', 'ctrlrun.yaml:3:3', 'ctrlrun.yaml:4:5']);
  });

  it('loads an integer beyond 2^53 (CTRLRun compares integers of any size)', async () => {
    const dir = refundDesk({ 'ctrlrun.yaml': policy('    rules:\n      - when: { amount_lte: 9007199254740993 }\n        decision: allow\n') });
    const r = await cli(['validate'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ok: ctrlrun\.yaml/);
  });

  it('--policy and --manifest override discovery', async () => {
    const dir = refundDesk({ 'other.yaml': policy('    decision: deny\n') });
    const r = await cli(['validate', '--policy', '../other.yaml'], { cwd: path.join(dir, 'src') });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('other.yaml (ctrlrun.policy/v6');
    const bad = await cli(['validate', '--manifest', 'nope.yaml'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('nope.yaml:1:1: error: the manifest file does not exist');
  });

  it('with no manifest anywhere: a clear error, or the policy alone when --policy is given', async () => {
    const dir = refundDesk();
    const outside = path.join(dir, 'src');
    rmSync(path.join(dir, 'ctrlrun.tools.yaml'));
    const none = await cli(['validate'], { cwd: outside });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no ctrlrun\.tools\.yaml found .*run `ctrlrun-gen init`/);
    const alone = await cli(['validate', '--policy', '../ctrlrun.yaml'], { cwd: outside });
    expect(alone.code, alone.stderr).toBe(0);
    expect(alone.stdout).toMatch(/only the policy was checked/);
  });

  it('prints warnings but exits 0, a dead rule once (the analysis with its witness, not the loader too)', async () => {
    const dir = refundDesk({ 'ctrlrun.yaml': policy('    rules:\n      - decision: deny\n      - decision: allow\n') });
    const r = await cli(['validate'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('ctrlrun.yaml:6:9: warning: rule 1 of stripe.refund (allow when no conditions) is never reached');
    expect(r.stderr.match(/ctrlrun\.yaml:6:9: warning/g)).toHaveLength(1);
    // the policy alone (no manifest) too
    const alone = await cli(['validate', '--policy', path.join(dir, 'ctrlrun.yaml'), '--cwd', '/'], { cwd: '/' });
    expect(alone.stderr.match(/ctrlrun\.yaml:6:9: warning/g), alone.stderr).toHaveLength(1);
  });
});

describe('bad input it must survive (validate exits 2 with a located message, no stack trace)', () => {
  const cases: Array<[string, Record<string, string | Buffer>, string[]]> = [
    ['malformed YAML', { 'ctrlrun.yaml': 'schema: ctrlrun.policy/v6\nactions:\n  a: { decision: allow\n' }, ['ctrlrun.yaml:4:1']],
    ['a non-mapping document', { 'ctrlrun.yaml': '- schema: ctrlrun.policy/v6\n' }, ['ctrlrun.yaml:1:1']],
    ['duplicate keys', { 'ctrlrun.yaml': policy('    decision: allow\n    decision: deny\n') }, ['ctrlrun.yaml:5:5']],
    ['an empty file', { 'ctrlrun.yaml': '' }, ['ctrlrun.yaml:1:1']],
    ['a 5 MB file', { 'ctrlrun.yaml': `schema: ctrlrun.policy/v6\n${'#'.repeat(5 * 1024 * 1024)}\n` }, ['ctrlrun.yaml:1:1']],
    [
      'an alias bomb',
      { 'ctrlrun.yaml': readFileSync(path.join(FIXTURES, 'policy/invalid/alias-bomb.yaml'), 'utf8').replace(/a\.b/, 'stripe.refund') },
      ['ctrlrun.yaml:3:1', 'ctrlrun.yaml:4:1', 'ctrlrun.yaml:5:1', 'ctrlrun.yaml:6:1', 'ctrlrun.yaml:7:1', 'ctrlrun.yaml:8:1', 'ctrlrun.yaml:12:24'],
    ],
    ['a float', { 'ctrlrun.yaml': policy('    rules:\n      - when: { amount_lte: 100.50 }\n        decision: allow\n') }, ['ctrlrun.yaml:5:29']],
    [
      'NaN and .inf',
      { 'ctrlrun.yaml': policy('    rules:\n      - when: { amount_lte: .inf, amount_eq: .NaN }\n        decision: allow\n') },
      ['ctrlrun.yaml:5:29', 'ctrlrun.yaml:5:46'],
    ],
    [
      'a key from a newer schema version',
      { 'ctrlrun.yaml': policy('    approvals_required: 2\n    decision: approve\n').replace('v6', 'v5') },
      ['ctrlrun.yaml:4:5'],
    ],
    [
      'every reserved subject',
      {
        'ctrlrun.yaml': readFileSync(path.join(FIXTURES, 'policy/invalid/reserved-subjects.yaml'), 'utf8')
          .replace(/a\.b:/, 'stripe.refund:')
          .replace('actions:\n', 'actions:\n  stripe.charge.read: { decision: allow }\n  accounts.close: { decision: deny }\n'),
      },
      [9, 10, 11, 12, 13, 14, 15, 16, 17].map((l) => `ctrlrun.yaml:${l}:11`),
    ],
    ['a template with a stray brace', { 'ctrlrun.yaml': policy('    effect: "refund:{payment_id}}"\n    decision: allow\n') }, ['ctrlrun.yaml:4:33']],
    [
      'a manifest that maps one tool twice',
      { 'ctrlrun.tools.yaml': 'schema: ctrlrun.tools/v1\ntools:\n  - tool: refund\n    action: stripe.refund\n  - tool: refund\n    action: accounts.close\n' },
      ['ctrlrun.tools.yaml:5:11'],
    ],
    [
      'a manifest that names a missing action',
      { 'ctrlrun.tools.yaml': 'schema: ctrlrun.tools/v1\ntools:\n  - tool: refund\n    action: stripe.refunds\n' },
      ['ctrlrun.tools.yaml:4:13'],
    ],
  ];
  for (const [what, files, located] of cases) {
    it(what, async () => {
      const r = await expectRefused(refundDesk(files), located);
      expect(r.stderr).toMatch(/hint: |> \d+ \|/);
    });
  }

  it('names both files when a manifest action is missing from the policy', async () => {
    const r = await expectRefused(refundDesk(cases.at(-1)![1]), ['ctrlrun.tools.yaml:4:13']);
    expect(r.stderr).toContain('ctrlrun.yaml:10:3: `stripe.refund` is defined here');
    expect(r.stderr).toContain('hint: did you mean `stripe.refund`?');
  });
});

describe('validate as a process', () => {
  it('the built binary exits 0 on the sample and 2 on a bad policy, with no stack trace', () => {
    const good = cliProcess(['validate'], { cwd: refundDesk() });
    expect(good.code, good.stderr).toBe(0);
    expect(good.stdout).toMatch(/^ok: /);
    const bad = cliProcess(['validate'], { cwd: refundDesk({ 'ctrlrun.yaml': policy('    decision: alow\n') }) });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('ctrlrun.yaml:4:15: error: `alow` is not one of `allow`, `approve`, `deny`');
    expect(bad.stderr).not.toMatch(STACK);
  });
});

const TOOLS = readFileSync(path.join(FIXTURES, 'refund-desk/src/tools.ts'), 'utf8');

describe('validate: fail-open shapes (issue 14)', () => {
  it('warns on a conditional approve followed by a catch-all allow (a call that omits or mistypes the argument is allowed), exit 0', async () => {
    const dir = refundDesk({
      'ctrlrun.yaml': policy('    rules:\n      - when: { amount_gt: 1000 }\n        decision: approve\n      - decision: allow\n'),
      // an optional amount: a call may leave it out
      'src/tools.ts': TOOLS.replace('amount: z.number().int(),', 'amount: z.number().int().optional(),'),
    });
    const r = await cli(['validate'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('ctrlrun.yaml:5:9: warning: rule 0 of stripe.refund (approve when amount_gt) is followed by a catch-all allow (rule 1)');
    expect(r.stderr).toContain('omits `amount`, or sends it with another type');
  });
  it("says nothing of an argument the tool's schema makes required and typed (the runtime refuses the call first), and names only the others", async () => {
    const rules = (when: string) => policy(`    rules:\n      - when: { ${when} }\n        decision: approve\n      - decision: allow\n`);
    const pinned = await cli(['validate'], { cwd: refundDesk({ 'ctrlrun.yaml': rules('amount_gt: 1000') }) });
    expect(pinned.code, pinned.stderr).toBe(0);
    expect(pinned.stderr).not.toContain('catch-all');
    // `reason` is optional in the sample's schema: a call without it skips the approve
    const mixed = await cli(['validate'], { cwd: refundDesk({ 'ctrlrun.yaml': rules('amount_gt: 1000, reason_eq: fraud') }) });
    expect(mixed.stderr).toContain('a call that omits `reason`, or sends it with another type, skips the approve and is allowed');
    // a nullable amount: null skips the comparison, so the warning stays
    const nullable = await cli(['validate'], {
      cwd: refundDesk({
        'ctrlrun.yaml': rules('amount_gt: 1000'),
        'src/tools.ts': TOOLS.replace('amount: z.number().int(),', 'amount: z.number().int().nullable(),'),
      }),
    });
    expect(nullable.stderr).toContain('omits `amount`');
    // the schema read from an import is not known: the warning stays, and the summary says so
    const opaque = await cli(['validate'], {
      cwd: refundDesk({
        'ctrlrun.yaml': rules('amount_gt: 1000'),
        'src/tools.ts': TOOLS.replace(
          /parameters: z\.object\(\{\n {4}payment_id: z\.string\(\),\n {4}amount/,
          'parameters: refundShape,\n  _x: z.object({\n    payment_id: z.string(),\n    amount',
        ),
      }),
    });
    expect(opaque.stderr).toContain('omits `amount`');
    expect(opaque.stdout).toContain("not judged within a tool's parameter schema (not read from the code; `generate` says why): stripe.refund");
  });
  it('says nothing when the catch-all is deny (the sample)', async () => {
    const r = await cli(['validate'], { cwd: refundDesk() });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('catch-all');
  });
});

describe('validate: colliding effect keys (issue 14.8)', () => {
  it('warns when two free-text arguments are pasted into one key (pay_1:promo + x and pay_1 + promo:x), exit 0', async () => {
    const dir = refundDesk({ 'ctrlrun.yaml': policy('    effect: "refund:{payment_id}:{note}"\n    decision: approve\n') });
    const r = await cli(['validate'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'ctrlrun.yaml:4:13: warning: the effect key `refund:{payment_id}:{note}` of stripe.refund pastes `payment_id` and `note` together',
    );
  });
  it('says nothing for the sample (`refund:{payment_id}:{amount}`: amount is compared with integers only) or for one argument', async () => {
    expect((await cli(['validate'], { cwd: refundDesk() })).stderr).not.toContain('effect key');
    const one = refundDesk({ 'ctrlrun.yaml': policy('    effect: "refund:{payment_id}"\n    decision: approve\n') });
    expect((await cli(['validate'], { cwd: one })).stderr).not.toContain('effect key');
  });
});
