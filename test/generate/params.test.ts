import { ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { readToolParameters, type ReadParametersResult, type ToolParameter } from '../../src/generate/params.js';
import type { OptionProperty, SdkToolCall, Span } from '../../src/scan/types.js';

/** Builds the scanner's view of the first `tool({...})` call in `text` (spans as the scanner gives them). */
function firstToolCall(text: string): SdkToolCall {
  const sf = ts.createSourceFile('tools.ts', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  let call: ts.CallExpression | undefined;
  const visit = (node: ts.Node): void => {
    if (!call && ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'tool') call = node;
    ts.forEachChild(node, visit);
  };
  visit(sf);
  if (!call) throw new Error('no tool() call');
  const span = (n: ts.Node): Span => {
    const start = n.getStart(sf);
    const lc = sf.getLineAndCharacterOfPosition(start);
    return { start, end: n.getEnd(), line: lc.line + 1, column: lc.character + 1 };
  };
  const options = call.arguments[0];
  const properties: Record<string, OptionProperty> = {};
  let hasSpread = false;
  if (options && ts.isObjectLiteralExpression(options)) {
    for (const p of options.properties) {
      if (ts.isSpreadAssignment(p)) hasSpread = true;
      else if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name))
        properties[p.name.text] = { span: span(p), valueSpan: span(p.initializer), valueKind: 'other' };
      else if (ts.isShorthandPropertyAssignment(p)) properties[p.name.text] = { span: span(p), valueSpan: span(p), valueKind: 'other' };
    }
  }
  return {
    kind: 'sdk-tool',
    span: span(call),
    callee: span(call.expression),
    binding: { module: '@openai/agents', kind: 'named', localName: 'tool' },
    name: 'x',
    options: { span: options && ts.isObjectLiteralExpression(options) ? span(options) : undefined, properties, hasSpread },
  };
}

function read(text: string): ReadParametersResult {
  return readToolParameters({ file: '/repo/tools.ts', text }, firstToolCall(text));
}

function params(text: string): Record<string, Omit<ToolParameter, 'loc' | 'name'>> {
  const r = read(text);
  if (!r.readable) throw new Error(`unreadable: ${r.reason}`);
  return Object.fromEntries(r.parameters.map(({ name, loc: _loc, ...rest }) => [name, rest]));
}

const HEAD = "import { tool } from '@openai/agents';\nimport { z } from 'zod';\n";

