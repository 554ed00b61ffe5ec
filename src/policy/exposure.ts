/**
 * Least exposure (issue 38): which actions no call can ever pass, and which grants can never
 * authorize a call of an action, decided exactly from the policy, so that the runtime offers the
 * model only the tools the run's principal may use at all.
 *
 * "Some call passes" means some arguments (a JSON object: no float anywhere) that CTRLRun's
 * evaluation (`evaluate`) does not deny (the templates resolve, a rule that allows or asks a person
 * matches first) and, for a grant, whose resource matches one of its patterns and whose constraints
 * hold. The rest of a grant (its subject, environment, expiry, tasks) depends on the run, not on the
 * arguments: the runtime checks it (runtime/exposure.ts).
 *
 * Exact, not sampled: each argument the policy reads takes one value per class of what can tell
 * values apart (being missing; equal to each constant a condition names; an integer in each interval
 * between the integers the conditions name; another string, integer, null, boolean or container),
 * and for an argument the resource template renders, one per state function of the grant's
 * patterns' automaton too (resource-automaton.ts). Every call is equivalent to one of these, so a
 * search over them (pruned rule by rule, three-valued) finds a passing call exactly when one
 * exists; each answer is checked by `evaluate` itself. A policy too large to search in the budget
 * answers "usable" (nothing hidden), never a guess the other way.
 */
import { patternMatches } from '../runtime/authority.js';
import { dataScope, evaluate, holds, holdsOnScope, isInteger, isPart, jsonEqual } from './evaluate.js';
import { integerFunctions, resourceAutomaton, type ResourceAutomaton, stringFunctions } from './resource-automaton.js';
import type { Condition, Operand, Policy, PolicyAction, PolicyGrant } from './types.js';

const DATA_SCOPE = 'data_scope';
const MISSING = Symbol('missing');
type Candidate = unknown;

/** What the runtime needs to know of an action's exposure (emitted into the generated module when not trivial). */
export interface ActionExposure {
  /** No call of the action passes its rules and templates: nobody may ever use it. */
  never: boolean;
  /** Grants whose actions cover this one but can never authorize a passing call of it (resources, constraints). */
  deadGrants: string[];
}

/** A call that passes, or null when none does; `undefined`: too large to search (treated as passing). */
export type Witness = Record<string, unknown> | null | undefined;

/** The grants of the policy whose action patterns cover `actionId`. */
export function grantsCovering(policy: Policy, actionId: string): PolicyGrant[] {
  return (policy.authority?.grants ?? []).filter((g) => g.actions.some((p) => patternMatches(p, actionId, '.')));
}

export function actionExposure(policy: Policy, actionId: string): ActionExposure {
  const never = passingCall(policy, actionId, null) === null;
  if (never) return { never, deadGrants: [] };
  const deadGrants = grantsCovering(policy, actionId)
    .filter((g) => passingCall(policy, actionId, g) === null)
    .map((g) => g.id);
  return { never, deadGrants };
}

/** A call of `actionId` that the rules pass (and `grant` authorizes, when given), or null, or undefined past the budget. */
export function passingCall(policy: Policy, actionId: string, grant: PolicyGrant | null, budget = 200_000): Witness {
  const action = Object.hasOwn(policy.actions, actionId) ? policy.actions[actionId] : undefined;
  if (!action) return null;
  const constraints = grant?.constraints ?? [];
  const patterns = grant?.resources ?? null;
  if (patterns !== null && !action.resource) return null; // the grant names resources, the call has none
  const automaton = patterns === null ? undefined : resourceAutomaton(patterns);
  const args = relevantArgs(action, constraints);
  const spaces: Array<{ arg: string; values: Candidate[] }> = [];
  for (const arg of args) {
    const values = candidates(arg, conditionsOn(action, constraints, arg), automaton && placesIn(action, arg) ? automaton : undefined);
    if (values === undefined) return undefined;
    spaces.push({ arg, values });
  }
  let steps = 0;
  const assigned = new Map<string, Candidate>();
  const search = (i: number): Witness => {
    if (++steps > budget) return undefined;
    if (!possible(action, constraints, patterns, assigned)) return null;
    // every argument has its value: CTRLRun's evaluation decides, not the search
    if (i === spaces.length) return passes(policy, action, constraints, patterns, callOf(assigned)) ? callOf(assigned) : null;
    const { arg, values } = spaces[i]!;
    for (const value of values) {
      assigned.set(arg, value);
      const found = search(i + 1);
      if (found !== null) return found;
    }
    assigned.delete(arg);
    return null;
  };
  return search(0);
}

