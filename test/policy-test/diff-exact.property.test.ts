import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ActionSchemas, ParamSchema, ToolSchema } from '../../src/generate/tool-schemas.js';
import { acceptsCall } from '../../src/generate/tool-schemas.js';
import { signatureOf } from '../../src/policy/exact/atoms.js';
import { compareAction } from '../../src/policy/exact/compare.js';
import { DEFAULT_ENVIRONMENT } from '../../src/policy/exact/model.js';
import { ABSENT } from '../../src/policy/exact/values.js';
import { parsePolicy } from '../../src/policy/load.js';
import type { Policy } from '../../src/policy/types.js';
import { createDecider, type DecidedCall, type Decider } from '../../src/policy-test/decider.js';
import { argSchemas } from '../../src/policy-test/arg-schemas.js';
import { diffPolicies } from '../../src/policy-test/diff.js';
import { regionDiffs } from '../../src/policy-test/diff-regions.js';

// The exact diff against brute force: random pairs of policies over small finite domains (rules,
// data labels, templates, controls and roles, approvals, grants with every field), and every call
// of a finite domain decided by both versions' generated modules. Every call whose outcome differs
// lies in a region the procedure reports, with that region's outcomes (no false negative); no call
// whose outcome is the same lies in one (no false positive); each region's witness differs.

const NOW = Date.parse('2026-06-01T00:00:00Z');
const DAY = 86_400_000;
const ACT = 'act';

const COND_VALUES = [0, 1, 2, 3, 'x', 'y', '', null, true, [1]] as const;
const ARG_VALUES: unknown[] = [ABSENT, null, true, false, 0, 1, 2, 3, -1, 'x', 'y', '', 'x:y', [1], {}];
/** With grants the context multiplies the calls: fewer argument values there. */
const ARG_VALUES_WITH_GRANTS: unknown[] = [ABSENT, null, 0, 2, 3, 'x', '', 'x:y'];
const CONTEXT = {
  agents: ['ann', 'a', 'bob'],
  users: [null, 'u1', 'u'],
  environments: [null, 'prod', 'dev'],
  tasks: [null, 't:1', 'x'],
  times: [NOW, NOW + DAY, NOW + DAY + 1],
};
/** Resources: the arguments pasted into the resource, of every shape the patterns tell apart. */
const RESOURCE_VALUES: unknown[] = [ABSENT, 'x', 'y', 'r', 'x:y', 'r:x', ':', '', 'xr', 1, 12];