describe('readToolParameters: zod', () => {
  it('reads z.object with string, int, number, boolean and enum members', () => {
    const p = params(`${HEAD}tool({ name: 'x', parameters: z.object({
      id: z.string(),
      amount: z.number().int(),
      count: z.int(),
      ratio: z.number(),
      flag: z.boolean(),
      kind: z.enum(['a', 'b']),
    }), execute: async () => '' });`);
    expect(p).toEqual({
      id: { type: 'string', required: true, nullable: false },
      amount: { type: 'integer', required: true, nullable: false },
      count: { type: 'integer', required: true, nullable: false },
      ratio: { type: 'number', required: true, nullable: false },
      flag: { type: 'boolean', required: true, nullable: false },
      kind: { type: 'enum', enumValues: ['a', 'b'], required: true, nullable: false },
    });
  });

  it('follows .optional(), .nullable(), .default(), .describe() chains in any order', () => {
    const p = params(`${HEAD}tool({ name: 'x', parameters: z.strictObject({
      a: z.string().optional(),
      b: z.number().int().nullable(),
      c: z.number().describe('cents').int().default(5),
      d: z.string().min(1).describe('id'),
      e: z.optional(z.boolean()),
      f: z.string().nullish(),
    }).describe('args') });`);
    expect(p.a).toEqual({ type: 'string', required: false, nullable: false, optional: true });
    expect(p.b).toEqual({ type: 'integer', required: true, nullable: true });
    // a literal default: the body always gets a value, which the policy decides on (issue 40)
    expect(p.c).toEqual({ type: 'integer', required: true, nullable: false, fill: { absent: { value: 5, from: 'default' } } });
    expect(p.d).toEqual({ type: 'string', required: true, nullable: false, lengths: [{ min: 1, after: 0 }] });
    expect(p.e).toEqual({ type: 'boolean', required: false, nullable: false, optional: true });
    expect(p.f).toEqual({ type: 'string', required: false, nullable: true, optional: true });
  });

  it('follows an identifier bound in the same file, for the object and for a member', () => {
    const p = params(`${HEAD}const Amount = z.number().int();
const Args = z.object({ amount: Amount, 'payment id': z.string() });
tool({ name: 'x', parameters: Args });`);
    expect(p.amount?.type).toBe('integer');
    expect(p['payment id']?.type).toBe('string');
  });

  it('follows a shorthand `parameters` property', () => {
    const p = params(`${HEAD}const parameters = z.object({ id: z.string() });\ntool({ name: 'x', parameters });`);
    expect(Object.keys(p)).toEqual(['id']);
  });

  it('accepts an aliased or namespace zod import and refuses a z that is not zod', () => {
    expect(read(`import * as zz from 'zod';\ntool({ name: 'x', parameters: zz.object({ id: zz.string() }) });`).readable).toBe(true);
    expect(read(`import { z as y } from 'zod/v4';\ntool({ name: 'x', parameters: y.object({ id: y.string() }) });`).readable).toBe(true);
    expect(read(`const { z } = require('zod');\ntool({ name: 'x', parameters: z.object({ id: z.string() }) });`).readable).toBe(true);
    expect(read(`const zod = require('zod');\ntool({ name: 'x', parameters: zod.object({ id: zod.string() }) });`).readable).toBe(true);
    const r = read(`import { z } from './my-zod';\ntool({ name: 'x', parameters: z.object({ id: z.string() }) });`);
    expect(r.readable).toBe(false);
  });

  it('marks a member it cannot read as unknown with a note, keeping the others', () => {
    const p = params(
      `${HEAD}tool({ name: 'x', parameters: z.object({ tags: z.array(z.string()), id: z.string().transform((s) => s) , n: z.string().int() }) });`,
    );
    expect(p.tags?.type).toBe('unknown');
    expect(p.tags?.note).toMatch(/z\.array/);
    expect(p.id?.type).toBe('unknown');
    expect(p.n?.type).toBe('unknown');
  });

  it('marks only the steps whose result cannot be known statically (issue 40: the policy decides on what the body gets)', () => {
    const p = params(`${HEAD}const LEVEL = 'medium';
tool({ name: 'x', parameters: z.object({
      to: z.string().trim().toLowerCase(),
      up: z.string().min(1).toUpperCase().describe('x'),
      tl: z.string().trim().max(5).length(3),
      owl: z.string().nonempty().overwrite((s) => s).min(2),
      ow: z.string().trim().overwrite((s) => s + '!'),
      owt: z.string().overwrite((s) => s + '!').trim(),
      d: z.boolean().default(false),
      lv: z.enum(['low', 'medium', 'high']).default(LEVEL),
      c: z.coerce.number().int(),
      cd: z.coerce.date(),
      pre: z.preprocess((v) => v, z.string()),
      t: z.string().transform((s) => s.length),
      pf: z.string().prefault('x'),
      ct: z.string().catch('none'),
      cto: z.string().catch('none').optional(),
      octo: z.string().optional().catch('none'),
      now: z.string().default(() => new Date().toISOString()),
      opt: z.string().default('a').optional(),
      half: z.number().default(0.5),
      plain: z.string().lowercase().regex(/^[a-z]+$/),
    }) });`);
    // string steps whose result is known, in order: test and explain apply them as the runtime does
    expect(p.to).toEqual({ type: 'string', required: true, nullable: false, steps: ['trim', 'toLowerCase'] });
    expect(p.up).toEqual({ type: 'string', required: true, nullable: false, steps: ['toUpperCase'], lengths: [{ min: 1, after: 0 }] });
    // length checks, each after the steps zod has applied when it checks; none after a step not known here
    expect(p.tl).toEqual({
      type: 'string',
      required: true,
      nullable: false,
      steps: ['trim'],
      lengths: [
        { max: 5, after: 1 },
        { min: 3, max: 3, after: 1 },
      ],
    });
    expect(p.owl).toEqual({ type: 'string', required: true, nullable: false, lengths: [{ min: 1, after: 0 }] });
    // one step whose result is not known here (`.overwrite(fn)`): no steps at all
    expect(p.ow).toEqual({ type: 'string', required: true, nullable: false });
    expect(p.owt).toEqual({ type: 'string', required: true, nullable: false });
    // the literal the body gets, which `test` and `explain` fill in as the runtime decides on it
    expect(p.d).toEqual({ type: 'boolean', required: true, nullable: false, fill: { absent: { value: false, from: 'default' } } });
    expect(p.lv).toEqual({
      type: 'enum',
      enumValues: ['low', 'medium', 'high'],
      required: true,
      nullable: false,
      fill: { absent: { value: 'medium', from: 'default' } },
    });
    expect(p.c).toEqual({ type: 'integer', required: true, nullable: false });
    expect(p.cd?.transforms).toBe('z.coerce.date()');
    expect(p.pre).toMatchObject({ type: 'string', transforms: 'z.preprocess()' });
    expect(p.t?.transforms).toBe('.transform()');
    // a prefault is parsed by the schema before it: recorded as such (its steps apply, a refusal refuses)
    expect(p.pf).toEqual({ type: 'string', required: true, nullable: false, fill: { absent: { value: 'x', from: 'prefault' } } });
    expect(p.ct).toEqual({
      type: 'string',
      required: true,
      nullable: false,
      fill: { absent: { value: 'none', from: 'catch' }, invalid: { value: 'none' } },
    });
    // zod 4: an .optional() over a .catch() leaves a missing value missing, over a .default() it does not
    expect(p.cto?.fill).toEqual({ invalid: { value: 'none' } });
    expect(p.octo?.fill).toEqual({ invalid: { value: 'none' } });
    expect(p.now).toEqual({ type: 'string', required: true, nullable: false, transforms: '.default(…)' });
    // a later .optional() lets the value be absent again for the generator's checks; zod 4 still fills it in
    expect(p.opt).toEqual({ type: 'string', required: false, nullable: false, optional: true, fill: { absent: { value: 'a', from: 'default' } } });
    expect(p.half).toEqual({ type: 'number', required: true, nullable: false, floatFill: '.default(0.5)' });
    expect(p.plain).toEqual({ type: 'string', required: true, nullable: false });
  });

  it('marks a step not known statically on, or inside, a member of a type it does not read (an object, an array)', () => {
    // the shape of a public app's tool: the whole nested object defaults to null, its list to []
    const p = params(`${HEAD}tool({ name: 'x', parameters: z.object({
      city: z.object({ name: z.string(), highlights: z.array(z.string()).default([]) }).nullable().default(null),
      tags: z.array(z.string()).default([]),
      inner: z.object({ name: z.string().trim() }),
      coerced: z.array(z.coerce.number()),
      piped: z.object({ at: z.string().transform((s) => new Date(s)) }),
      later: z.array(z.string()).default(() => []),
      list: z.array(z.string()).min(1),
      obj: z.object({ name: z.string() }).nullable(),
    }) });`);
    expect(p.city?.type).toBe('unknown');
    // JSON literals: known
    expect(p.city?.transforms).toBeUndefined();
    expect(p.tags?.transforms).toBeUndefined();
    expect(p.inner?.transforms).toBeUndefined();
    expect(p.coerced?.transforms).toBeUndefined();
    expect(p.piped?.transforms).toBe('.transform()');
    expect(p.later?.transforms).toBe('.default(…)');
    expect(p.list?.transforms).toBeUndefined();
    expect(p.obj?.transforms).toBeUndefined();
  });

  it('reports the location of each parameter', () => {
    const r = read(`${HEAD}tool({ name: 'x', parameters: z.object({\n  id: z.string(),\n  amount: z.int() }) });`);
    expect(r.readable && r.parameters.map((p) => [p.name, p.loc.line, p.loc.column])).toEqual([
      ['id', 4, 3],
      ['amount', 5, 3],
    ]);
  });
});

