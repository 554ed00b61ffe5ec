import { mkdtempSync, copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent, RunState } from '@openai/agents';
import { ScriptedModel, assistantMessage, functionCall } from '@openai/agents/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadPolicyOrThrow } from '../../src/policy/load.js';
import { parseCallsFile } from '../../src/policy-test/calls-file.js';
import { compilePolicy } from '../../src/policy-test/decider.js';
import { readStoreCalls } from '../../src/policy-test/store-calls.js';
import { bindProtectedTool, createControl, run, type Store } from '../../src/runtime/index.js';
import { verifyDecisions } from '../../src/runtime/decision-log.js';
import { postgresStore } from '../../src/runtime/postgres.js';
import { sqliteStore } from '../../src/runtime/sqlite.js';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { describePostgres, dropSchema, freshSchema } from '../stores/pg-helpers.js';
import { expectGolden } from './golden.js';

const FIXTURE = path.join(FIXTURES, 'policy-test/replay-store');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

type Ctx = { user: string };

/**
 * Records calls through the real Runner (ScriptedModel) under the fixture's ctrlrun.yaml into
 * `store`: two small refunds (allow), one with a note (labelled `data:`, so kept as its hash), one
 * too large (deny), a charge read (allow), an account close (deny), and a refund of 200.00 that
 * pauses for approval, is approved by bob and resumed.
 */
async function record(store: Store): Promise<void> {
  const compiled = {
    ...compilePolicy(loadPolicyOrThrow(path.join(FIXTURE, 'ctrlrun.yaml')).policy),
    tools: { refund: 'stripe.refund', read_charge: 'stripe.charge.read', close_account: 'accounts.close' },
  };
  // the denied calls are recorded too: the model is offered accounts.close although nobody may ever use it
  const control = createControl({ store, identity: ((rc: { context: Ctx }) => rc.context.user) as never, environment: 'production', offerAllTools: true });
  const protect = bindProtectedTool<'stripe.refund' | 'stripe.charge.read' | 'accounts.close'>(control, compiled);
  const ran: string[] = [];
  const tools = [
    protect('stripe.refund', {
      name: 'refund',
      description: 'Refund',
      // not strict: the scripted model leaves `note` out, and a strict tool's pause would file and log the
      // call as strict mode writes it (`note: null`, kept as its keyed hash, which differs per store)
      parameters: {
        type: 'object',
        properties: { payment_id: { type: 'string' }, amount: { type: 'integer' }, note: { type: 'string' } },
        required: ['payment_id', 'amount'],
        additionalProperties: false,
      } as never,
      strict: false,
      execute: async (a: unknown) => void ran.push((a as { payment_id: string }).payment_id),
    }),
    protect('stripe.charge.read', { name: 'read_charge', description: 'Read', parameters: z.object({ charge_id: z.string() }), execute: async () => 'ok' }),
    protect('accounts.close', { name: 'close_account', description: 'Close', parameters: z.object({ account: z.string() }), execute: async () => 'closed' }),
  ];
  const call = (name: string, args: Record<string, unknown>, callId: string) => functionCall(name, args, { callId });
  const model = new ScriptedModel([
    [
      call('refund', { payment_id: 'ch_1', amount: 2500 }, 'c1'),
      call('refund', { payment_id: 'ch_4', amount: 9000 }, 'c4'),
      call('refund', { payment_id: 'ch_5', amount: 2_000_000 }, 'c5'),
      call('read_charge', { charge_id: 'ch_1' }, 'c6'),
      call('close_account', { account: 'acct_9' }, 'c7'),
      call('refund', { payment_id: 'ch_8', amount: 400, note: 'customer said: card stolen' }, 'c8'),
    ],
    [call('refund', { payment_id: 'ch_2', amount: 20000 }, 'c2')],
    [assistantMessage('done')],
  ]);
  const agent = new Agent<Ctx>({ name: 'desk', instructions: 'Refund desk', model, tools: tools as never });
  const paused = await run(agent, 'work the queue', { context: { user: 'alice' } });
  expect(paused.interruptions).toHaveLength(1);
  await control.request(paused.state);
  await control.approve(paused.state, paused.interruptions[0]!, { approver: 'bob' });
  const restored = await RunState.fromString(agent, paused.state.toString());
  await run(agent, restored);
  expect(ran.sort()).toEqual(['ch_1', 'ch_2', 'ch_4', 'ch_8']);
}

