import type { Condition, Decision, Operator, Policy, PolicyAction, Scalar, Template, TemplatePart } from '../../src/policy/types.js';

const loc = (line = 1) => ({ file: '/repo/ctrlrun.yaml', line, column: 1 });
const OPS: Operator[] = ['gte', 'lte', 'neq', 'eq', 'in', 'lt', 'gt'];

/** `amount_gte` -> { arg: 'amount', op: 'gte' } (split on the last `_<op>`, as the loader does). */
export function splitKey(key: string): { arg: string; op: Operator } {
  for (const op of OPS) if (key.endsWith(`_${op}`)) return { arg: key.slice(0, -op.length - 1), op };
  throw new Error(`no operator in ${key}`);
}

export function template(source: string): Template {
  const parts: TemplatePart[] = [];
  const re = /\{([^{}]+)\}/g;
  let last = 0;
  for (let m = re.exec(source); m; m = re.exec(source)) {
    if (m.index > last) parts.push({ kind: 'text', text: source.slice(last, m.index) });
    parts.push({ kind: 'arg', arg: m[1] as string });
    last = m.index + m[0].length;
  }
  if (last < source.length) parts.push({ kind: 'text', text: source.slice(last) });
  return { source, parts, loc: loc() };
}

export interface ActionSpec {
  rules?: Array<{ when?: Record<string, Scalar | Scalar[]>; decision: Decision }>;
  decision?: Decision;
  effect?: string;
  resource?: string;
  controls?: string[];
  approvalsRequired?: number;
  maxAttempts?: number;
}

export function action(id: string, spec: ActionSpec, line = 1): PolicyAction {
  const rules = spec.rules ?? [{ decision: spec.decision ?? 'deny' }];
  return {
    id,
    ...(spec.effect !== undefined ? { effect: template(spec.effect) } : {}),
    ...(spec.resource !== undefined ? { resource: template(spec.resource) } : {}),
    controls: spec.controls ?? [],
    approvalsRequired: spec.approvalsRequired ?? 1,
    maxAttempts: spec.maxAttempts ?? 1,
    rules: rules.map((r, index) => ({
      index,
      decision: r.decision,
      loc: loc(line + index + 1),
      when: Object.entries(r.when ?? {}).map(([key, value]): Condition => ({ key, ...splitKey(key), value, loc: loc(line + index + 1) })),
    })),
    loc: loc(line),
  };
}

/** A normalized policy built by hand (hash is whatever the test says). */
export function policyOf(actions: Record<string, ActionSpec>, extra: Partial<Policy> = {}): Policy {
  return {
    schemaVersion: 6,
    mode: 'enforce',
    controls: {},
    actions: Object.fromEntries(Object.entries(actions).map(([id, spec], i) => [id, action(id, spec, 10 * (i + 1))])),
    hash: 'f'.repeat(64),
    file: '/repo/ctrlrun.yaml',
    ...extra,
  };
}
