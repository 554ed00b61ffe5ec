import fc from 'fast-check';
import { ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { renderModuleText } from '../../src/generate/render.js';
import { evaluate } from '../../src/policy/evaluate.js';
import type { Condition, Decision, Operand, Operator, Policy, PolicyAction, Rule, Scalar, Template, TemplatePart } from '../../src/policy/types.js';
import { parsePolicy } from '../../src/policy/load.js';
import { checkArguments, parseArguments } from '../../src/runtime/arguments.js';
import { decideArguments } from '../../src/runtime/decide.js';
import type { CompiledPolicy, TemplateResult } from '../../src/runtime/types.js';

/**
 * The compiled decision functions agree with the reference evaluator (`evaluate`, what `explain`
 * uses) on decision, rule and reason, for random policies and random arguments; the compiled
 * templates agree with a reference renderer written from SPEC §2.
 */

const loc = { file: '/repo/ctrlrun.yaml', line: 1, column: 1 };
// Argument names, several with `_` (and names that collide with Object.prototype members).
const ARG_NAMES = ['amount', 'payment_id', 'a_b_c', 'x', 'is_live', 'in_gte', 'lt', 'constructor', '__proto__', 'toString', 'neq_eq'];
const STRINGS = ['', 'eur', 'usd', 'a', 'A', ' eur', '0', '1', 'true', "it's", 'é'];
const EDGE_INTS = [0, 1, -1, 100, 10_000, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER];

const safeInt = fc.oneof(fc.integer({ min: -20, max: 20 }), fc.constantFrom(...EDGE_INTS), fc.maxSafeInteger());
// Integers beyond 2^53 are bigints, as the loader and the lossless argument parser normalize them.
const bigInt = fc.constantFrom(2n ** 53n + 1n, -(2n ** 53n) - 1n, 2n ** 64n, 10n ** 30n);
const anyInt = fc.oneof({ weight: 5, arbitrary: safeInt }, { weight: 1, arbitrary: bigInt });
const scalar: fc.Arbitrary<Scalar> = fc.oneof(anyInt, fc.constantFrom(...STRINGS), fc.string({ maxLength: 4 }), fc.boolean(), fc.constant(null));
const operand: fc.Arbitrary<Operand> = fc.oneof(
  { weight: 6, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 2 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('a', 'b'), scalar, { maxKeys: 2 }) },
);

const condition: fc.Arbitrary<Omit<Condition, 'loc'>> = fc
  .tuple(fc.constantFrom(...ARG_NAMES), fc.constantFrom<Operator>('eq', 'neq', 'in', 'lt', 'lte', 'gt', 'gte'))
  .chain(([arg, op]) => {
    const value: fc.Arbitrary<Operand> = op === 'in' ? fc.array(operand, { maxLength: 4 }) : op === 'eq' || op === 'neq' ? operand : anyInt;
    return value.map((v) => ({ key: `${arg}_${op}`, arg, op, value: v }));
  });

const decision = fc.constantFrom<Decision>('allow', 'approve', 'deny');

const templateParts: fc.Arbitrary<TemplatePart[]> = fc.array(
  fc.oneof(
    fc.constantFrom(...ARG_NAMES).map((arg): TemplatePart => ({ kind: 'arg', arg })),
    fc
      .string({ maxLength: 5 })
      .filter((s) => s !== '' && !/[{}]/.test(s))
      .map((text): TemplatePart => ({ kind: 'text', text })),
  ),
  { minLength: 1, maxLength: 5 },
);

function template(parts: TemplatePart[]): Template {
  return { source: parts.map((p) => (p.kind === 'arg' ? `{${p.arg}}` : p.text)).join(''), parts, loc };
}

const action = (id: string): fc.Arbitrary<PolicyAction> =>
  fc
    .record({
      rules: fc.array(fc.record({ when: fc.array(condition, { maxLength: 4 }), decision }), { minLength: 1, maxLength: 5 }),
      effect: fc.option(templateParts, { nil: undefined }),
      resource: fc.option(templateParts, { nil: undefined }),
    })
    .map(({ rules, effect, resource }) => ({
      id,
      ...(effect ? { effect: template(effect) } : {}),
      ...(resource ? { resource: template(resource) } : {}),
      bare: false,
      controls: [],
      approvalsRequired: 1,
      maxAttempts: 1,
      mcp: { notExecutedOnError: false },
      rules: rules.map((r, index): Rule => ({ index, decision: r.decision, controls: [], loc, when: r.when.map((c) => ({ ...c, loc })) })),
      loc,
    }));

const policy: fc.Arbitrary<Policy> = fc.tuple(action('pay.refund'), action('pay.read'), action('a-b')).map((actions) => ({
  schemaVersion: 6,
  mode: 'enforce',
  controls: {},
  actions: Object.fromEntries(actions.map((a) => [a.id, a])),
  hash: '0'.repeat(64),
  file: loc.file,
}));