/** What both stores must report: the recorded decisions re-decided under each candidate. */
async function expectReports(cwd: string, storeArg: string, golden: boolean): Promise<void> {
  const json = async (candidate: string) => {
    const r = await cli(['replay', '--policy', candidate, '--store', storeArg, '--format', 'json', '--fail-on', 'never'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout);
  };
  const loose = await json(path.join(FIXTURE, 'loosened.yaml'));
  expect(loose.summary).toEqual({ replayed: 7, unchanged: 5, changed: 2, looser: 2, tighter: 0, undecidable: 0 });
  expect(loose.changes.map((g: Record<string, unknown>) => [g.action, g.before, g.after, g.reason, g.count, (g.example as { callId: string }).callId])).toEqual(
    [
      ['accounts.close', 'deny', 'approve', 'decision', 1, 'c7'],
      ['stripe.refund', 'approve', 'allow', 'rule[0]', 1, 'c2'],
    ],
  );
  // the paused call's answer is bob's (receipts and request), shown with its example
  expect(loose.changes[1].example.answer).toBe('approved by bob, used');
  const tight = await json(path.join(FIXTURE, 'tightened.yaml'));
  expect(tight.summary).toEqual({ replayed: 7, unchanged: 5, changed: 1, looser: 0, tighter: 1, undecidable: 1 });
  expect(tight.changes.map((g: Record<string, unknown>) => [g.action, g.before, g.after, g.reason, g.count])).toEqual([
    ['stripe.refund', 'allow', 'approve', 'rule[2]', 1],
  ]);
  // the note was recorded only as its hash, and the tightened policy reads it: undecidable
  expect(tight.undecidable).toEqual([expect.objectContaining({ action: 'stripe.refund', hashedArgs: ['note'], count: 1 })]);
  expect(JSON.stringify([loose, tight])).not.toContain('card stolen');
  // --fail-on looser (the default) fails the loosened candidate only
  expect((await cli(['replay', '--policy', path.join(FIXTURE, 'loosened.yaml'), '--store', storeArg], { cwd })).code).toBe(1);
  expect((await cli(['replay', '--policy', path.join(FIXTURE, 'tightened.yaml'), '--store', storeArg], { cwd })).code).toBe(0);
  // --action and --since are asked of the store
  const closes = JSON.parse(
    (await cli(['replay', '--policy', path.join(FIXTURE, 'loosened.yaml'), '--store', storeArg, '--action', 'accounts.close', '--format', 'json'], { cwd }))
      .stdout,
  );
  expect(closes.summary).toMatchObject({ replayed: 1, changed: 1 });
  const future = JSON.parse(
    (
      await cli(['replay', '--policy', path.join(FIXTURE, 'loosened.yaml'), '--store', storeArg, '--since', '2999-01-01T00:00:00Z', '--format', 'json'], {
        cwd,
      })
    ).stdout,
  );
  expect(future.summary.replayed).toBe(0);
  if (golden) {
    for (const candidate of ['loosened', 'tightened']) {
      for (const [format, ext] of [
        ['text', 'text'],
        ['markdown', 'md'],
      ] as const) {
        const r = await cli(['replay', '--policy', `${candidate}.yaml`, '--store', storeArg, '--format', format, '--fail-on', 'never'], { cwd });
        expectGolden(r.stdout, path.join(FIXTURE, `expected.${candidate}.${ext}`));
      }
    }
  }
}

/**
 * `receipts log --calls` writes the format `replay --calls` reads: each line parses back to the call
 * the store's replay reads, and replaying the file gives the store's report. A hand conversion of
 * `receipts log --json` (its `args` is the JSON text) is refused, not replayed as a string.
 */
async function expectExportRoundTrip(cwd: string, storeArg: string): Promise<void> {
  const exported = await cli(['receipts', 'log', '--store', storeArg, '--calls'], { cwd });
  expect(exported.code, exported.stderr).toBe(0);
  const parsed = parseCallsFile(exported.stdout, path.join(cwd, 'ctrlrun.calls.jsonl'));
  expect(parsed.diagnostics).toEqual([]);
  const store = sqliteStore({ path: path.join(cwd, storeArg.slice('sqlite:'.length)) });
  const fromStore = (await readStoreCalls(store))!;
  await store.close();
  expect(parsed.calls.map(({ line: _l, ...c }) => c)).toEqual(fromStore.map(({ line: _l, argsHash: _h, ...c }) => c));
  writeFileSync(path.join(cwd, 'ctrlrun.calls.jsonl'), exported.stdout);
  for (const candidate of ['loosened.yaml', 'tightened.yaml']) {
    const report = async (source: string[]) =>
      JSON.parse((await cli(['replay', '--policy', path.join(FIXTURE, candidate), ...source, '--format', 'json', '--fail-on', 'never'], { cwd })).stdout);
    const file = await report(['--calls', 'ctrlrun.calls.jsonl']);
    const logged = await report(['--store', storeArg]);
    const groups = (r: { changes: Array<Record<string, unknown>> }) => r.changes.map((g) => [g.action, g.before, g.after, g.reason, g.count]);
    expect([file.summary, groups(file)]).toEqual([logged.summary, groups(logged)]);
  }
  // --all: every changed call, in text and JSON
  const all = await cli(['replay', '--policy', path.join(FIXTURE, 'loosened.yaml'), '--calls', 'ctrlrun.calls.jsonl', '--all', '--format', 'json'], { cwd });
  expect(JSON.parse(all.stdout).calls.map((c: Record<string, unknown>) => [c.callId, c.before, c.after, c.reason])).toEqual([
    ['c7', 'deny', 'approve', 'decision'],
    ['c2', 'approve', 'allow', 'rule[0]'],
  ]);
  const allText = await cli(['replay', '--policy', path.join(FIXTURE, 'loosened.yaml'), '--calls', 'ctrlrun.calls.jsonl', '--all'], { cwd });
  expect(allText.stdout).toMatch(
    /every changed call \(2\):\n {2}line \d+: accounts\.close deny → approve \(looser\) by decision: \{"account":"acct_9"\}\n {2}line \d+: stripe\.refund approve → allow \(looser\) by rule\[0\]: /,
  );
  // the JSON array of the log, one entry a line, is not the calls format: its `args` is text
  const entries = JSON.parse((await cli(['receipts', 'log', '--store', storeArg, '--json'], { cwd })).stdout) as unknown[];
  writeFileSync(path.join(cwd, 'converted.jsonl'), entries.map((e) => JSON.stringify(e)).join('\n'));
  const refused = await cli(['replay', '--policy', path.join(FIXTURE, 'loosened.yaml'), '--calls', 'converted.jsonl'], { cwd });
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain('converted.jsonl:1:1: error: `args` must be a JSON object of the arguments, not a string');
  expect(refused.stderr).toContain('receipts log --calls');
}

describe('replay --store: calls recorded through the Runner, replayed against a loosened and a tightened policy', () => {
  it('SQLite: the decision log verifies, and the reports match the golden files', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-replay-store-'));
    dirs.push(dir);
    for (const f of ['loosened.yaml', 'tightened.yaml']) copyFileSync(path.join(FIXTURE, f), path.join(dir, f));
    const store = sqliteStore({ path: path.join(dir, 'state.db') });
    await record(store);
    expect(await verifyDecisions(store)).toEqual({ ok: true, count: 7 });
    await store.close();
    await expectReports(dir, 'sqlite:state.db', true);
    await expectExportRoundTrip(dir, 'sqlite:state.db');

    // receipts log shows the log; --verify checks it, and names an entry altered in the file
    const listed = await cli(['receipts', 'log', '--store', 'sqlite:state.db', '--action', 'stripe.refund'], { cwd: dir });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('{"amount":2500,"payment_id":"ch_1"}');
    expect(listed.stdout).not.toContain('card stolen');
    expect(listed.stdout).not.toContain('accounts.close');
    expect(listed.stdout).toContain('approved by bob, used');
    const asJson = JSON.parse((await cli(['receipts', 'log', '--store', 'sqlite:state.db', '--json', '--last', '2'], { cwd: dir })).stdout);
    expect(asJson).toHaveLength(2);
    const intact = await cli(['receipts', 'log', '--verify', '--store', 'sqlite:state.db'], { cwd: dir });
    expect([intact.code, intact.stdout]).toEqual([0, expect.stringContaining('7 decision log entries, chain intact and bound to the receipts')]);
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(path.join(dir, 'state.db'));
    db.prepare("UPDATE decisions SET entry = replace(entry, ':2500,', ':25,') WHERE entry LIKE '%ch_1%'").run();
    db.close();
    const broken = await cli(['receipts', 'log', '--verify', '--store', 'sqlite:state.db', '--json'], { cwd: dir });
    expect(broken.code).toBe(1);
    expect(JSON.parse(broken.stdout)).toMatchObject({ ok: false, break: 'content_altered' });
  });

  it('a store without a decision log, or --calls with --store, is a usage error (exit 2)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-replay-store-'));
    dirs.push(dir);
    const none = await cli(['replay', '--policy', path.join(FIXTURE, 'loosened.yaml')], { cwd: dir });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no store here yet');
    const both = await cli(['replay', '--policy', path.join(FIXTURE, 'loosened.yaml'), '--store', 'sqlite:x.db', '--calls', 'x.jsonl'], { cwd: dir });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--calls or --store, not both');
    // the export is JSON lines: not beside --json or --verify
    for (const other of ['--json', '--verify']) {
      const r = await cli(['receipts', 'log', '--calls', other, '--store', 'sqlite:x.db'], { cwd: dir });
      expect([r.code, r.stderr]).toEqual([2, expect.stringContaining('--calls prints the calls as JSON lines: not with --json or --verify')]);
    }
  });
});

describePostgres('replay --store on Postgres', (url) => {
  it('the same recorded calls give the same reports', async () => {
    const schema = freshSchema();
    const store = postgresStore({ connectionString: url, schema });
    try {
      await record(store);
      expect(await verifyDecisions(store)).toEqual({ ok: true, count: 7 });
      await expectReports(tmpdir(), `${url}?schema=${schema}`, false);
    } finally {
      await store.close();
      await dropSchema(url, schema);
    }
  });
});
