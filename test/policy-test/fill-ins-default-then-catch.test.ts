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
 * Issue 40, found by the red team in session 20 (a false green, fixed; as it was): `priority: z.enum(['low', 'high']).default('low')
 * .catch('high')`. A call that leaves `priority` out gets the default, 'low' (zod fills a missing
 * value at `.default()`; `.catch()` fills only what fails below it); the policy denies 'high' and
 * allows the rest, so the Runner runs `{}`. generate/params.ts `filled` lets the outer `.catch()`
 * replace the inner default's fill for a missing value too, so `test` and `explain` decide `{}` on
 * 'high' and deny it: a suite asserting that `{}` never runs passes.
 */
const SCHEMA = "z.object({ priority: z.enum(['low', 'high']).default('low').catch('high') })";

function fixture(): string {
  return ticketFixture(dirs, 'defaultcatch-', {
    schema: SCHEMA,
    policy:
      'schema: ctrlrun.policy/v6\nactions:\n  tickets.file:\n    rules:\n      - when: { priority_eq: high }\n        decision: deny\n      - decision: allow\n',
    cases:
      'schema: ctrlrun.policy-test/v1\ncases:\n  - name: a ticket without a priority never runs\n    action: tickets.file\n    args: {}\n    expect: { decision: deny }\n',
  });
}

describe('a field left out of `.default().catch()`, as the Runner decides it', () => {
  it('the real Runner runs `{}` with the default, low (control: what test and explain must match)', async () => {
    const dir = fixture();
    const { policy } = loadPolicyOrThrow(path.join(dir, 'ctrlrun.yaml'));
    const store = memoryStore();
    const protectedTool = bindProtectedTool<'tickets.file'>(createControl({ store, identity: () => 'alice' }), compilePolicy(policy));
    const ran: unknown[] = [];
    const parameters = z.object({ priority: z.enum(['low', 'high']).default('low').catch('high') });
    const t = protectedTool('tickets.file', {
      name: 'file_ticket',
      description: 'File a ticket.',
      parameters,
      execute: async (args) => {
        ran.push(args);
        return 'filed';
      },
    });
    await run(agentWith(scripted([functionCall('file_ticket', {}, { callId: 'c1' })], [assistantMessage('done')]), [t]), 'go');
    expect(ran).toEqual([{ priority: 'low' }]);
    expect((await store.listReceipts()).map((r) => r.result)).toEqual(['allowed', 'executed']);
  });

  it('explain decides `{}` as the Runner does: allowed on the default, low', async () => {
    const e = await cli(['explain', 'tickets.file', '--args', '{}'], { cwd: fixture() });
    expect(e.stdout).toContain('tickets.file: allow (rule[1] matched)');
  });

  it('test fails a case asserting that `{}` never runs', async () => {
    const r = await cli(['test'], { cwd: fixture() });
    expect(r.stdout).toContain('FAIL a ticket without a priority never runs');
    expect(r.code).toBe(1);
  });
});
