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
 * Issue 40, found by the red team in session 20 (a false green, fixed; as it was): `priority: z.enum(['low', 'high']).catch('high')
 * .default('low')`. A value the enum refuses ('urgent') is caught: the body gets 'high', which the
 * policy allows, and the Runner runs it. generate/params.ts keeps one fill per field: the outer
 * `.default()` replaces the inner `.catch()` (no `whenInvalid`), so `test` and `explain` say
 * "refused by the tool" for `{"priority": "urgent"}`: a suite asserting that it never runs passes.
 * (The reverse order, `.default().catch()`, is fill-ins-default-then-catch.test.ts.)
 */
const PARAMETERS = z.object({ priority: z.enum(['low', 'high']).catch('high').default('low') });
const SCHEMA_TEXT = "z.object({ priority: z.enum(['low', 'high']).catch('high').default('low') })";
const POLICY =
  'schema: ctrlrun.policy/v6\nactions:\n  tickets.file:\n    rules:\n      - when: { priority_eq: high }\n        decision: allow\n      - decision: deny\n';
const ARGS: Record<string, unknown> = { priority: 'urgent' };

function fixture(): string {
  return ticketFixture(dirs, 'catchdefault-', {
    schema: SCHEMA_TEXT,
    policy: POLICY,
    cases: `schema: ctrlrun.policy-test/v1\ncases:\n  - name: the call never runs\n    action: tickets.file\n    args: ${JSON.stringify(ARGS)}\n    expect: { decision: deny }\n`,
    result: 'String(priority)',
  });
}

describe('a value caught under `.catch().default()`, as the Runner decides it', () => {
  it('the real Runner runs the call (control: what test and explain must match)', async () => {
    const dir = fixture();
    const { policy } = loadPolicyOrThrow(path.join(dir, 'ctrlrun.yaml'));
    const store = memoryStore();
    const protectedTool = bindProtectedTool<'tickets.file'>(createControl({ store, identity: () => 'alice' }), compilePolicy(policy));
    const ran: unknown[] = [];
    const t = protectedTool('tickets.file', {
      name: 'file_ticket',
      description: 'File a ticket.',
      parameters: PARAMETERS,
      execute: async (args) => {
        ran.push(args);
        return 'filed';
      },
    });
    await run(agentWith(scripted([functionCall('file_ticket', ARGS, { callId: 'c1' })], [assistantMessage('done')]), [t]), 'go');
    expect(ran).toEqual([{ priority: 'high' }]);
    expect((await store.listReceipts()).map((r) => r.result)).toEqual(['allowed', 'executed']);
  });

  it('explain decides the call as the Runner does: allowed', async () => {
    const e = await cli(['explain', 'tickets.file', '--args', JSON.stringify(ARGS)], { cwd: fixture() });
    expect(e.stdout).toContain('tickets.file: allow (rule[0] matched)');
  });

  it('test fails a case asserting that the call never runs', async () => {
    const r = await cli(['test'], { cwd: fixture() });
    expect(r.stdout).toContain('FAIL the call never runs');
    expect(r.code).toBe(1);
  });
});