// Argument values as a model's JSON could carry them (and NaN, ±Infinity, which it could not, for totality).
const argValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: safeInt },
  { weight: 3, arbitrary: fc.constantFrom(...STRINGS) },
  { weight: 2, arbitrary: fc.boolean() },
  { weight: 2, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  // biome-ignore lint/correctness/noPrecisionLoss: 2 ** 53 + 1 is written out on purpose: the literal the generated code must not round
  { weight: 1, arbitrary: fc.constantFrom(0.5, -0, 1e300, 2 ** 53, -(2 ** 53), 9_007_199_254_740_993, 1.0000001, Number.NaN, Infinity, -Infinity) },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: bigInt },
  { weight: 1, arbitrary: fc.array(fc.oneof(safeInt, fc.constant(null), fc.constantFrom(...STRINGS)), { maxLength: 2 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('a', 'b', ...ARG_NAMES), safeInt, { maxKeys: 2 }) },
);
const argsObject = fc.dictionary(fc.constantFrom(...ARG_NAMES, 'other'), argValue, { maxKeys: 6 });
const args: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 8, arbitrary: argsObject },
  // The same, as parsed JSON (own `__proto__` keys, -0 becomes 0).
  { weight: 4, arbitrary: argsObject.map((o) => JSON.parse(JSON.stringify(o, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))) as unknown) },
  { weight: 1, arbitrary: fc.constantFrom(null, undefined, 5, 'amount', true, [], [1, 2], Object.create(null) as unknown) },
  { weight: 1, arbitrary: fc.constant(JSON.parse('{"__proto__": 5, "amount": 5, "constructor": "x"}') as unknown) },
);

/** Renders the module, transpiles it and evaluates it with its two imports stubbed. */
function compile(p: Policy): CompiledPolicy {
  const text = renderModuleText({
    policy: p,
    policyFile: 'ctrlrun.yaml',
    manifestFile: 'ctrlrun.tools.yaml',
    controlFile: 'src/ctrlrun.control.ts',
    controlSpecifier: './ctrlrun.control.js',
    tools: {},
    sdkTypes: '@openai/agents',
    inputsHash: '0'.repeat(64),
    version: '0.0.0',
  });
  const js = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  const exports: Record<string, unknown> = {};
  const require = (specifier: string): unknown => {
    if (specifier === 'ctrlrun-gen/runtime')
      return {
        bindProtectedTool: () => () => undefined,
        bindMcp: () => ({}),
        bindHostedMcp: () => () => undefined,
        bindLocalTools: () => ({}),
        bindAgentTools: () => ({}),
        bindSandbox: () => ({}),
        bindHandoffs: () => ({}),
      };
    if (specifier === './ctrlrun.control.js') return { default: {} };
    throw new Error(`unexpected import ${specifier}`);
  };
  new Function('exports', 'require', js)(exports, require);
  return exports['policy'] as CompiledPolicy;
}

/** The runtime's path: arguments checked, then `decideArguments` over the generated functions (the resource first). */
function runtimeDecision(compiled: CompiledPolicy, id: string, a: unknown) {
  const d = decideArguments(compiled.actions[id], checkArguments(a));
  return { decision: d.decision, rule: d.rule, reason: d.reason, effectKey: d.effectKey, resource: d.resource };
}

function referenceDecision(p: Policy, id: string, a: unknown) {
  const e = evaluate(p, id, a);
  return { decision: e.decision, rule: e.rule, reason: e.reason, effectKey: e.effectKey, resource: e.resource };
}

/** SPEC §2: placeholders left to right; each must be a non-empty string or a safe integer. */
function referenceRender(t: Template, a: unknown): TemplateResult {
  let value = '';
  for (const part of t.parts) {
    if (part.kind === 'text') {
      value += part.text;
      continue;
    }
    const v: unknown =
      typeof a === 'object' && a !== null && !Array.isArray(a) && Object.hasOwn(a, part.arg) ? (a as Record<string, unknown>)[part.arg] : undefined;
    if (!((typeof v === 'string' && v !== '') || Number.isSafeInteger(v) || typeof v === 'bigint')) return { ok: false, arg: part.arg };
    value += String(v);
  }
  return { ok: true, value };
}

