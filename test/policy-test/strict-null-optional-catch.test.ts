import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadPolicyOrThrow } from '../../src/policy/load.js';
import { compilePolicy } from '../../src/policy-test/decider.js';
import { bindProtectedTool, createControl, memoryStore, run } from '../../src/runtime/index.js';
import { cli } from '../helpers/cli.js';
import { removeDir } from '../helpers/temp-repo.js';
import { ticketFixture } from '../helpers/ticket-fixture.js';
import { agentWith, assistantMessage, functionCall, scripted } from '../runtime/helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * Issue 40, found by the red team in session 20 (a false green, fixed; as it was): `priority: z.enum(['low', 'high']).optional().catch('low')`.
 * In strict mode the model sends `null` for a field it may leave out. The SDK drops that null before
 * its parse (stripStrictNullsForZodSchema looks through `.catch()` to the `.optional()`), so the body
 * would get `priority` left out; the runtime parses the null first (runtime/core/arguments.ts
 * `zodArguments`: the stripped value only when that fails), `.catch()` turns it into 'low', the
 * policy allows 'low', then the input to run differs from what was decided and the runtime throws
 * ActionDenied out of `run()`: every such call ends the whole run. `explain` and `test` say
 * "allow (rule[0])": a suite asserting that the call runs passes. Decided as the body gets it,
 * `priority` left out, the policy denies it (rule 1), and the run goes on.
 */
const SCHEMA = "z.object({ priority: z.enum(['low', 'high']).optional().catch('low') })";

function fixture(): string {
  return ticketFixture(dirs, 'optcatch-', {
    schema: SCHEMA,
    policy:
      'schema: ctrlrun.policy/v6\nactions:\n  tickets.file:\n    rules:\n      - when: { priority_eq: low }\n        decision: allow\n      - decision: deny\n',
    cases:
      'schema: ctrlrun.policy-test/v1\ncases:\n  - name: a null priority runs as low\n    action: tickets.file\n    args: { priority: null }\n    expect: { decision: allow }\n',
  });
}

describe('a null for an `.optional().catch()` field, as the Runner decides it', () => {
  it('the real Runner decides `{"priority": null}` as the body gets it (left out: denied) and the run goes on', async () => {
    const dir = fixture();
    const { policy } = loadPolicyOrThrow(path.join(dir, 'ctrlrun.yaml'));
    const store = memoryStore();
    const protectedTool = bindProtectedTool<'tickets.file'>(createControl({ store, identity: () => 'alice' }), compilePolicy(policy));
    const ran: unknown[] = [];
    const parameters = z.object({ priority: z.enum(['low', 'high']).optional().catch('low') });
    const t = protectedTool('tickets.file', {
      name: 'file_ticket',
      description: 'File a ticket.',
      parameters,
      execute: async (args) => {
        ran.push(args);
        return 'filed';
      },
    });
    await run(agentWith(scripted([functionCall('file_ticket', { priority: null }, { callId: 'c1' })], [assistantMessage('done')]), [t]), 'go');
    expect(ran).toEqual([]);
    expect((await store.listReceipts()).map((r) => [r.result, r.reason.split(':')[0]])).toEqual([['denied', 'rule[1]']]);
  });

  it('explain decides `{"priority": null}` as the body gets it: left out, denied', async () => {
    const e = await cli(['explain', 'tickets.file', '--args', '{"priority":null}'], { cwd: fixture() });
    expect(e.stdout).toContain('tickets.file: deny (rule[1] matched)');
  });

  it('test fails a case asserting that `{"priority": null}` runs as low', async () => {
    const r = await cli(['test'], { cwd: fixture() });
    expect(r.stdout).toContain('FAIL a null priority runs as low');
    expect(r.code).toBe(1);
  });
});
