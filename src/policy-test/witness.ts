/**
 * Example calls: arguments built from an action's conditions that sit on the edges a decision can
 * change at: each comparison's boundary and its neighbours, each `eq`/`in` value and a value beside
 * it, the integer written as text (rules are type-strict), and the argument missing. The starter test
 * file writes its cases from them and `allow-all-action` its example. (`diff` and the dead-rule
 * checks are exact: src/policy/exact.) Pure; the decisions themselves come from the decider.
 */
import { ABSENT, acceptsValue, schemaValues, someValue, type ToolSchema } from '../generate/tool-schemas.js';
import { holds, holdsOnScope, isInteger } from '../policy/evaluate.js';
import type { Condition, Operand, PolicyAction, Rule } from '../policy/types.js';

const DATA_SCOPE = 'data_scope';
/** An argument left out of the call. */
export const MISSING: typeof ABSENT = ABSENT;
export type Candidate = Operand | typeof MISSING;
export type WitnessArgs = Record<string, Operand>;

function plusInt(v: number | bigint, d: number): number | bigint {
  if (typeof v === 'bigint') {
    const r = v + BigInt(d);
    return r >= BigInt(Number.MIN_SAFE_INTEGER) && r <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(r) : r;
  }
  const r = v + d;
  return Number.isSafeInteger(r) ? r : BigInt(v) + BigInt(d);
}

/** A value equal to none of `v` and of its type when possible. */
function beside(v: Operand): Operand {
  if (typeof v === 'string') return `${v}~`;
  if (typeof v === 'boolean') return !v;
  if (isInteger(v)) return plusInt(v, 1);
  if (v === null) return 'x';
  return null;
}

/** The candidates one condition contributes for its argument, the boundary first. */
function conditionCandidates(c: Condition): Operand[] {
  const v = c.value;
  switch (c.op) {
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
      if (!isInteger(v)) return [];
      return [v, plusInt(v, -1), plusInt(v, 1), String(v)];
    case 'eq':
      return [v, beside(v)];
    case 'neq':
      return [beside(v), v];
    case 'in':
      return Array.isArray(v) ? [...v, ...(v.length > 0 ? [beside(v[0] as Operand)] : ['x'])] : [];
  }
}

function key(value: Candidate): string {
  return value === MISSING ? '\u0000missing' : stableText(value);
}

function stableText(value: Operand): string {
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return `[${value.map(stableText).join(',')}]`;
  if (typeof value === 'object' && value !== null)
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableText((value as Record<string, Operand>)[k] as Operand)}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

export function callKey(args: WitnessArgs): string {
  return stableText(args);
}

/** Per argument, its candidates in order (missing last), across every version of the action. */
export function argumentCandidates(versions: readonly PolicyAction[]): Map<string, Candidate[]> {
  const out = new Map<string, Candidate[]>();
  const add = (arg: string, values: Candidate[]): void => {
    const list = out.get(arg) ?? [];
    out.set(arg, list);
    for (const v of values) if (!list.some((x) => key(x) === key(v))) list.push(v);
  };
  for (const action of versions) {
    for (const rule of action.rules) for (const c of rule.when) if (c.arg !== DATA_SCOPE) add(c.arg, conditionCandidates(c));
    for (const t of [action.resource, action.effect])
      for (const p of t?.parts ?? []) if (p.kind === 'arg' && !(p.arg === 'resource' && t === action.effect)) add(p.arg, []);
    for (const [arg] of action.data ?? []) add(arg, ['x']);
  }
  for (const [arg, list] of out) {
    if (!list.some((v) => v !== MISSING && isTemplatePart(v))) list.push(`${arg}-1`);
    list.push(MISSING);
  }
  return out;
}

function isTemplatePart(v: Operand): boolean {
  return (typeof v === 'string' && v !== '') || isInteger(v);
}

/**
 * Arguments under which every condition of `rule` holds, each at the first (boundary) candidate that
 * satisfies all of the rule's conditions on it; undefined when an argument has no such candidate
 * (the rule's conditions on it may contradict). Arguments the rule does not name are left to `fill`.
 */
export function satisfying(rule: Rule, candidates: Map<string, Candidate[]>, labels: Map<string, string>): WitnessArgs | undefined {
  const args: WitnessArgs = {};
  const byArg = new Map<string, Condition[]>();
  for (const c of rule.when) byArg.set(c.arg, [...(byArg.get(c.arg) ?? []), c]);
  for (const [arg, conditions] of byArg) {
    if (arg === DATA_SCOPE) continue;
    const found = (candidates.get(arg) ?? []).find((v) => v !== MISSING && conditions.every((c) => holds(c, v)));
    if (found === undefined || found === MISSING) return undefined;
    args[arg] = found;
  }
  const scoped = byArg.get(DATA_SCOPE);
  if (scoped) {
    const wanted = scoped.flatMap((c) => (Array.isArray(c.value) ? c.value.filter((v): v is string => typeof v === 'string') : []));
    // a labelled argument asked for by its label: 'x', or a value of its type when the schema refuses text
    const labelled = (arg: string): Operand => {
      const list = candidates.get(arg) ?? [];
      return list.includes('x') ? 'x' : (list.find((v): v is Operand => v !== MISSING) ?? 'x');
    };
    for (const [arg, label] of labels) if (wanted.includes(label) && !(arg in args)) args[arg] = labelled(arg);
    const scope = [...new Set([...labels].filter(([arg]) => arg in args).map(([, label]) => label))];
    if (!scoped.every((c) => holdsOnScope(c, scope))) return undefined;
  }
  return args;
}