describe('compiled decision functions agree with evaluate()', () => {
  it('on decision, rule and reason, for random policies and arguments', () => {
    fc.assert(
      fc.property(policy, fc.array(args, { minLength: 20, maxLength: 20 }), (p, calls) => {
        const compiled = compile(p);
        for (const id of Object.keys(p.actions)) {
          for (const a of calls) expect(runtimeDecision(compiled, id, a)).toEqual(referenceDecision(p, id, a));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('arguments built to hit the rules (values taken from the conditions) agree too', () => {
    fc.assert(
      fc.property(policy, fc.array(fc.nat(), { minLength: 30, maxLength: 30 }), (p, picks) => {
        const compiled = compile(p);
        const conditions = Object.values(p.actions).flatMap((a) => a.rules.flatMap((r) => r.when));
        if (conditions.length === 0) return;
        for (let i = 0; i < picks.length; i += 3) {
          const a: Record<string, unknown> = {};
          for (const pick of picks.slice(i, i + 3)) {
            const c = conditions[pick % conditions.length]!;
            const v = Array.isArray(c.value) ? c.value[pick % Math.max(1, c.value.length)] : c.value;
            a[c.arg] = typeof v === 'number' ? v + ((pick % 3) - 1) : typeof v === 'bigint' ? v + BigInt((pick % 3) - 1) : v;
          }
          for (const id of Object.keys(p.actions)) expect(runtimeDecision(compiled, id, a)).toEqual(referenceDecision(p, id, a));
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe('compiled templates agree with the reference renderer', () => {
  it('for random templates and arguments', () => {
    fc.assert(
      fc.property(policy, fc.array(args, { minLength: 20, maxLength: 20 }), (p, calls) => {
        const compiled = compile(p);
        for (const [id, a] of Object.entries(p.actions)) {
          for (const what of ['effect', 'resource'] as const) {
            const t = a[what];
            const fn = compiled.actions[id]![what];
            expect(fn === undefined).toBe(t === undefined);
            if (!t || !fn) continue;
            for (const call of calls) expect(fn(call, null)).toEqual(referenceRender(t, call));
          }
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe('generated argument reads never see inherited values', () => {
  // Each rule holds when its argument is present (neq against a value no call sends): a read that
  // fell through to Object.prototype (`constructor`, `toString`, `__proto__`, `hasOwnProperty`) or
  // to a polluted prototype would make a rule match a call that never sent that argument.
  const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'amount'];
  const text = [
    'schema: ctrlrun.policy/v6',
    'actions:',
    '  a:',
    '    effect: "e:{toString}"',
    '    rules:',
    ...names.map((n) => `      - when: { ${n}_neq: "never-sent" }\n        decision: allow`),
    '      - decision: deny',
    '',
  ].join('\n');
  const loaded = parsePolicy(text, 'ctrlrun.yaml');
  if (!loaded.value) throw new Error(JSON.stringify(loaded.diagnostics));
  const p = loaded.value;

  it('on plain objects, null-prototype objects and parsed JSON (own keys named like prototype members are read)', () => {
    const compiled = compile(p);
    const action = compiled.actions['a']!;
    for (const empty of [{}, Object.create(null) as object, JSON.parse('{}') as object]) {
      expect(action.decide(empty)).toEqual({ decision: 'deny', rule: names.length, reason: `rule[${names.length}]` });
      expect(action.effect!(empty, null)).toEqual({ ok: false, arg: 'toString' });
    }
    names.forEach((n, i) => {
      const parsed = parseArguments(`{${JSON.stringify(n)}: "x"}`);
      if (!parsed.ok) throw new Error(parsed.detail);
      expect(action.decide(parsed.value), n).toEqual({ decision: 'allow', rule: i, reason: `rule[${i}]` });
      // through the runtime the effect template comes first: `{toString}` is missing unless sent
      expect(runtimeDecision(compiled, 'a', parsed.value), n).toEqual(referenceDecision(p, 'a', parsed.value));
      expect(referenceDecision(p, 'a', parsed.value).reason, n).toBe(n === 'toString' ? 'rule[2]' : 'effect_key_error');
    });
    const withEffect = parseArguments('{"toString": "t", "constructor": 1}');
    if (!withEffect.ok) throw new Error(withEffect.detail);
    expect(runtimeDecision(compiled, 'a', withEffect.value)).toEqual({ decision: 'allow', rule: 1, reason: 'rule[1]', effectKey: 'e:t', resource: null });
  });

  it('a polluted Object.prototype is not read', () => {
    const compiled = compile(p);
    const action = compiled.actions['a']!;
    Object.defineProperty(Object.prototype, 'amount', { value: 'polluted', configurable: true, writable: true });
    try {
      expect(({} as Record<string, unknown>)['amount']).toBe('polluted');
      expect(action.decide({})).toEqual({ decision: 'deny', rule: names.length, reason: `rule[${names.length}]` });
      expect(referenceDecision(p, 'a', {})).toMatchObject({ decision: 'deny' });
    } finally {
      delete (Object.prototype as Record<string, unknown>)['amount'];
    }
  });
});
