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
 * Issue 40, found by the red team in session 20 (a false green, fixed; as it was): `priority: z.string().optional().default('medium')`. In
 * strict mode the model sends `null` for a field it may leave out; the SDK drops that null (its
 * stripStrictNullsForZodSchema looks through the `.default()` to the `.optional()`) and the body
 * gets the default, 'medium', which the policy allows: the Runner runs the call. `test` and
 * `explain` read the field as required once defaulted (generate/params.ts `filled`), keep the null,
 * and say "refused by the tool": a suite asserting that `{"priority": null}` never runs passes.
 */
const SCHEMA = "z.object({ priority: z.string().optional().default('medium') })";

function fixture(): string {
  return ticketFixture(dirs, 'optdefault-', {
    schema: SCHEMA,
    policy:
      'schema: ctrlrun.policy/v6\nactions:\n  tickets.file:\n    rules:\n      - when: { priority_eq: medium }\n        decision: allow\n      - decision: deny\n',
    cases:
      'schema: ctrlrun.policy-test/v1\ncases:\n  - name: a null priority never runs\n    action: tickets.file\n    args: { priority: null }\n    expect: { decision: deny }\n',
  });
}

describe('a null for an `.optional().default()` field, as the Runner decides it', () => {
  it('the real Runner runs `{"priority": null}` with the default (control: what test and explain must match)', async () => {
    const dir = fixture();
    const { policy } = loadPolicyOrThrow(path.join(dir, 'ctrlrun.yaml'));
    const store = memoryStore();
    const protectedTool = bindProtectedTool<'tickets.file'>(createControl({ store, identity: () => 'alice' }), compilePolicy(policy));
    const ran: unknown[] = [];
    const parameters = z.object({ priority: z.string().optional().default('medium') });
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
    expect(ran).toEqual([{ priority: 'medium' }]);
    expect((await store.listReceipts()).map((r) => r.result)).toEqual(['allowed', 'executed']);
  });

  it('explain decides `{"priority": null}` as the Runner does: allowed on the default', async () => {
    const e = await cli(['explain', 'tickets.file', '--args', '{"priority":null}'], { cwd: fixture() });
    expect(e.stdout).toContain('tickets.file: allow (rule[0] matched)');
  });

  it('test fails a case asserting that `{"priority": null}` never runs', async () => {
    const r = await cli(['test'], { cwd: fixture() });
    expect(r.stdout).toContain('FAIL a null priority never runs');
    expect(r.code).toBe(1);
  });
});
