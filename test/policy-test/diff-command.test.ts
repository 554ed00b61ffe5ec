import { spawnSync } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLASS_LIMIT } from '../../src/policy/exact/patterns.js';
import { parsePolicy } from '../../src/policy/load.js';
import { diffPolicies } from '../../src/policy-test/diff.js';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';
import { expectGolden } from './golden.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));
const DIFF = path.join(FIXTURES, 'policy-test/diff');
const SCHEMA = path.join(FIXTURES, 'policy-test/diff-schema');

function policy(rules: string): ReturnType<typeof parsePolicy>['value'] & object {
  return parsePolicy(`schema: ctrlrun.policy/v6\nactions:\n  pay:\n${rules}`, '/p/ctrlrun.yaml').value!;
}

describe('ctrlrun-gen diff', () => {
  it('lists actions added, removed and changed with the regions of calls that change (golden files)', async () => {
    for (const [format, ext] of [
      ['text', 'text'],
      ['json', 'json'],
      ['markdown', 'md'],
    ] as const) {
      const r = await cli(['diff', 'base.yaml', 'head.yaml', '--format', format], { cwd: DIFF });
      expect(r.code, r.stderr).toBe(1);
      expectGolden(r.stdout, path.join(DIFF, `expected.diff.${ext}`));
    }
  });

  it("keeps the calls within each tool's parameter schema, and says where no schema was read (golden files)", async () => {
    for (const [format, ext] of [
      ['text', 'text'],
      ['json', 'json'],
      ['markdown', 'md'],
    ] as const) {
      const r = await cli(['diff', 'base.yaml', '--format', format], { cwd: SCHEMA });
      expect(r.code, r.stderr).toBe(1);
      expectGolden(r.stdout, path.join(SCHEMA, `expected.diff.${ext}`));
    }
    const report = JSON.parse((await cli(['diff', 'base.yaml', '--format', 'json'], { cwd: SCHEMA })).stdout);
    const action = (id: string) => report.actions.find((a: { action: string }) => a.action === id);
    // refund: the calls whose decision changes all lack the required amount or send it as text
    expect(action('stripe.refund')).toBeUndefined();
    // transfer: the range 1..500 and the enum bound the regions; 500 is the schema's own edge
    expect(action('bank.transfer').schema).toEqual({ tools: ['transfer'] });
    const moved = action('bank.transfer').regions.map((r: { witness: { args: { amount: number; method: string } } }) => [
      r.witness.args.amount,
      r.witness.args.method,
    ]);
    expect(moved).toEqual([
      [400, 'wire'],
      [500, 'ach'],
    ]);
    expect(action('bank.transfer').regions.map((r: { where: unknown }) => r.where)).toEqual([
      [
        { name: 'amount', text: '1..400' },
        { name: 'method', text: '"wire"' },
      ],
      [{ name: 'amount', text: '401..500' }],
    ]);
    // add_note: its schema is imported, so its calls are not limited (a textual size, a missing one)
    expect(action('notes.add').schema.unread).toContain('the parameters of tool `add_note` cannot be read statically');
    expect(action('notes.add').regions[0].where[0].text).toBe('not ..100');
  });

  it('without a manifest the same policies show the calls outside the schema, with a note', async () => {
    const dir = makeTempDir('diff-noschema-');
    dirs.push(dir);
    copyFileSync(path.join(SCHEMA, 'base.yaml'), path.join(dir, 'base.yaml'));
    copyFileSync(path.join(SCHEMA, 'ctrlrun.yaml'), path.join(dir, 'head.yaml'));
    const r = await cli(['diff', 'base.yaml', 'head.yaml', '--format', 'json'], { cwd: dir });
    const report = JSON.parse(r.stdout);
    expect(report.schema_note).toBe("no ctrlrun.tools.yaml found, so the calls are not limited to the tools' parameter schemas");
    const refund = report.actions.find((a: { action: string }) => a.action === 'stripe.refund');
    expect(refund.schema).toBeUndefined();
    // deny → approve for every amount that is no integer, or is missing
    expect(refund.regions.map((r: { witness: { args: unknown }; what: string[] }) => [r.witness.args, r.what])).toEqual([
      [{ payment_id: 'x', amount: 'x' }, ['deny → approve']],
    ]);
    expect(refund.regions[0].where).toEqual([
      { name: 'payment_id', text: 'any integer or any non-empty string' },
      { name: 'amount', text: 'not an integer' },
    ]);
    expect((await cli(['diff', 'base.yaml', 'head.yaml'], { cwd: dir })).stdout).toContain(
      "note: no ctrlrun.tools.yaml found, so the calls are not limited to the tools' parameter schemas",
    );
  });

  it('two files in a project whose manifest does not load: exit 2 naming the manifest, not a diff without schemas', async () => {
    const dir = makeTempDir('diff-broken-manifest-');
    dirs.push(dir);
    copyFileSync(path.join(SCHEMA, 'base.yaml'), path.join(dir, 'base.yaml'));
    copyFileSync(path.join(SCHEMA, 'ctrlrun.yaml'), path.join(dir, 'head.yaml'));
    writeFileSync(path.join(dir, 'ctrlrun.tools.yaml'), 'schema: [unclosed\n');
    const r = await cli(['diff', 'base.yaml', 'head.yaml', '--format', 'json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('ctrlrun.tools.yaml');
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
  });

  it('--fail-on: looser (default) fails on less oversight only; any on any change; never never', async () => {
    // base -> head loosens; head -> base only tightens (and removes an approve action: deny)
    expect((await cli(['diff', 'base.yaml', 'head.yaml'], { cwd: DIFF })).code).toBe(1);
    const back = await cli(['diff', 'head.yaml', 'base.yaml'], { cwd: DIFF });
    expect(back.code, back.stdout).toBe(1); // files.write /tmp/b approve -> allow is looser
    expect((await cli(['diff', 'base.yaml', 'head.yaml', '--fail-on', 'never'], { cwd: DIFF })).code).toBe(0);
    const same = await cli(['diff', 'base.yaml', 'base.yaml', '--fail-on', 'any'], { cwd: DIFF });
    expect(same.code).toBe(0);
    expect(same.stdout).toContain('no change: every call is decided as before');
    const dir = makeTempDir('diff-');
    dirs.push(dir);
    writeFileSync(path.join(dir, 'a.yaml'), 'schema: ctrlrun.policy/v2\nactions:\n  pay:\n    decision: allow\n');
    writeFileSync(path.join(dir, 'b.yaml'), 'schema: ctrlrun.policy/v2\nactions:\n  pay:\n    decision: approve\n');
    expect((await cli(['diff', 'a.yaml', 'b.yaml'], { cwd: dir })).code).toBe(0);
    expect((await cli(['diff', 'a.yaml', 'b.yaml', '--fail-on', 'any'], { cwd: dir })).code).toBe(1);
  });

  it('reads the base from a git revision of the working policy', async () => {
    const dir = makeTempDir('diff-git-');
    dirs.push(dir);
    const git = (...args: string[]) => spawnSync('git', args, { cwd: dir, encoding: 'utf8' });
    git('init', '-q', '-b', 'main');
    copyFileSync(path.join(DIFF, 'base.yaml'), path.join(dir, 'ctrlrun.yaml'));
    git('add', 'ctrlrun.yaml');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'base');
    copyFileSync(path.join(DIFF, 'head.yaml'), path.join(dir, 'ctrlrun.yaml'));
    const r = await cli(['diff', 'main', '--format', 'json'], { cwd: dir });
    expect(r.code, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.base.label).toBe('main:ctrlrun.yaml');
    expect(report.head.label).toBe('ctrlrun.yaml');
    const fileDiff = JSON.parse((await cli(['diff', 'base.yaml', 'head.yaml', '--format', 'json'], { cwd: DIFF })).stdout);
    expect(report.actions).toEqual(fileDiff.actions);
    const both = await cli(['diff', 'main:ctrlrun.yaml', 'ctrlrun.yaml', '--format', 'json'], { cwd: dir });
    expect(JSON.parse(both.stdout).actions).toEqual(fileDiff.actions);
    const bad = await cli(['diff', 'no-such-branch'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('git has no ctrlrun.yaml at revision `no-such-branch`');
  });

  it('finds the exact region of each change: a boundary, an `in` value, every non-integer, an integer beyond 2^53', () => {
    const regions = (d: ReturnType<typeof diffPolicies>) =>
      d.actions[0]!.regions.map((r) => [r.where.map((w) => `${w.name} ${w.text}`).join('; '), r.witness.args]);
    const d1 = diffPolicies(
      policy('    rules:\n      - when: { amount_lte: 100 }\n        decision: allow\n      - decision: approve\n'),
      policy('    rules:\n      - when: { amount_lt: 100 }\n        decision: allow\n      - decision: approve\n'),
    );
    expect(regions(d1)).toEqual([['amount 100', { amount: 100 }]]);
    const d2 = diffPolicies(
      policy('    rules:\n      - when: { to_in: [a, b, c] }\n        decision: allow\n      - decision: deny\n'),
      policy('    rules:\n      - when: { to_in: [a, c] }\n        decision: allow\n      - decision: deny\n'),
    );
    expect(regions(d2)).toEqual([['to "b"', { to: 'b' }]]);
    // a catch-all allow made conditional: every call without an integer amount changes, tighter; the
    // integers keep their decision by another rule (other)
    const d3 = diffPolicies(
      policy('    rules:\n      - when: { amount_gt: 100 }\n        decision: approve\n      - decision: allow\n'),
      policy('    rules:\n      - when: { amount_lte: 100 }\n        decision: allow\n      - decision: approve\n'),
    );
    expect(regions(d3)).toEqual([
      ['amount ..100', { amount: 100 }],
      ['amount not an integer', { amount: 'x' }],
      ['amount 101..', { amount: 101 }],
    ]);
    expect(d3.actions[0]!.regions.map((r) => [r.class, r.what])).toEqual([
      ['other', ['allow by rule[1] → by rule[0]']],
      ['tighter', ['allow → approve']],
      ['other', ['approve by rule[0] → by rule[1]']],
    ]);
    // an integer beyond 2^53 keeps its exact boundary
    const d4 = diffPolicies(
      policy('    rules:\n      - when: { n_lte: 9007199254740993 }\n        decision: allow\n'),
      policy('    rules:\n      - when: { n_lte: 9007199254740992 }\n        decision: allow\n'),
    );
    expect(regions(d4)).toEqual([['n 9007199254740993', { n: 9007199254740993n }]]);
  });

  it('a policy-wide loosening (mode observe, authority dropped) fails --fail-on looser', () => {
    const a = parsePolicy('schema: ctrlrun.policy/v3\nmode: enforce\nactions:\n  pay:\n    decision: approve\n', '/p/a.yaml').value!;
    const b = parsePolicy('schema: ctrlrun.policy/v3\nmode: observe\nactions:\n  pay:\n    decision: approve\n', '/p/b.yaml').value!;
    const d = diffPolicies(a, b);
    expect(d.settings).toEqual([{ field: 'mode', before: 'enforce', after: 'observe', class: 'looser', why: 'nothing is blocked or asked any more' }]);
    expect(d.summary.looserSettings).toBe(1);
  });
  it('refuses, exit 2 with a hint, an action whose grant patterns are too many classes to judge exactly', async () => {
    const dir = makeTempDir('diff-complex-');
    dirs.push(dir);
    const grant = (agent: string) =>
      `schema: ctrlrun.policy/v7\nauthority:\n  grants:\n    - id: g\n      subject: { agent: "${agent}" }\n      actions: [pay]\nactions:\n  pay:\n    decision: allow\n`;
    writeFileSync(path.join(dir, 'base.yaml'), grant('support'));
    // one literal of more characters than the class limit: as many prefixes, each a class of agents
    writeFileSync(path.join(dir, 'head.yaml'), grant(`${'a'.repeat(CLASS_LIMIT + 1)}*`));
    const r = await cli(['diff', 'base.yaml', 'head.yaml'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('pay: the patterns combine into too many classes of strings, so diff cannot judge it exactly');
    expect(r.stderr).toContain('hint: write fewer or simpler grant patterns for this action');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