/** Whether the call passes the rules and templates, and the grant's constraints and resources: `evaluate` decides. */
export function passes(
  policy: Policy,
  action: PolicyAction,
  constraints: readonly Condition[],
  patterns: readonly string[] | null,
  call: Record<string, unknown>,
): boolean {
  const explained = evaluate(policy, action.id, call);
  if (explained.decision === 'deny') return false;
  if (!constraints.every((c) => holds(c, Object.hasOwn(call, c.arg) ? call[c.arg] : undefined))) return false;
  return patterns === null || (explained.resource !== null && patterns.some((p) => patternMatches(p, explained.resource as string, ':')));
}

function callOf(assigned: Map<string, Candidate>): Record<string, unknown> {
  const call: Record<string, unknown> = {};
  for (const [arg, value] of assigned) if (value !== MISSING) call[arg] = value;
  return call;
}

/** Every argument the action's rules, templates, labels or the grant's constraints read. */
function relevantArgs(action: PolicyAction, constraints: readonly Condition[]): string[] {
  const args = new Set<string>();
  // template arguments first: they prune early (a missing one denies)
  for (const t of [action.resource, action.effect])
    for (const p of t?.parts ?? []) if (p.kind === 'arg' && !(t === action.effect && p.arg === 'resource')) args.add(p.arg);
  if (action.effect?.parts.some((p) => p.kind === 'arg' && p.arg === 'resource')) args.add('resource');
  for (const rule of action.rules) for (const c of rule.when) if (c.arg !== DATA_SCOPE) args.add(c.arg);
  for (const c of constraints) args.add(c.arg);
  for (const [arg] of action.data ?? []) args.add(arg);
  return [...args];
}

function conditionsOn(action: PolicyAction, constraints: readonly Condition[], arg: string): Condition[] {
  return [...action.rules.flatMap((r) => r.when), ...constraints].filter((c) => c.arg === arg);
}

function placesIn(action: PolicyAction, arg: string): boolean {
  return action.resource?.parts.some((p) => p.kind === 'arg' && p.arg === arg) ?? false;
}

/**
 * One value per class of values the conditions on `arg` (and, for a resource placeholder, the
 * grant's patterns) can tell apart; undefined when the automaton's classes exceed the budget.
 */