const arg = fc.constantFrom('a', 'b');
const condition = fc.oneof(
  fc.record({ arg, op: fc.constantFrom('lt', 'lte', 'gt', 'gte'), value: fc.constantFrom(0, 1, 2, 3) }),
  fc.record({ arg, op: fc.constantFrom('eq', 'neq'), value: fc.constantFrom(...COND_VALUES) }),
  fc.record({ arg, op: fc.constant('in'), value: fc.subarray([0, 1, 'x', 'y', null, [1]] as unknown[]) }),
  fc.record({ arg: fc.constant('data_scope'), op: fc.constantFrom('in', 'eq', 'neq'), value: fc.subarray(['pii', 'internal']) }),
);
const when = fc.uniqueArray(condition, { maxLength: 2, selector: (c) => `${c.arg}_${c.op}` });
const decision = fc.constantFrom('allow', 'approve', 'deny');
const rule = fc.record({ when, decision, controls: fc.subarray(['c1', 'c2']) });
const action = fc.record({
  bare: fc.option(decision, { nil: undefined }),
  rules: fc.array(rule, { minLength: 1, maxLength: 4 }),
  effect: fc.constantFrom(null, 'k:{a}', 'k:{a}:{b}', 'k:{resource}'),
  resource: fc.constantFrom(null, 'r:{a}', 'r:{b}', '{a}:{b}'),
  controls: fc.subarray(['c1', 'c2']),
  approvals: fc.constantFrom(1, 2),
  data: fc.constantFrom(null, { b: 'pii' }, { a: 'pii', b: 'internal' }),
});
const grant = fc.record({
  id: fc.constantFrom('g1', 'g2', 'g3'),
  agent: fc.constantFrom(undefined, 'ann', 'a*', 'a', '*'),
  user: fc.constantFrom(undefined, 'u*', 'u1', 'u'),
  actions: fc.constantFrom([ACT], ['**'], ['other']),
  resources: fc.constantFrom(null, ['r:x*'], ['r:*'], ['r:**'], ['x:**'], ['x:y'], ['*:*'], ['x*', 'r:*']),
  constraints: fc.uniqueArray(
    condition.filter((c) => c.arg !== 'data_scope'),
    { maxLength: 1, selector: (c) => `${c.arg}_${c.op}` },
  ),
  environments: fc.constantFrom(null, ['prod']),
  expires: fc.constantFrom(null, NOW - DAY, NOW + DAY),
  tasks: fc.constantFrom(null, ['t:*'], ['t']),
  budgets: fc.constantFrom(null, '[{ metric: count, limit: 5, window: PT1H }]', '[{ metric: a, limit: 10, window: P1D }]'),
});
const policyArb = (withGrants: boolean) =>
  fc.record({
    mode: fc.constantFrom('enforce', 'enforce', 'observe'),
    action: fc.option(action, { nil: undefined, freq: 6 }),
    roles: fc.record({ c1: fc.constantFrom(null, 'r1', 'r2'), c2: fc.constantFrom(null, 'r1') }),
    grants: withGrants ? fc.option(fc.uniqueArray(grant, { maxLength: 2, selector: (g) => g.id }), { nil: undefined }) : fc.constant(undefined),
    environment: fc.constantFrom(undefined, 'prod'),
  });
type PolicySpec = typeof policyArb extends (b: boolean) => fc.Arbitrary<infer T> ? T : never;

const y = (v: unknown): string => JSON.stringify(v);
const whenText = (w: ReadonlyArray<{ arg: string; op: string; value: unknown }>) => `{ ${w.map((c) => `${c.arg}_${c.op}: ${y(c.value)}`).join(', ')} }`;

/** The policy's text; `id`: the id its action is written under (a tool mapped to another action). */
function render(p: PolicySpec, id: string = ACT): string {
  const out = ['schema: ctrlrun.policy/v7', `mode: ${p.mode}`];
  if (p.environment) out.push(`environment: ${p.environment}`);
  out.push('controls:');
  for (const [id, role] of Object.entries(p.roles)) out.push(`  ${id}: { title: t${id}${role ? `, approver_role: ${role}` : ''} }`);
  if (p.grants) {
    out.push('authority:', '  grants:');
    for (const g of p.grants) {
      out.push(`    - id: ${g.id}`);
      out.push(`      subject: { ${[g.agent ? `agent: ${y(g.agent)}` : '', g.user ? `user: ${y(g.user)}` : ''].filter(Boolean).join(', ') || 'agent: "*"'} }`);
      out.push(`      actions: ${y(g.actions)}`);
      if (g.resources) out.push(`      resources: ${y(g.resources)}`);
      if (g.constraints.length > 0) out.push(`      constraints: ${whenText(g.constraints)}`);
      if (g.environments) out.push(`      environments: ${y(g.environments)}`);
      if (g.expires !== null) out.push(`      expires_at: "${new Date(g.expires).toISOString()}"`);
      if (g.tasks) out.push(`      tasks: ${y(g.tasks)}`);
      if (g.budgets) out.push(`      budgets: ${g.budgets}`);
    }
  }
  out.push('actions:', '  other: { decision: allow }');
  const a = p.action;
  if (a) {
    out.push(`  ${id}:`);
    if (a.effect) out.push(`    effect: ${y(a.effect)}`);
    if (a.resource) out.push(`    resource: ${y(a.resource)}`);
    if (a.controls.length > 0) out.push(`    controls: ${y(a.controls)}`);
    out.push(`    approvals_required: ${a.approvals}`);
    if (a.data) out.push(`    data: ${y(a.data)}`);
    if (a.bare) out.push(`    decision: ${a.bare}`);
    else {
      out.push('    rules:');
      for (const r of a.rules)
        out.push(
          `      - { ${[r.when.length > 0 ? `when: ${whenText(r.when)}` : '', `decision: ${r.decision}`, r.controls.length > 0 ? `controls: ${y(r.controls)}` : ''].filter(Boolean).join(', ')} }`,
        );
    }
  }
  return `${out.join('\n')}\n`;
}

