import { describe, expect, it } from 'vitest';
import { declarationsInSource } from '../../src/generate/declarations.js';
import { ABSENT, acceptsCall, acceptsValue, actionSchemas, alwaysHolds, describeParam, satisfyingValue } from '../../src/generate/tool-schemas.js';
import type { Manifest } from '../../src/manifest/types.js';
import type { Condition } from '../../src/policy/types.js';
import { testProject } from '../check/rule-tester.js';

// Issue 25 items 4 and 5: the mapped tools' parameter schemas, as the policy sees them.

const HEAD = "import { tool } from '@openai/agents';\nimport { z } from 'zod';\n";

function manifest(tools: Array<[string, string]>, extra: Manifest['tools'] = []): Manifest {
  const loc = { file: '/repo/ctrlrun.tools.yaml', line: 1, column: 1 };
  return { ...testProject().manifest, tools: [...tools.map(([tool, action]) => ({ kind: 'function' as const, tool, action, loc })), ...extra] };
}

function schemasOf(code: string, tools: Array<[string, string]>, extra: Manifest['tools'] = []) {
  const names = new Set(tools.map(([t]) => t));
  const found = new Map<string, ReturnType<typeof declarationsInSource>>();
  for (const name of names) found.set(name, []);
  for (const d of declarationsInSource('/repo/src/tools.ts', `${HEAD}${code}`, names)) found.get(d.name)!.push(d);
  return actionSchemas(manifest(tools, extra), found);
}

const cond = (key: string, op: Condition['op'], value: Condition['value']): Condition => ({
  key,
  arg: key.slice(0, key.lastIndexOf('_')),
  op,
  value,
  loc: { file: '/repo/ctrlrun.yaml', line: 1, column: 1 },
});

describe('the ranges, enums and required arguments read from the code', () => {
  it('zod: .int() .positive() .max() .gt() .lt() .nonnegative() .min() (a string length is not a range), z.int32(), .optional()', () => {
    const s = schemasOf(
      `tool({ name: 'pay', parameters: z.object({
        amount: z.number().int().positive().max(1_000),
        gt: z.number().int().gt(-5).lt(5),
        count: z.number().nonnegative().min(2).optional(),
        word: z.string().min(3),
        small: z.int32(),
        currency: z.enum(['USD', 'EUR']),
        note: z.string().nullable(),
      }), execute: async () => 'ok' });\n`,
      [['pay', 'p']],
    );
    const p = s.byAction.get('p')!.params;
    expect([...p.values()].map((x) => [x.name, describeParam(x), x.required])).toEqual([
      ['amount', 'an integer from 1 to 1000', true],
      ['gt', 'an integer from -4 to 4', true],
      ['count', 'a number of at least 2', false],
      ['word', 'a string', true],
      ['small', 'an integer from -2147483648 to 2147483647', true],
      ['currency', 'one of "USD", "EUR"', true],
      ['note', 'a string, or null', true],
    ]);
  });

  it('JSON schema: minimum, maximum, exclusiveMinimum, exclusiveMaximum, enum, required', () => {
    const s = schemasOf(
      `tool({ name: 'move', parameters: { type: 'object', properties: {
        amount: { type: 'integer', minimum: 1, maximum: 500 },
        ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 10 },
        method: { type: 'string', enum: ['ach', 'wire'] },
      }, required: ['amount', 'method'] }, execute: async () => 'ok' });\n`,
      [['move', 'm']],
    );
    const p = s.byAction.get('m')!.params;
    expect([...p.values()].map((x) => [x.name, describeParam(x), x.required])).toEqual([
      ['amount', 'an integer from 1 to 500', true],
      ['ratio', 'a number from 1 to 9', false],
      ['method', 'one of "ach", "wire"', true],
    ]);
  });

  it('two declarations of one action: the schema accepts what either accepts', () => {
    const s = schemasOf(
      `tool({ name: 'a', parameters: z.object({ n: z.number().int().max(10), m: z.string(), k: z.enum(['x']) }), execute: async () => 1 });
       tool({ name: 'b', parameters: z.object({ n: z.number().int().min(0).max(50), k: z.enum(['y']) }), execute: async () => 1 });\n`,
      [
        ['a', 'act'],
        ['b', 'act'],
      ],
    );
    const p = s.byAction.get('act')!.params;
    expect(describeParam(p.get('n')!)).toBe('an integer of at most 50');
    expect(p.get('m')!.required).toBe(false); // b has no m
    expect(p.get('k')!.enumValues).toEqual(['x', 'y']);
    expect(s.byAction.get('act')!.tools).toEqual(['a', 'b']);
  });

  it('an action whose schema is not found statically has none, and says why', () => {
    const s = schemasOf(
      "import { shape } from './shape.js';\ntool({ name: 'opaque', parameters: shape, execute: async () => 1 });\n",
      [
        ['opaque', 'o'],
        ['nowhere', 'n'],
      ],
      [{ kind: 'mcp', server: 'gh', tool: 'create_issue', action: 'i', loc: { file: '/repo/ctrlrun.tools.yaml', line: 1, column: 1 } }],
    );
    expect(s.byAction.size).toBe(0);
    expect(s.unread.get('o')).toContain('the parameters of tool `opaque` cannot be read statically (`shape` is not a const bound in this file)');
    expect(s.unread.get('n')).toBe("no `tool({ name: 'nowhere' })` was found in the code");
    expect(s.unread.get('i')).toContain('MCP tool `gh/create_issue`');
  });
});

