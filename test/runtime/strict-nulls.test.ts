import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parsePolicy } from '../../src/policy/load.js';
import { compilePolicy } from '../../src/policy-test/decider.js';
import { bindProtectedTool, createControl, memoryStore, run } from '../../src/runtime/index.js';
import { holdsNull, strictNullsDropped } from '../../src/runtime/core/strict-nulls.js';
import { agentWith, assistantMessage, functionCall, scripted } from './helpers.js';
import { loadSdkStrictNullStep } from '../helpers/sdk-strict-nulls.js';

// the SDK's own strict-mode step, from its installed code (in no public entry: see the helper)
const stripStrictNullsForZodSchema = await loadSdkStrictNullStep();

/**
 * Issue 40: in strict mode the SDK drops a `null` sent for an optional field before zod parses
 * (`stripStrictNullsForZodSchema`); the runtime mirrors that step (runtime/core/strict-nulls.ts) so
 * it decides on what the body gets. The mirror against the SDK's own function, then the Runner.
 */
const POLICY =
  'schema: ctrlrun.policy/v6\nactions:\n  tickets.file:\n    rules:\n      - when: { priority_eq: low }\n        decision: allow\n      - decision: deny\n';
const E = () => z.enum(['low', 'high']);
const SCHEMAS: z.ZodType[] = [
  z.object({ a: E().optional(), b: E().nullable(), c: E().optional().catch('low'), d: E().default('low').optional(), e: E().optional().default('low') }),
  z.object({ a: z.string().nullish(), b: z.string().optional().nullable(), c: z.null().optional(), d: z.string().pipe(z.string()).optional() }),
  z.object({ n: z.object({ a: E().optional(), deep: z.array(z.object({ x: z.number().optional() })).optional() }).optional() }),
  z.object({ u: z.union([z.object({ k: z.literal('a'), x: E().optional() }), z.object({ k: z.literal('b'), y: z.number().optional() })]) }),
  z.object({ r: z.record(z.string(), z.number().optional()), t: z.tuple([z.string().optional(), z.number()]).optional() }),
  z.object({ i: z.intersection(z.object({ a: E().optional() }), z.object({ b: E().optional() })) }),
];
const VALUES: unknown[] = [
  {},
  { a: null, b: null, c: null, d: null, e: null },
  { a: 'low', b: null, c: 'zz', d: null },
  { n: null },
  { n: { a: null, deep: [{ x: null }, { x: 1 }, null] } },
  { u: { k: 'a', x: null } },
  { u: { k: 'b', y: null } },
  { r: { p: null, q: 1 }, t: [null, 2] },
  { i: { a: null, b: null } },
  [null],
  null,
];

describe("strict mode's nulls dropped as the SDK drops them", () => {
  it('the mirror gives what the SDK gives, on every schema and value here', () => {
    for (const schema of SCHEMAS) for (const value of VALUES) expect(strictNullsDropped(schema, value)).toEqual(stripStrictNullsForZodSchema(schema, value));
  });

  it('only a value holding a null is walked', () => {
    expect(holdsNull({ a: [{ b: 1 }], c: 'x' })).toBe(false);
    expect(holdsNull({ a: [{ b: null }] })).toBe(true);
  });

  it('the Runner decides a null for `.optional().catch()` as left out (denied, no ActionDenied out of run), and runs the value sent', async () => {
    const policy = compilePolicy(parsePolicy(POLICY, 'ctrlrun.yaml').value!);
    const store = memoryStore();
    const protectedTool = bindProtectedTool<'tickets.file'>(createControl({ store, identity: () => 'alice' }), policy);
    const ran: unknown[] = [];
    const t = protectedTool('tickets.file', {
      name: 'file_ticket',
      description: 'File a ticket.',
      parameters: z.object({ priority: E().optional().catch('low'), note: z.string().nullable() }),
      execute: async (args) => {
        ran.push(args);
        return 'filed';
      },
    });
    const model = scripted(
      [functionCall('file_ticket', { priority: null, note: null }, { callId: 'c1' })],
      [functionCall('file_ticket', { priority: 'zz', note: null }, { callId: 'c2' })],
      [assistantMessage('done')],
    );
    await run(agentWith(model, [t]), 'go');
    // the first left out (a `.nullable()` keeps its null), the second caught as 'low'
    expect(ran).toEqual([{ priority: 'low', note: null }]);
    expect((await store.listReceipts()).map((r) => [r.result, r.reason.split(':')[0]])).toEqual([
      ['denied', 'rule[1]'],
      ['allowed', 'rule[0]'],
      ['executed', 'rule[0]'],
    ]);
  });
});
