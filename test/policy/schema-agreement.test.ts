import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { OPERATORS, RESERVED_SUBJECTS } from '../../src/policy/grammar.js';
import { parsePolicy } from '../../src/policy/load.js';
import { REPO_ROOT } from '../helpers/paths.js';

/**
 * The loader and policy.schema.json agree on every valid file: random policies built from the
 * grammar (every version, key and operator) are accepted by both. Random mutations that the
 * schema can express (unknown keys, a newer key than the version, a reserved subject, a float)
 * are refused by both.
 */

const ajv = new Ajv2020.default({ allErrors: true });
const validate = ajv.compile(JSON.parse(readFileSync(path.join(REPO_ROOT, 'policy.schema.json'), 'utf8')));

const id = fc.stringMatching(/^[a-z0-9]{1,6}(?:[._-][a-z0-9]{1,6}){0,2}$/);
const arg = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/).filter((a) => !RESERVED_SUBJECTS.includes(a));
const int = fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
const scalar = fc.oneof(
  int,
  fc.string({ maxLength: 8 }).filter((s) => s !== '=' && s !== '<<'),
  fc.boolean(),
  fc.constant(null),
);
const decision = fc.constantFrom('allow', 'approve', 'deny');
/** A plain `=` or `<<` cannot be a string in YAML 1.1 (PyYAML refuses the document): the writer does not quote them. */
const yaml11String = (s: string) => s !== '=' && s !== '<<';
const template = fc
  .array(
    fc.oneof(
      fc.stringMatching(/^[^{}]{1,5}$/),
      arg.map((a) => `{${a}}`),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((p) => p.join(''))
  .filter(yaml11String);

const condition = fc
  .constantFrom(...OPERATORS)
  .chain((op) =>
    fc
      .tuple(arg, op === 'in' ? fc.array(scalar, { minLength: 1, maxLength: 4 }) : ['lt', 'lte', 'gt', 'gte'].includes(op) ? int : scalar)
      .map(([a, v]) => [`${a}_${op}`, v] as const),
  );
// `when: {}` is refused (CTRLRun): a rule without entries leaves `when` out.
const rule = fc.record(
  { when: fc.array(condition, { minLength: 1, maxLength: 4 }).map((cs) => Object.fromEntries(cs)), decision },
  { requiredKeys: ['decision'] },
);

function policyArb(version: number) {
  const controlIds = fc.uniqueArray(id, { maxLength: 3 });
  return controlIds.chain((controls) => {
    const actionBody = fc
      .record(
        {
          body: fc.oneof(
            decision.map((d) => ({ decision: d })),
            fc.array(rule, { minLength: 1, maxLength: 4 }).map((rules) => ({ rules })),
          ),
          effect: version >= 2 ? template : fc.constant(undefined),
          resource: version >= 2 ? template : fc.constant(undefined),
          controls: version >= 4 && controls.length > 0 ? fc.uniqueArray(fc.constantFrom(...controls), { maxLength: controls.length }) : fc.constant(undefined),
          mcp: version >= 2 ? fc.boolean().map((b) => ({ not_executed_on_error: b })) : fc.constant(undefined),
          max_attempts: version >= 5 ? fc.integer({ min: 1, max: 1_000_000 }) : fc.constant(undefined),
          approvals_required: version >= 6 ? fc.integer({ min: 1, max: 1_000 }) : fc.constant(undefined),
        },
        { requiredKeys: ['body'] },
      )
      .map(({ body, ...rest }) => ({ ...body, ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)) }));
    return fc
      .record(
        {
          schema: fc.constant(`ctrlrun.policy/v${version}`),
          mode: version >= 3 ? fc.constantFrom('enforce', 'observe') : fc.constant(undefined),
          environment: version >= 3 ? fc.string({ minLength: 1, maxLength: 8 }).filter((e) => /\S/.test(e) && yaml11String(e)) : fc.constant(undefined),
          version: version >= 4 ? fc.string({ minLength: 1, maxLength: 8 }).filter((e) => /\S/.test(e) && yaml11String(e)) : fc.constant(undefined),
          controls: version >= 4 ? fc.constant(Object.fromEntries(controls.map((c) => [c, { title: `t ${c}` }]))) : fc.constant(undefined),
          actions: fc.dictionary(id, actionBody, { maxKeys: 4 }),
        },
        { requiredKeys: version >= 4 ? ['schema', 'actions', 'controls'] : ['schema', 'actions'] },
      )
      .map((p) => JSON.parse(JSON.stringify(p)) as Record<string, unknown>);
  });
}

const anyPolicy = fc.integer({ min: 1, max: 8 }).chain(policyArb);
// Written as YAML 1.1 (CTRLRun reads 1.1): a string such as `no` or `017` is quoted.
const render = (p: unknown, flow: boolean) => YAML.stringify(p, { collectionStyle: flow ? 'flow' : 'block', version: '1.1' });
/**
 * The document the schema judges: the text as CTRLRun reads it (YAML 1.1, SPEC §2). Read as YAML
 * 1.2 instead, a plain `0o0` became the number 0 and the schema refused a file the loader rightly
 * accepts (seed 810315264; kept below as a regression case).
 */