function candidates(arg: string, conditions: Condition[], automaton: ResourceAutomaton | undefined): Candidate[] | undefined {
  const constants: Operand[] = [];
  const addConstant = (v: Operand) => {
    if (!constants.some((c) => jsonEqual(c, v))) constants.push(v);
  };
  for (const c of conditions) {
    if (c.op === 'in') for (const v of Array.isArray(c.value) ? c.value : []) addConstant(v as Operand);
    else addConstant(c.value);
  }
  const integers = [...new Set(constants.filter(isInteger).map((v) => BigInt(v)))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const strings = constants.filter((v): v is string => typeof v === 'string');
  const out: Candidate[] = [MISSING, null, true, false, ''];
  for (const v of constants) out.push(v);
  out.push(freshContainer(constants));
  const asNumber = (v: bigint): number | bigint => (v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v);
  if (!automaton) {
    // an integer inside each interval the constants cut the line into, and a string no condition names
    if (integers.length === 0) out.push(0);
    for (const v of integers) out.push(asNumber(v - 1n), asNumber(v), asNumber(v + 1n));
    out.push(freshString(strings, arg));
    return dedupe(out);
  }
  // a resource placeholder: per interval, one integer per state function its numerals induce
  const bounds: Array<bigint | null> = [null, ...integers, null];
  const extra = (stringFunctions(automaton, 1, 10_000)?.size ?? 1000) + 1;
  for (let i = 0; i + 1 < bounds.length; i++) {
    const lo = bounds[i] === null ? null : (bounds[i] as bigint) + 1n;
    const hi = bounds[i + 1] === null ? null : (bounds[i + 1] as bigint) - 1n;
    if (lo !== null && hi !== null && lo > hi) continue;
    const found = integerFunctions(automaton, lo, hi, extra);
    if (!found) return undefined;
    for (const { value } of found.values()) out.push(asNumber(value));
  }
  for (const v of integers) out.push(asNumber(v));
  // and one string per state function among the strings no condition names
  const maxExcluded = Math.max(0, ...strings.map((s) => [...s].length));
  const functions = stringFunctions(automaton, strings.length + 1, maxExcluded + 10_000);
  if (!functions) return undefined;
  for (const { strings: realizers } of functions.values()) {
    const fresh = realizers.find((s) => !strings.includes(s));
    if (fresh !== undefined) out.push(fresh);
  }
  return dedupe(out);
}

function dedupe(values: Candidate[]): Candidate[] {
  const out: Candidate[] = [];
  for (const v of values) if (!out.some((x) => x === v || (x !== MISSING && v !== MISSING && jsonEqual(x, v)))) out.push(v);
  return out;
}

function freshString(taken: readonly string[], arg: string): string {
  let s = `${arg}~`;
  while (taken.includes(s)) s += '~';
  return s;
}

function freshContainer(taken: readonly Operand[]): Operand {
  let v: Operand = [];
  while (taken.some((c) => jsonEqual(c, v))) v = [v];
  return v;
}

type Tri = 0 | 1 | 2;
const FALSE: Tri = 0;
const TRUE: Tri = 1;
const UNKNOWN: Tri = 2;

/**
 * Whether some completion of the assignment may pass: a sound three-valued reading (a branch is cut
 * only when no completion passes); a complete assignment is then decided by `passes`.
 */
function possible(action: PolicyAction, constraints: readonly Condition[], patterns: readonly string[] | null, assigned: Map<string, Candidate>): boolean {
  const value = (arg: string): Candidate | typeof UNASSIGNED => (assigned.has(arg) ? assigned.get(arg) : UNASSIGNED);
  const labels = action.data ?? [];
  const scope = labels.every(([arg]) => assigned.has(arg)) ? dataScope(labels, callOf(assigned)) : undefined;
  const tri = (c: Condition): Tri => {
    if (c.arg === DATA_SCOPE) return scope === undefined ? UNKNOWN : holdsOnScope(c, scope) ? TRUE : FALSE;
    const v = value(c.arg);
    if (v === UNASSIGNED) return UNKNOWN;
    return holds(c, v === MISSING ? undefined : v) ? TRUE : FALSE;
  };
  // the templates: a placeholder that is no non-empty string or integer denies
  for (const t of [action.resource, action.effect]) {
    for (const p of t?.parts ?? []) {
      if (p.kind !== 'arg' || (t === action.effect && p.arg === 'resource')) continue;
      const v = value(p.arg);
      if (v !== UNASSIGNED && !isPart(v)) return false;
    }
  }
  if (action.effect?.parts.some((p) => p.kind === 'arg' && p.arg === 'resource')) {
    if (!action.resource) return false;
    const v = value('resource');
    if (v !== UNASSIGNED && v !== MISSING) return false;
  }
  if (constraints.some((c) => tri(c) === FALSE)) return false;
  if (!rulesMayPass(action, tri)) return false;
  if (patterns !== null && action.resource) {
    const parts = action.resource.parts;
    if (parts.every((p) => p.kind === 'text' || assigned.has(p.arg))) {
      const rendered = parts.map((p) => (p.kind === 'text' ? p.text : String(assigned.get(p.arg)))).join('');
      if (!patterns.some((p) => patternMatches(p, rendered, ':'))) return false;
    }
  }
  return true;
}

const UNASSIGNED = Symbol('unassigned');

/** First match wins: some rule that allows or asks may match before every rule that denies surely does. */
function rulesMayPass(action: PolicyAction, tri: (c: Condition) => Tri): boolean {
  for (const rule of action.rules) {
    const values = rule.when.map(tri);
    const t: Tri = values.includes(FALSE) ? FALSE : values.every((v) => v === TRUE) ? TRUE : UNKNOWN;
    if (t === FALSE) continue;
    if (rule.decision !== 'deny') return true;
    if (t === TRUE) return false;
  }
  return false; // no rule matches: deny
}