function load(p: PolicySpec, id: string = ACT): Policy | undefined {
  const r = parsePolicy(render(p, id), '/p/ctrlrun.yaml');
  return r.value && !r.diagnostics.some((d) => d.severity === 'error') ? r.value : undefined;
}

/** The oracle: what a generated module decides, read with the policy's own data (controls, roles, budgets). */
function outcome(policy: Policy, d: DecidedCall, id: string = ACT): string {
  if (d.decision === 'deny') return 'deny';
  const a = policy.actions[id]!;
  const rule = a.rules[d.rule ?? 0]!;
  const approve = d.decision === 'approve';
  const roles = approve ? [...new Set(a.controls.flatMap((c) => (policy.controls[c]?.approverRole ? [policy.controls[c]!.approverRole!] : [])))].sort() : null;
  const grant = d.grant ? policy.authority!.grants.find((g) => g.id === d.grant)! : undefined;
  const budgets = (grant?.budgets ?? []).map((b) => `${b.metric}/${b.limit}/${b.windowSeconds}`).sort();
  // the store keeps a budget's spend per grant id: the grant counts where it has budgets
  return JSON.stringify([
    d.decision,
    d.reason,
    [...new Set([...a.controls, ...rule.controls])].sort(),
    approve ? a.approvalsRequired : null,
    roles,
    budgets.length > 0 ? d.grant : null,
    budgets,
  ]);
}

const SCHEMA_PARAMS = new Map<string, ParamSchema>([
  ['a', { name: 'a', type: 'integer', required: true, nullable: false, lo: 0n, hi: 2n, loc: { file: 't.ts', line: 1, column: 1 } }],
  [
    'b',
    { name: 'b', type: 'enum', enumValues: ['x', 'y', 'x:y'], required: false, nullable: true, lo: null, hi: null, loc: { file: 't.ts', line: 1, column: 1 } },
  ],
]);
const TOOL: ToolSchema = { action: ACT, tools: ['act'], loc: { file: 't.ts', line: 1, column: 1 }, params: SCHEMA_PARAMS };
const SCHEMAS: ActionSchemas = { byAction: new Map([[ACT, TOOL]]), unread: new Map() };

interface Call {
  args: Record<string, unknown>;
  agent: string;
  user: string | null;
  environment: string | null;
  task: string | null;
  at: number;
}

const ONE_CONTEXT = { agents: ['ann'], users: [null], environments: [null], tasks: [null], times: [NOW] };

function* calls(withContext: boolean, resources = false): Generator<Call> {
  const ctx = withContext && !resources ? CONTEXT : ONE_CONTEXT;
  const values = resources ? RESOURCE_VALUES : withContext ? ARG_VALUES_WITH_GRANTS : ARG_VALUES;
  for (const a of values)
    for (const b of values) {
      const args: Record<string, unknown> = {};
      if (a !== ABSENT) args['a'] = a;
      if (b !== ABSENT) args['b'] = b;
      for (const agent of ctx.agents)
        for (const user of ctx.users)
          for (const environment of ctx.environments)
            for (const task of ctx.tasks) for (const at of ctx.times) yield { args, agent, user, environment, task, at };
    }
}