describe('readToolParameters: JSON schema', () => {
  it('reads a JSON-schema object literal with required', () => {
    const p = params(`import { tool } from '@openai/agents';
tool({ name: 'x', parameters: {
  type: 'object',
  properties: {
    id: { type: 'string', description: 'the id' },
    amount: { type: 'integer' },
    ratio: { type: 'number' },
    flag: { type: 'boolean' },
    kind: { type: 'string', enum: ['a', 'b'] },
    note: { type: ['string', 'null'] },
    list: { type: 'array', items: { type: 'string' } },
  },
  required: ['id', 'amount', 'note'],
  additionalProperties: false,
} as const, strict: true, execute: async () => '' });`);
    expect(p).toEqual({
      id: { type: 'string', required: true, nullable: false },
      amount: { type: 'integer', required: true, nullable: false },
      ratio: { type: 'number', required: false, nullable: false },
      flag: { type: 'boolean', required: false, nullable: false },
      kind: { type: 'enum', enumValues: ['a', 'b'], required: false, nullable: false },
      note: { type: 'string', required: true, nullable: true },
      list: { type: 'unknown', required: false, nullable: false, note: expect.stringContaining('array') },
    });
  });

  it('follows a const holding the schema', () => {
    const p = params(
      `const schema = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } as const;\ntool({ name: 'x', parameters: schema });`,
    );
    expect(p.id).toEqual({ type: 'string', required: true, nullable: false });
  });

  it('refuses a schema that is not type object or whose required is not literal', () => {
    expect(read(`tool({ name: 'x', parameters: { type: 'string' } });`).readable).toBe(false);
    expect(read(`const r = ['id'];\ntool({ name: 'x', parameters: { type: 'object', properties: {}, required: [...r] } });`).readable).toBe(false);
  });
});

