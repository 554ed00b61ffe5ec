import { parseConditionKey, parseTemplate } from '../../src/policy/grammar.js';
import type { Condition, Decision, Operator, Policy, PolicyAction, Scalar, Template } from '../../src/policy/types.js';

const loc = (line = 1) => ({ file: '/repo/ctrlrun.yaml', line, column: 1 });

/** `amount_gte` -> { arg: 'amount', op: 'gte' }: the loader's own split (on the last `_<op>`). */
function splitKey(key: string): { arg: string; op: Operator } {
  const parsed = parseConditionKey(key);
  if (!parsed.ok) throw new Error(`no operator in ${key}`);
  return { arg: parsed.arg, op: parsed.op };
}

/** A template parsed by the loader's own grammar. */
export function template(source: string): Template {
  const { parts, errors } = parseTemplate(source);
  if (errors.length > 0) throw new Error(`bad template ${source}: ${errors[0]!.message}`);
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
    bare: false,
    controls: spec.controls ?? [],
    approvalsRequired: spec.approvalsRequired ?? 1,
    maxAttempts: spec.maxAttempts ?? 1,
    mcp: { notExecutedOnError: false },
    rules: rules.map((r, index) => ({
      index,
      decision: r.decision,
      controls: [],
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