/** `ids`: the action the tool decides through in each version (two: the manifest mapped it to another). */
function check(base: Policy, head: Policy, schema: boolean, resources = false, ids: readonly [string, string] = [ACT, ACT]): void {
  const withContext = base.authority !== undefined || head.authority !== undefined;
  const deciders: [Decider, Decider] = [createDecider(base), createDecider(head)];
  const cmp = compareAction(
    ACT,
    { policy: base, action: base.actions[ids[0]], id: ids[0] },
    { policy: head, action: head.actions[ids[1]], id: ids[1] },
    { schema: schema ? argSchemas(SCHEMA_PARAMS) : undefined, now: NOW },
  );
  // the diff itself: every witness confirmed by both modules (it throws otherwise), one region each
  if (ids[0] === ids[1]) {
    const diff = diffPolicies(base, head, { now: NOW, deciders, ...(schema ? { schemas: SCHEMAS } : {}) });
    expect(diff.actions.find((a) => a.action === ACT)?.regions.length ?? 0).toBe(cmp.changes.length);
  } else expect(regionDiffs(cmp, ids, () => deciders, withContext, NOW)).toHaveLength(cmp.changes.length);
  const { model, atoms } = cmp;
  const valueIn = (c: Call, kind: string, name: string): unknown =>
    kind === 'arg'
      ? Object.hasOwn(c.args, name)
        ? c.args[name]
        : ABSENT
      : kind === 'agent'
        ? c.agent
        : kind === 'user'
          ? c.user
          : kind === 'environment'
            ? (c.environment ?? DEFAULT_ENVIRONMENT)
            : kind === 'task'
              ? c.task
              : c.at;
  // each value's atom, looked up once per variable and value
  const signatures = atoms.map((list, v) => new Map(list.map((a) => [signatureOf(model, v, a.values[0]), a.id])));
  const cache = new Map<string, number | undefined>();
  const atomAt = (v: number, value: unknown): number | undefined => {
    const k = `${v}:${value === ABSENT ? 'absent' : value === DEFAULT_ENVIRONMENT ? 'default' : JSON.stringify(value)}`;
    if (!cache.has(k)) cache.set(k, signatures[v]!.get(signatureOf(model, v, value)));
    return cache.get(k);
  };
  for (const c of calls(withContext, resources)) {
    if (schema && !acceptsCall(TOOL, c.args as never)) continue;
    const call = {
      action: ACT,
      args: c.args,
      ...(withContext ? { principal: { agent: c.agent, user: c.user }, environment: c.environment, task: c.task } : {}),
      at: c.at,
    };
    const before = outcome(base, deciders[0].decide({ ...call, action: ids[0] }), ids[0]);
    const after = outcome(head, deciders[1].decide({ ...call, action: ids[1] }), ids[1]);
    // the atom of each variable that holds the call's value: none means the partition missed a class
    const where = model.variables.map((v) => {
      const atom = atomAt(v.index, valueIn(c, v.kind, v.name));
      if (atom === undefined) expect.fail(`no atom of ${v.name} holds ${JSON.stringify(valueIn(c, v.kind, v.name))}`);
      return atom;
    });
    const inside = cmp.changes.filter((r) => [...r.atoms].every(([v, ids]) => ids.includes(where[v]!)));
    if (before === after) {
      if (inside.length > 0) expect.fail(`no change, yet in a region: ${JSON.stringify(call)}`);
      continue;
    }
    if (inside.length !== 1) expect.fail(`a change in ${inside.length} regions: ${JSON.stringify(call)}: ${before} → ${after}`);
    const key = (o: (typeof inside)[number]['before']) =>
      o.decision === 'deny'
        ? 'deny'
        : JSON.stringify([o.decision, o.reason, o.controls, o.approvals, o.roles, o.budgets.length > 0 ? o.grant : null, o.budgets]);
    expect([key(inside[0]!.before), key(inside[0]!.after)]).toEqual([before, after]);
  }
}