describe('readToolParameters: cannot be read statically', () => {
  it.each([
    ['an imported schema', `import { Args } from './schemas.js';\ntool({ name: 'x', parameters: Args });`, /not a const bound/],
    ['a function call', `${HEAD}tool({ name: 'x', parameters: makeSchema() });`, /neither/],
    ['z.object(...).extend()', `${HEAD}tool({ name: 'x', parameters: z.object({ a: z.string() }).extend({ b: z.string() }) });`, /extend/],
    ['a let binding', `${HEAD}let Args = z.object({});\ntool({ name: 'x', parameters: Args });`, /not a const/],
    ['a spread in the shape', `${HEAD}const base = {};\ntool({ name: 'x', parameters: z.object({ ...base }) });`, /cannot be read/],
    ['a spread in the options', `${HEAD}const base = {};\ntool({ ...base, name: 'x' });`, /spread/],
    ['z.record', `${HEAD}tool({ name: 'x', parameters: z.record(z.string(), z.string()) });`, /z\.record/],
    [
      'a name bound twice',
      `${HEAD}const A = z.object({});\nfunction f() { const A = z.object({ b: z.string() }); return A; }\ntool({ name: 'x', parameters: A });`,
      /more than once/,
    ],
  ])('%s', (_what, text, reason) => {
    const r = read(text);
    expect(r.readable).toBe(false);
    if (!r.readable) expect(r.reason).toMatch(reason);
  });

  it('a cycle of names ends as unreadable, not a hang', () => {
    const r = read(`${HEAD}const A = B;\nconst B = A;\ntool({ name: 'x', parameters: A });`);
    expect(r.readable).toBe(false);
  });
});

describe('readToolParameters: zod loaded by Deno’s npm: or a URL (issue 40 item 4, gap I)', () => {
  const body = "tool({ name: 'x', parameters: z.object({ id: z.string(), amount: z.number().int().optional() }), execute: async () => '' });";
  const byName = params(`${HEAD}${body}`);
  for (const zod of ['npm:zod@3', 'npm:zod', 'https://esm.sh/zod@3.23.8', 'https://cdn.jsdelivr.net/npm/zod@3/+esm'])
    it(`\`${zod}\`: the parameters read as from \`zod\``, () => {
      expect(params(`import { tool } from 'npm:@openai/agents@0.20.0';\nimport { z } from '${zod}';\n${body}`)).toEqual(byName);
      expect(params(`import { tool } from 'npm:@openai/agents@0.20.0';\nconst { z } = require('${zod}');\n${body}`)).toEqual(byName);
    });

  it('control: a package whose name starts with zod’s is not zod', () => {
    expect(read(`import { tool } from '@openai/agents';\nimport { z } from 'npm:zodiac@1';\n${body}`).readable).toBe(false);
  });
});