const asCtrlrunReads = (text: string): unknown => YAML.parse(text, { version: '1.1' });

/** The counterexample of seed 810315264: a control named `0o0`, a string in YAML 1.1, unquoted by the writer. */
const OCTAL_LOOKING_CONTROL = {
  schema: 'ctrlrun.policy/v4',
  controls: { '0o0': { title: 't 0o0' } },
  actions: { a: { decision: 'allow', controls: ['0o0'] } },
};

describe('loader and schema agree', () => {
  it('every generated valid policy is accepted by both', () => {
    fc.assert(
      fc.property(anyPolicy, fc.boolean(), (p, flow) => {
        const text = render(p, flow);
        const r = parsePolicy(text, 'p.yaml');
        expect(
          r.diagnostics.filter((d) => d.severity === 'error'),
          text,
        ).toEqual([]);
        expect(validate(asCtrlrunReads(text)), JSON.stringify(validate.errors)).toBe(true);
      }),
      {
        numRuns: 300,
        examples: [
          [OCTAL_LOOKING_CONTROL, false],
          [OCTAL_LOOKING_CONTROL, true],
        ],
      },
    );
  });

  it('a control named `0o0` (a string in YAML 1.1, written unquoted) is accepted by both, as the string', () => {
    const text = render(OCTAL_LOOKING_CONTROL, true);
    expect(text).toContain('[ 0o0 ]');
    const r = parsePolicy(text, 'p.yaml');
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(Object.keys(r.value!.controls ?? {})).toEqual(['0o0']);
    expect(validate(asCtrlrunReads(text)), JSON.stringify(validate.errors)).toBe(true);
  });

  it('schema-expressible mistakes are refused by both', () => {
    const mutations: Array<(p: Record<string, any>) => boolean> = [
      (p) => {
        p.actoins = {};
        return true;
      },
      (p) => {
        const a = Object.values(p.actions)[0] as Record<string, unknown> | undefined;
        if (!a) return false;
        a.approval_required = 2;
        return true;
      },
      (p) => {
        const a = Object.values(p.actions)[0] as Record<string, unknown> | undefined;
        if (!a || Number(String(p.schema).slice(-1)) >= 6) return false;
        a.approvals_required = 2;
        return true;
      },
      (p) => {
        const a = Object.values(p.actions)[0] as Record<string, unknown> | undefined;
        if (!a) return false;
        delete a.decision;
        a.rules = [{ when: { principal_eq: 'x' }, decision: 'allow' }];
        return true;
      },
      (p) => {
        const a = Object.values(p.actions)[0] as Record<string, unknown> | undefined;
        if (!a) return false;
        delete a.decision;
        a.rules = [{ when: { amount_lte: 1.5 }, decision: 'allow' }];
        return true;
      },
      (p) => {
        p.budgets = {};
        return true;
      },
    ];
    fc.assert(
      fc.property(anyPolicy, fc.integer({ min: 0, max: mutations.length - 1 }), (p, m) => {
        if (!mutations[m]!(p)) return;
        const text = render(p, false);
        expect(parsePolicy(text, 'p.yaml').value, text).toBeUndefined();
        expect(validate(asCtrlrunReads(text)), text).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});

/** The same mappings with their keys in reverse order (lists keep their order). */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([k, v]) => [k, reverseKeys(v)]),
    );
  return value;
}

describe('policy hash stability', () => {
  it('is the same for block style, flow style and reversed key order; changes with a rule order swap that matters', () => {
    fc.assert(
      fc.property(anyPolicy, (p) => {
        const hashOf = (text: string) => {
          const r = parsePolicy(text, 'p.yaml');
          expect(r.value, text).toBeDefined();
          return r.value!.hash;
        };
        const h = hashOf(render(p, false));
        expect(hashOf(render(p, true))).toBe(h);
        expect(hashOf(render(reverseKeys(p), false))).toBe(h);
        expect(hashOf(`# a comment\n${render(reverseKeys(p), true)}`)).toBe(h);
        // First match wins: swapping two different rules is a different policy.
        type R = { when?: Record<string, unknown>; decision: string };
        const meaning = (r: R) => JSON.stringify([r.decision, Object.entries(r.when ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))]);
        const actions = p.actions as Record<string, { rules?: R[] }>;
        const target = Object.values(actions).find((a) => a.rules !== undefined && a.rules.length >= 2 && meaning(a.rules[0]!) !== meaning(a.rules[1]!));
        if (target?.rules) {
          [target.rules[0], target.rules[1]] = [target.rules[1]!, target.rules[0]!];
          expect(hashOf(render(p, false))).not.toBe(h);
        }
      }),
      { numRuns: 200 },
    );
  });
});