describe('what the schema accepts, and what it makes of a condition', () => {
  const s = schemasOf(
    "tool({ name: 'pay', parameters: z.object({ amount: z.number().int().nonnegative().max(50), currency: z.enum(['USD', 'EUR']), note: z.string().optional(), flag: z.boolean() }), execute: async () => 1 });\n",
    [['pay', 'p']],
  ).byAction.get('p')!;
  const amount = s.params.get('amount')!;
  const currency = s.params.get('currency')!;
  const note = s.params.get('note')!;
  const flag = s.params.get('flag')!;

  it('accepts values of the type, in the enum or range; a missing argument only when optional; null only when nullable', () => {
    expect(([0, 50, 51, -1, '5', null, ABSENT] as const).map((v) => acceptsValue(amount, v))).toEqual([true, true, false, false, false, false, false]);
    expect((['USD', 'JPY', ABSENT] as const).map((v) => acceptsValue(currency, v))).toEqual([true, false, false]);
    expect((['x', 1, ABSENT, null] as const).map((v) => acceptsValue(note, v))).toEqual([true, false, true, false]);
    expect(acceptsCall(s, { amount: 5, currency: 'EUR', flag: true })).toBe(true);
    expect(acceptsCall(s, { amount: 5, currency: 'EUR' })).toBe(false);
    expect(acceptsValue(undefined, 'anything')).toBe(true);
  });

  it('a condition the schema makes impossible has no satisfying value; a possible one has one within the schema', () => {
    expect(satisfyingValue(cond('amount_gt', 'gt', 100), amount)).toBeUndefined();
    expect(satisfyingValue(cond('amount_gt', 'gt', 40), amount)).toBe(41);
    expect(satisfyingValue(cond('currency_eq', 'eq', 'JPY'), currency)).toBeUndefined();
    expect(satisfyingValue(cond('currency_in', 'in', ['JPY', 'EUR']), currency)).toBe('EUR');
    expect(satisfyingValue(cond('note_lt', 'lt', 5), note)).toBeUndefined();
    expect(satisfyingValue(cond('note_neq', 'neq', 'a'), note)).toBe('a~');
    expect(satisfyingValue(cond('amount_in', 'in', [60, 70]), amount)).toBeUndefined();
  });

  it('a condition always true holds for every value of a required argument; never for an optional one', () => {
    expect(alwaysHolds(cond('amount_gte', 'gte', 0), amount)).toBe(true);
    expect(alwaysHolds(cond('amount_gte', 'gte', 1), amount)).toBe(false);
    expect(alwaysHolds(cond('amount_lte', 'lte', 50), amount)).toBe(true);
    expect(alwaysHolds(cond('amount_lt', 'lt', 50), amount)).toBe(false);
    expect(alwaysHolds(cond('amount_neq', 'neq', 51), amount)).toBe(true);
    expect(alwaysHolds(cond('currency_in', 'in', ['USD', 'EUR']), currency)).toBe(true);
    expect(alwaysHolds(cond('currency_in', 'in', ['USD']), currency)).toBe(false);
    expect(alwaysHolds(cond('flag_in', 'in', [true, false]), flag)).toBe(true);
    expect(alwaysHolds(cond('note_neq', 'neq', 5), note)).toBe(false); // optional: a call without it fails the condition
  });
});
