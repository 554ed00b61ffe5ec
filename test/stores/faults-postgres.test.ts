import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { postgresStore } from '../../src/runtime/postgres.js';
import { bodyRuns, spawnAgentChild } from './child-process.js';
import { describePostgres, dropSchema, freshSchema } from './pg-helpers.js';

describePostgres('Postgres connection killed mid-claim', (url) => {
  const schema = freshSchema();
  const dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-pg-fault-'));
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await dropSchema(url, schema);
  });

  it('pg_terminate_backend during the claim: nothing runs, a clear error, the answer is neither lost nor consumed twice', { timeout: 120_000 }, async () => {
    const store = { kind: 'postgres', connectionString: url, schema };
    const stateFile = path.join(dir, 'state.json');
    const countFile = path.join(dir, 'count.log');
    const callId = 'call_killed_claim';
    const paused = spawnAgentChild({ mode: 'pause', store, stateFile, countFile, callId, args: { payment_id: 'pay_k', amount: 512_345 } });
    await paused.waitFor((e) => e.paused === callId);
    await paused.exited;
    const s = postgresStore({ connectionString: url, schema });
    try {
      expect((await s.addAnswer(callId, { approver: 'bob', decision: 'approve', at: Date.now() })).outcome).toBe('recorded');

      // Hold the approval's row so the victim's claim blocks inside Postgres, then kill its connection.
      const holder = new pg.Client({ connectionString: url });
      await holder.connect();
      await holder.query('BEGIN');
      await holder.query(`SELECT call_id FROM "${schema}".approvals WHERE call_id = $1 FOR UPDATE`, [callId]);
      const appName = `ctrlrun_victim_${randomBytes(4).toString('hex')}`;
      const victimStore = { ...store, connectionString: `${url}${url.includes('?') ? '&' : '?'}application_name=${appName}` };
      const victim = spawnAgentChild({ mode: 'resume', store: victimStore, stateFile, countFile, waitForGo: true });
      await victim.waitFor((e) => e.ready === true);
      victim.go();
      let pid: number | undefined;
      for (let i = 0; i < 600 && pid === undefined; i++) {
        const r = await holder.query(`SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`, [appName]);
        pid = r.rows[0]?.pid as number | undefined;
        if (pid === undefined) await new Promise((res) => setTimeout(res, 50));
      }
      expect(pid, 'the victim never blocked on the claim').toBeDefined();
      await holder.query('SELECT pg_terminate_backend($1)', [pid]);
      const ended = await victim.exited;
      const last = ended.events.at(-1)!;
      expect(last).toMatchObject({ error: 'StoreError', reason: 'store_unavailable' });
      // the action has an effect key: its approval is claimed inside the reservation's transaction
      expect(last.message).toMatch(/reserveEffect failed: the database connection was lost/);
      await holder.query('ROLLBACK');
      await holder.end();

      expect(bodyRuns(countFile)).toEqual([]);
      expect((await s.getRequest(callId))?.state).toBe('approved'); // not lost

      // The same state resumed again: the approval is claimed once and the body runs once.
      const again = spawnAgentChild({ mode: 'resume', store, stateFile, countFile });
      expect((await again.exited).events.at(-1)).toMatchObject({ outcome: 'done' });
      const third = spawnAgentChild({ mode: 'resume', store, stateFile, countFile });
      await third.exited;
      expect(bodyRuns(countFile)).toHaveLength(1);
      expect((await s.getRequest(callId))?.state).toBe('consumed');
    } finally {
      await s.close();
    }
  });
});
