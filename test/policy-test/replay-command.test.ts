import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';
import { expectGolden } from './golden.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));
const REPLAY = path.join(FIXTURES, 'policy-test/replay');

describe('ctrlrun-gen replay --calls', () => {
  it('summarizes the changes under a loosened and a tightened policy by action, transition and rule (golden files)', async () => {
    for (const candidate of ['loosened', 'tightened']) {
      for (const [format, ext] of [
        ['text', 'text'],
        ['json', 'json'],
        ['markdown', 'md'],
      ] as const) {
        const r = await cli(['replay', '--policy', `${candidate}.yaml`, '--calls', 'calls.jsonl', '--format', format, '--fail-on', 'never'], { cwd: REPLAY });
        expect(r.code, r.stderr).toBe(0);
        expectGolden(r.stdout, path.join(REPLAY, `expected.${candidate}.${ext}`));
      }
    }
    const loose = JSON.parse((await cli(['replay', '--policy', 'loosened.yaml', '--calls', 'calls.jsonl', '--format', 'json'], { cwd: REPLAY })).stdout);
    expect(loose.changes).toContainEqual(
      expect.objectContaining({ action: 'stripe.refund', before: 'approve', after: 'allow', reason: 'rule[0]', looser: true, count: 2 }),
    );
    expect(loose.changes).toContainEqual(expect.objectContaining({ action: 'accounts.close', before: 'deny', after: 'approve', count: 1 }));
  });

  it('a call whose hashed argument the candidate reads is undecidable; one the candidate does not read is replayed', async () => {
    const tight = JSON.parse((await cli(['replay', '--policy', 'tightened.yaml', '--calls', 'calls.jsonl', '--format', 'json'], { cwd: REPLAY })).stdout);
    expect(tight.undecidable).toEqual([{ action: 'stripe.refund', hashedArgs: ['note'], count: 1, example: { line: 8, callId: 'c8' } }]);
    const loose = JSON.parse((await cli(['replay', '--policy', 'loosened.yaml', '--calls', 'calls.jsonl', '--format', 'json'], { cwd: REPLAY })).stdout);
    expect(loose.undecidable).toEqual([]);
  });

  it('--fail-on looser fails the loosened candidate only; any fails both; --action and --since filter', async () => {
    const run = (...a: string[]) => cli(['replay', '--calls', 'calls.jsonl', ...a], { cwd: REPLAY });
    expect((await run('--policy', 'loosened.yaml')).code).toBe(1);
    expect((await run('--policy', 'tightened.yaml')).code).toBe(0);
    expect((await run('--policy', 'tightened.yaml', '--fail-on', 'any')).code).toBe(1);
    const since = JSON.parse((await run('--policy', 'loosened.yaml', '--since', '2026-12-01T00:00:00Z', '--format', 'json')).stdout);
    expect(since.summary.replayed).toBe(5);
    const refunds = JSON.parse((await run('--policy', 'loosened.yaml', '--action', 'accounts.close', '--format', 'json')).stdout);
    expect(refunds.summary).toMatchObject({ replayed: 1, changed: 1 });
  });

  it("calls recorded without a decision are compared with the working policy's decision", async () => {
    const dir = copyFixture('policy-test/replay');
    dirs.push(dir);
    writeFileSync(path.join(dir, 'bare.jsonl'), '{"action":"stripe.refund","args":{"payment_id":"ch_1","amount":20000}}\n');
    const r = JSON.parse((await cli(['replay', '--policy', 'loosened.yaml', '--calls', 'bare.jsonl', '--format', 'json'], { cwd: dir })).stdout);
    expect(r.changes).toEqual([expect.objectContaining({ before: 'approve', after: 'allow', count: 1 })]);
  });

  it('a bad line, a missing --calls or a bad --since is a usage error (exit 2) with its location', async () => {
    const dir = copyFixture('policy-test/replay');
    dirs.push(dir);
    writeFileSync(path.join(dir, 'bad.jsonl'), '{"action":"stripe.refund","args":{}}\n{"args":{}}\nnot json\n');
    const r = await cli(['replay', '--policy', 'loosened.yaml', '--calls', 'bad.jsonl'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('bad.jsonl:2:1: error: the call has no `action` string');
    expect(r.stderr).toContain('bad.jsonl:3:1: error: not a JSON line');
    const none = await cli(['replay', '--policy', 'loosened.yaml'], { cwd: dir });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no store here yet');
    const since = await cli(['replay', '--policy', 'loosened.yaml', '--calls', 'calls.jsonl', '--since', 'yesterday'], { cwd: dir });
    expect(since.code).toBe(2);
    expect(since.stderr).toContain('--since is not an ISO 8601 time');
  });
});