describe('the exact diff against brute force', () => {
  const pair = (grants: boolean) =>
    fc
      .tuple(policyArb(grants), policyArb(grants), fc.boolean())
      .map(([a, b, schema]) => ({ a, b, schema, base: load(a), head: load(b) }))
      .filter((x) => x.base !== undefined && x.head !== undefined);

  it('rules, templates, data labels, controls and approvals: no false negative, no false positive', () => {
    fc.assert(
      fc.property(pair(false), ({ base, head, schema }) => check(base!, head!, schema)),
      { numRuns: 100 },
    );
  });

  it('grants (subjects, resources, constraints, environments, expiry, tasks, budgets) with principals, places, tasks and times', () => {
    fc.assert(
      fc.property(pair(true), ({ base, head, schema }) => check(base!, head!, schema)),
      { numRuns: 30 },
    );
  });

  it("a tool mapped to another action (the manifest changed): its calls decided under each version's own action and grants", () => {
    // the head's action written as act2 (grants on `act` no longer cover it, `**` does), or the
    // tool pointed at `other`, which allows every call
    const remapped = fc
      .tuple(policyArb(true), policyArb(true), fc.constantFrom('act2', 'other'), fc.boolean())
      .map(([a, b, to, schema]) => ({ schema, to, base: load(a), head: load(b, to === 'act2' ? 'act2' : ACT) }))
      .filter((x) => x.base !== undefined && x.head !== undefined);
    fc.assert(
      fc.property(remapped, ({ base, head, to, schema }) => check(base!, head!, schema, false, [ACT, to])),
      { numRuns: 40 },
    );
  });

  it('grants renamed (a budget kept under another id starts from nothing spent): the same policy with its grant ids permuted', () => {
    type Id = 'g1' | 'g2' | 'g3';
    const ids = fc.constantFrom<[Id, Id, Id]>(['g2', 'g1', 'g3'], ['g3', 'g2', 'g1'], ['g2', 'g3', 'g1'], ['g1', 'g3', 'g2']);
    // grants that cover the action, on an action that lets some calls run: a renaming shows
    const covering = policyArb(true).chain((p) =>
      fc
        .record({
          action,
          grants: fc.uniqueArray(
            grant.map((g) => ({ ...g, actions: [ACT] as [typeof ACT], expires: null })),
            { minLength: 1, maxLength: 3, selector: (g) => g.id },
          ),
        })
        .map((x) => ({ ...p, ...x })),
    );
    const renamed = fc
      .tuple(covering, ids, fc.boolean())
      .map(([a, to, schema]) => {
        const b: PolicySpec = { ...a, grants: a.grants.map((g) => ({ ...g, id: to[['g1', 'g2', 'g3'].indexOf(g.id)]! })) };
        return { schema, base: load(a), head: load(b) };
      })
      .filter((x) => x.base !== undefined && x.head !== undefined);
    fc.assert(
      fc.property(renamed, ({ base, head, schema }) => check(base!, head!, schema)),
      { numRuns: 30 },
    );
  });

  it('grants on rendered resources (arguments pasted side by side, patterns by segment), the least id deciding the budget', () => {
    const onResources = fc.record({
      mode: fc.constant('enforce'),
      action: action.map((a) => ({ ...a, resource: a.resource ?? '{a}:{b}', data: null })),
      roles: fc.constant({ c1: null, c2: null }),
      grants: fc.uniqueArray(
        grant.map((g) => ({ ...g, agent: undefined, user: undefined, actions: [ACT], environments: null, expires: null, tasks: null })),
        { minLength: 1, maxLength: 3, selector: (g) => g.id },
      ),
      environment: fc.constant(undefined),
    });
    const pairs = fc
      .tuple(onResources, onResources)
      .map(([a, b]) => ({ base: load(a as unknown as PolicySpec), head: load(b as unknown as PolicySpec) }))
      .filter((x) => x.base !== undefined && x.head !== undefined);
    fc.assert(
      fc.property(pairs, ({ base, head }) => check(base!, head!, false, true)),
      { numRuns: 60 },
    );
  });
});
