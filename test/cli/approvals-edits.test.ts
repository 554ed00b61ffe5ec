import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EDITABLE_DOOR } from '../../src/testing/answers-conformance.js';
import { cli } from '../helpers/cli.js';
import { request, requestedReceipt, tempRepo, withSqlite } from './operator-helpers.js';

// Issue 38 from a shell, with direct store access: approve with edits (decided by the policy the
// command loads), respond in the tool's place, grant the same for a while, grants list|revoke.
const POLICY = `schema: ctrlrun.policy/v6
actions:
  stripe.refund:
    rules:
      - when: { amount_lte: 1000 }
        decision: allow
      - when: { amount_lte: 100000 }
        decision: approve
      - decision: deny
`;

describe('ctrlrun-gen approvals approve --args / respond / --grant-hours; grants list|revoke', () => {
  let repo: ReturnType<typeof tempRepo>;
  const run = (args: string[]) => cli(args, { cwd: repo.nested, env: { NO_COLOR: '1' } });
  const policy = (): string[] => [];

  beforeEach(async () => {
    repo = tempRepo();
    writeFileSync(path.join(repo.root, 'ctrlrun.yaml'), POLICY);
    // the project's manifest names the policy: an edit or a grant is decided by it
    writeFileSync(path.join(repo.root, 'ctrlrun.tools.yaml'), 'schema: ctrlrun.tools/v1\npolicy: ctrlrun.yaml\noutput: src/ctrlrun.generated.ts\ntools: []\n');
    await withSqlite(repo.dbPath, async (store) => {
      for (const id of ['call_edit', 'call_plain']) {
        await store.putRequest(request(id, { args: '{"amount":5000}', door: id === 'call_edit' ? EDITABLE_DOOR : undefined }));
        await store.appendReceipt(requestedReceipt(id));
      }
    });
  });
  afterEach(() => rmSync(repo.root, { recursive: true, force: true }));

  it('--args approves other arguments, decided again by the policy; show says what was approved; an edit into deny or one the door cannot run is refused', async () => {
    const denied = await run(['approvals', 'approve', 'call_edit', '--as', 'bob', '--args', '{"amount":500000}', ...policy()]);
    expect(denied.code).toBe(2);
    expect(denied.stderr).toMatch(/policy denies the edited call \(rule\[2\]\).*Nothing changed/);
    const nowhere = await run(['approvals', 'approve', 'call_plain', '--as', 'bob', '--args', '{"amount":4000}', ...policy()]);
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toContain('cannot be approved with edits');
    const ok = await run(['approvals', 'approve', 'call_edit', '--as', 'bob', '--args', '{"amount":4000}', ...policy()]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/Approved call_edit \(stripe\.refund\) as bob \(1\/1\)/);
    const shown = await run(['approvals', 'show', 'call_edit']);
    expect(shown.stdout).toMatch(/Approved arguments \(edited by bob\)\n {2}\{\n {4}"amount": 4000/);
    expect(shown.stdout).toMatch(/approved with edits by bob/);
    await withSqlite(repo.dbPath, async (store) => {
      expect((await store.listReceipts()).map((r) => [r.call_id, r.result, r.reason])).toEqual([
        ['call_edit', 'requested', 'rule 1 matched'],
        ['call_plain', 'requested', 'rule 1 matched'],
        ['call_edit', 'refused', 'edit_denied'],
        ['call_plain', 'refused', 'edit_unsupported'],
        ['call_edit', 'approved', '1 of 1 approvals'],
      ]);
    });
  });

  it("respond answers in the tool's place; the request is stopped and says so", async () => {
    const r = await run(['approvals', 'respond', 'call_plain', '--as', 'bob', '--result', 'Already refunded (re_1).']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Responded to call_plain');
    expect((await run(['approvals', 'show', 'call_plain'])).stdout).toMatch(/responded in the tool's place by bob/);
    expect((await run(['approvals', 'respond', 'call_edit', '--as', 'bob', '--result', ''])).code).toBe(2);
  });

  it('--grant-hours grants the same within the limit (--max-grant-hours); grants list shows it; grants revoke revokes it once', async () => {
    const long = await run(['approvals', 'approve', 'call_plain', '--as', 'bob', '--grant-hours', '9', ...policy()]);
    expect(long.code).toBe(2);
    expect(long.stderr).toContain('at most 8 hours');
    const ok = await run([
      'approvals',
      'approve',
      'call_plain',
      '--as',
      'bob',
      '--grant-hours',
      '9',
      '--max-grant-hours',
      '12',
      '--grant-bounds',
      '{"amount_lte":20000}',
      ...policy(),
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    const id = /Granted (grant_[0-9a-f-]+) until/.exec(ok.stdout)?.[1];
    expect(id).toBeDefined();
    const listed = await run(['grants', 'list', '--active']);
    expect(listed.stdout).toMatch(new RegExp(`${id}\\s+active\\s+stripe\\.refund\\s+alice\\s+rule\\[1\\]\\s+\\{"amount_lte":20000\\}\\s+bob`));
    const revoked = await run(['grants', 'revoke', id!, '--as', 'carol']);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect((await run(['grants', 'list', '--active'])).stdout).toContain('No active approval grants.');
    const again = await run(['grants', 'revoke', id!, '--as', 'carol']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already revoked (by carol)');
    expect((await run(['grants', 'revoke', 'grant_nope', '--as', 'carol'])).code).toBe(2);
    const json = JSON.parse((await run(['grants', 'list', '--json'])).stdout) as Array<{ id: string; revokedBy: string }>;
    expect(json.map((g) => [g.id, g.revokedBy])).toEqual([[id, 'carol']]);
    expect((await run(['receipts', 'verify'])).code).toBe(0);
  });
});
