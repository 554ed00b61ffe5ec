import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliProcess } from '../helpers/cli.js';
import { bodyRuns, spawnAgentChild } from '../stores/child-process.js';
import { tempRepo } from './operator-helpers.js';

describe('journey 5 across processes: pause, approve from the CLI as another person, resume elsewhere, run once', () => {
  const repo = tempRepo();
  afterAll(() => rmSync(repo.root, { recursive: true, force: true }));

  it('the approved call runs exactly once and the receipt chain verifies', { timeout: 120_000 }, async () => {
    const store = { kind: 'sqlite', path: repo.dbPath }; // .ctrlrun/state.db at the repo root: the CLI's default
    const stateFile = path.join(repo.root, 'paused-run.json');
    const countFile = path.join(repo.root, 'body-runs.log');
    const callId = 'call_refund_42';

    // 1. A run pauses on a call the policy sends to a human and saves its state; its process ends.
    const paused = spawnAgentChild({ mode: 'pause', store, stateFile, countFile, callId, args: { payment_id: 'pay_42', amount: 512_345 }, user: 'alice' });
    await paused.waitFor((e) => e.paused === callId);
    await paused.exited;
    expect(bodyRuns(countFile)).toEqual([]);

    // 2. An operator, in another process (from a subdirectory of the repo), sees it and approves it.
    const listed = cliProcess(['approvals', 'list', '--pending'], { cwd: repo.nested });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`${callId}\\s+pending\\s+stripe\\.refund\\s+alice`));
    const own = cliProcess(['approvals', 'approve', callId, '--as', 'alice'], { cwd: repo.nested });
    expect(own.code).toBe(2);
    expect(own.stderr).toMatch(/cannot approve this request/);
    const approved = cliProcess(['approvals', 'approve', callId, '--as', 'bob', '--reason', 'verified with the customer'], { cwd: repo.nested });
    expect(approved.code, approved.stderr).toBe(0);

    // 3. A new process, with a new Control over the same store, resolves the saved state and resumes.
    const resumed = spawnAgentChild({ mode: 'resume', store, stateFile, countFile });
    const events = (await resumed.exited).events;
    expect(events[0]).toMatchObject({ ready: true, pending: 0 });
    expect(events.at(-1)).toMatchObject({ outcome: 'done', output: 'done' });
    expect(bodyRuns(countFile)).toHaveLength(1);

    // Restoring the same state again never runs it twice.
    await spawnAgentChild({ mode: 'resume', store, stateFile, countFile }).exited;
    expect(bodyRuns(countFile)).toHaveLength(1);

    // 4. The evidence: the request is consumed, the chain verifies, and tells the story.
    const shown = cliProcess(['approvals', 'show', callId, '--json'], { cwd: repo.nested });
    expect(JSON.parse(shown.stdout)).toMatchObject({ state: 'consumed', answers: [{ approver: 'bob', decision: 'approve' }] });
    const verified = cliProcess(['receipts', 'verify'], { cwd: repo.nested });
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    const receipts = JSON.parse(cliProcess(['receipts', 'list', '--json'], { cwd: repo.nested }).stdout) as Array<{
      call_id: string;
      result: string;
      approvers: string[];
    }>;
    const story = receipts.filter((r) => r.call_id === callId).map((r) => r.result);
    expect(story.slice(0, 3)).toEqual(['requested', 'refused', 'approved']); // alice's own approval was refused
    expect(story.filter((r) => r === 'executed')).toHaveLength(1);
    expect(receipts.find((r) => r.result === 'executed')?.approvers).toEqual(['bob']);
  });
});