/**
 * Every combination (up to `limit`) of per-argument candidates under which the rule's conditions
 * all hold, the boundary ones first. `satisfying` is the first of them.
 */
export function* satisfyingCalls(rule: Rule, candidates: Map<string, Candidate[]>, labels: Map<string, string>, limit = 256): Generator<WitnessArgs> {
  const first = satisfying(rule, candidates, labels);
  if (!first) return;
  const args = [...new Set(rule.when.map((c) => c.arg))].filter((a) => a !== DATA_SCOPE);
  const options = args.map((arg) => {
    const conditions = rule.when.filter((c) => c.arg === arg);
    return (candidates.get(arg) ?? []).filter((v): v is Operand => v !== MISSING && conditions.every((c) => holds(c, v)));
  });
  const index = args.map(() => 0);
  for (let n = 0; n < limit; n++) {
    const call = { ...first };
    for (const [i, arg] of args.entries()) call[arg] = options[i]![index[i]!] as Operand;
    yield call;
    let i = 0;
    while (i < index.length && ++index[i]! >= options[i]!.length) index[i++] = 0;
    if (i === index.length) return;
  }
}

/** A base call: the given arguments plus a template-safe value for every other argument the templates need. */
export function filled(args: WitnessArgs, versions: readonly PolicyAction[], candidates: Map<string, Candidate[]>): WitnessArgs {
  const out = { ...args };
  for (const action of versions) {
    for (const t of [action.resource, action.effect]) {
      for (const p of t?.parts ?? []) {
        if (p.kind !== 'arg' || p.arg in out || (p.arg === 'resource' && t === action.effect)) continue;
        const v = (candidates.get(p.arg) ?? []).find((x): x is Operand => x !== MISSING && isTemplatePart(x));
        out[p.arg] = v ?? 'x';
      }
    }
  }
  return out;
}

/** The candidates of the versions' arguments, clipped to the schema when there is one (`withinSchema`). */
export function schemaCandidates(versions: readonly PolicyAction[], schema: ToolSchema | undefined): Map<string, Candidate[]> {
  return schema ? withinSchema(argumentCandidates(versions), schema) : argumentCandidates(versions);
}

/** `filled`, and under a schema a value for every required argument still missing: the call a witness starts from. */
export function baseCall(
  args: WitnessArgs,
  versions: readonly PolicyAction[],
  candidates: Map<string, Candidate[]>,
  schema: ToolSchema | undefined,
): WitnessArgs {
  const out = filled(args, versions, candidates);
  return schema ? withRequired(out, schema, candidates) : out;
}

/**
 * The candidates the schema accepts (a value outside an enum or a range, the integer as text for
 * an integer, the argument missing when it is required: gone), and the schema's own edges added.
 */
export function withinSchema(candidates: Map<string, Candidate[]>, schema: ToolSchema): Map<string, Candidate[]> {
  const out = new Map<string, Candidate[]>();
  for (const [arg, list] of candidates) {
    const p = schema.params.get(arg);
    if (!p) {
      out.set(arg, list);
      continue;
    }
    const kept = list.filter((v) => v !== MISSING && acceptsValue(p, v));
    for (const v of schemaValues(p)) if (!kept.some((k) => key(k) === key(v))) kept.push(v);
    // an argument only a template names (`{amount}`, its candidate the text `amount-1`) still gets a value
    const some = someValue(p);
    if (kept.length === 0 && some !== undefined) kept.push(some);
    out.set(arg, acceptsValue(p, MISSING) ? [...kept, MISSING] : kept);
  }
  return out;
}

/** The call with a value for every required argument it lacks (one the schema accepts, a candidate's when there is one). */
function withRequired(args: WitnessArgs, schema: ToolSchema, candidates: Map<string, Candidate[]>): WitnessArgs {
  const out = { ...args };
  for (const p of schema.params.values()) {
    if (Object.hasOwn(out, p.name) || acceptsValue(p, MISSING)) continue;
    const v = (candidates.get(p.name) ?? []).find((x): x is Operand => x !== MISSING) ?? someValue(p);
    if (v !== undefined) out[p.name] = v;
  }
  return out;
}
