/**
 * One action of one or two policy versions as decision lists over shared predicates, the form the
 * decision procedure (search.ts) reasons in. Per version three lists, combined as the runtime
 * combines them (runtime/decide.ts, runtime/authority.ts): the templates (a placeholder that does
 * not resolve denies), the rules (first match wins, else deny) and, with `authority:`, the grants
 * (the passing grant of least id authorizes; none: deny). Their variables are the call's arguments
 * and, when a version has grants, who asks (agent, user), where (environment), for which task and
 * when. A predicate written alike in both versions is one predicate, so equal residuals print
 * alike. Pure.
 */
import { patternMatches } from '../../runtime/authority.js';
import { dataScope, holds, holdsOnScope, isPart } from '../evaluate.js';
import type { Condition, Operand, Policy, PolicyAction, PolicyBudget, PolicyGrant, Template } from '../types.js';
import { type DecisionList, type Entry, type Literal, lit } from './lists.js';
import { PatternFamily, patternAutomaton } from './patterns.js';
import { ABSENT, type ArgSchema, type ArgValue, valueKey } from './values.js';

/** The environment a control that names none decides in: the policy's `environment:`, else `production`. */
export const DEFAULT_ENVIRONMENT: unique symbol = Symbol('default environment');

export type VariableKind = 'arg' | 'agent' | 'user' | 'environment' | 'task' | 'now';

export interface Variable {
  index: number;
  kind: VariableKind;
  /** The argument's name, or the kind. */
  name: string;
}

export interface Predicate {
  id: number;
  key: string;
  /** The variables it reads (indices). */
  vars: readonly number[];
  /** Its value, given the values of its variables (indexed by variable). */
  test(values: readonly unknown[]): boolean;
  /**
   * For a predicate of several variables: what of one variable's value it reads (values alike here
   * are interchangeable in it, whatever the others hold). The variable's classes are cut by it.
   */
  profile?: (value: unknown) => string;
}

/** A version's decision on a call, as far as who may do what goes. */
export interface CallOutcome {
  decision: 'allow' | 'approve' | 'deny';
  /** `rule[N]` or `decision` (allow and approve only). */
  reason: string | null;
  rule: number | null;
  /** The controls cited: the action's and the matched rule's (allow and approve only). */
  controls: string[];
  /** approve only: the approvers needed and the roles each must hold. */
  approvals: number | null;
  roles: string[] | null;
  /** The authorizing grant (with `authority:`) and its budgets (`metric/limit/window`, sorted). */
  grant: string | null;
  budgets: string[];
  /** Which stage denied (deny only). */
  deniedBy: 'templates' | 'rules' | 'authority' | null;
}

/**
 * What an outcome is compared by: who may do what, not why a denial. The grant counts only where it
 * has budgets: the store keeps their spend per grant id, so a call charged to another grant (a
 * renamed one too) starts from nothing spent.
 */
export function outcomeKey(o: CallOutcome): string {
  if (o.decision === 'deny') return 'deny';
  return JSON.stringify([o.decision, o.reason, o.controls, o.approvals, o.roles, o.budgets.length > 0 ? o.grant : null, o.budgets]);
}

export interface Machine {
  /** templates, rules, authority: see `combine`. */
  lists: readonly [DecisionList, DecisionList, DecisionList];
}

export interface ActionModel {
  action: string;
  variables: Variable[];
  predicates: Predicate[];
  machines: Machine[];
  /** Per version, each rule's guard (its `when` as literals), by rule index. */
  guards: Literal[][][];
  /** Per variable, the facts its candidates are built from. */
  facts: VariableFacts[];
}

export interface VariableFacts {
  constants: Operand[];
  /** Patterns (subject, task) or environments named; expiry instants. */
  patterns: string[];
  environments: string[];
  instants: number[];
  /** A resource's automata, when the argument is pasted into a resource that grants test. */
  family?: PatternFamily;
  schema?: ArgSchema;
}

export interface Side {
  policy: Policy;
  /** Undefined: the version does not list the action (`unknown_action`, or no policy at all). */
  action: PolicyAction | undefined;
  /**
   * The action's id in this version, when not the compared one: a tool mapped to one action before
   * and another now is decided under each version's own id (the grants that cover it follow it).
   */
  id?: string;
}

const OK = 'ok';
const DENY = 'deny';

/** Builds the predicates and lists of one action across its versions. */
export function actionModel(actionId: string, sides: readonly Side[], schema: ReadonlyMap<string, ArgSchema> | undefined): ActionModel {
  const b = new Builder(actionId, sides, schema);
  const machines = sides.map((s) => b.machine(s));
  const guards = machines.map((m, i) => m.lists[1].slice(0, sides[i]!.action?.rules.length ?? 0).map((e) => [...e.guard]));
  return { action: actionId, variables: b.variables, predicates: b.predicates, machines, guards, facts: b.facts };
}

class Builder {
  readonly variables: Variable[] = [];
  readonly predicates: Predicate[] = [];
  readonly facts: VariableFacts[] = [];
  private readonly byKey = new Map<string, number>();
  private readonly family: PatternFamily | undefined;

  constructor(
    private readonly actionId: string,
    sides: readonly Side[],
    private readonly schema: ReadonlyMap<string, ArgSchema> | undefined,
  ) {
    // every resource pattern of a grant that covers the action, in any version: one family
    const patterns = [...new Set(sides.flatMap((s) => this.grantsOf(s).flatMap((g) => g.resources ?? [])))].sort();
    this.family =
      patterns.length > 0
        ? new PatternFamily(
            patterns.map((p) => patternAutomaton(p, ':')),
            patterns,
            ':',
          )
        : undefined;
    for (const s of sides) for (const p of s.action?.resource?.parts ?? []) if (p.kind === 'arg' && this.family) this.arg(p.arg).family = this.family;
    // the arguments the schema requires or names come first, in its order: a witness fills them
    for (const name of schema?.keys() ?? []) this.arg(name);
  }

  grantsOf(side: Side): PolicyGrant[] {
    if (!side.policy.authority || !side.action) return [];
    return side.policy.authority.grants.filter((g) => g.actions.some((p) => patternMatches(p, side.id ?? this.actionId, '.')));
  }

  private variable(kind: VariableKind, name: string): number {
    const found = this.variables.find((v) => v.kind === kind && v.name === name);
    if (found) return found.index;
    const index = this.variables.length;
    this.variables.push({ index, kind, name });
    const facts: VariableFacts = { constants: [], patterns: [], environments: [], instants: [] };
    const s = kind === 'arg' ? this.schema?.get(name) : undefined;
    if (s) facts.schema = s;
    this.facts.push(facts);
    return index;
  }

  private arg(name: string): VariableFacts {
    return this.facts[this.variable('arg', name)]!;
  }

  private predicate(key: string, vars: readonly number[], test: Predicate['test'], profile?: Predicate['profile']): number {
    const known = this.byKey.get(key);
    if (known !== undefined) return known;
    const id = this.predicates.length;
    this.predicates.push({ id, key, vars, test, ...(profile ? { profile } : {}) });
    this.byKey.set(key, id);
    return id;
  }

  /** `<arg>_<op>: value`, in a rule or a grant's constraints. */
  condition(c: Pick<Condition, 'arg' | 'op' | 'value'>): number {
    const v = this.variable('arg', c.arg);
    this.facts[v]!.constants.push(c.value);
    return this.predicate(`cond ${c.arg} ${c.op} ${valueKey(c.value)}`, [v], (values) => {
      const x = values[v] as ArgValue;
      return x !== ABSENT && holds(c, x);
    });
  }

  /** A placeholder resolves: a non-empty string or an integer. */
  private part(arg: string): number {
    const v = this.variable('arg', arg);
    return this.predicate(`part ${arg}`, [v], (values) => isPart(values[v] as ArgValue));
  }

  private present(arg: string): number {
    const v = this.variable('arg', arg);
    return this.predicate(`present ${arg}`, [v], (values) => values[v] !== ABSENT);
  }

  /** A `data_scope` condition: the labels of the labelled arguments present. */
  private scope(c: Condition, data: ReadonlyArray<readonly [string, string]>): number {
    const vars = data.map(([arg]) => this.variable('arg', arg));
    const key = `scope ${JSON.stringify(data)} ${c.op} ${valueKey(c.value)}`;
    return this.predicate(
      key,
      [...new Set(vars)],
      (values) => {
        const args: Record<string, unknown> = {};
        data.forEach(([arg], i) => {
          if (values[vars[i]!] !== ABSENT) args[arg] = true;
        });
        return holdsOnScope(c, dataScope(data, args));
      },
      (x) => (x === ABSENT ? 'absent' : 'present'),
    );
  }

  /** The rendered resource matches one of `patterns`. */
  private resource(template: Template, patterns: readonly string[]): number {
    const args = template.parts.flatMap((p) => (p.kind === 'arg' ? [p.arg] : []));
    const vars = args.map((a) => this.variable('arg', a));
    const family = this.family!;
    return this.predicate(
      `resource ${template.source} ${JSON.stringify(patterns)}`,
      [...new Set(vars)],
      (values) => {
        let text = '';
        for (const p of template.parts) {
          if (p.kind === 'text') text += p.text;
          else {
            const x = values[this.variable('arg', p.arg)] as ArgValue;
            if (!isPart(x)) return false;
            text += String(x);
          }
        }
        return patterns.some((p) => patternMatches(p, text, ':'));
      },
      // a placeholder's text counts by where it moves the patterns' automata
      (x) => (isPart(x as ArgValue) ? family.functionOf(String(x)) : 'unresolved'),
    );
  }

  private subject(kind: 'agent' | 'user', pattern: string): number {
    const v = this.variable(kind, kind);
    this.facts[v]!.patterns.push(pattern);
    return this.predicate(`${kind} ${pattern}`, [v], (values) => {
      const x = values[v] as string | null;
      return x !== null && patternMatches(pattern, x, null);
    });
  }

  private environment(names: readonly string[], fallback: string): number {
    const v = this.variable('environment', 'environment');
    this.facts[v]!.environments.push(...names);
    return this.predicate(`environment ${JSON.stringify(names)} ${fallback}`, [v], (values) => {
      const x = values[v] as string | typeof DEFAULT_ENVIRONMENT;
      return names.includes(x === DEFAULT_ENVIRONMENT ? fallback : x);
    });
  }

  private expired(ms: number): number {
    const v = this.variable('now', 'now');
    this.facts[v]!.instants.push(ms);
    return this.predicate(`expired ${ms}`, [v], (values) => (values[v] as number) > ms);
  }

  private task(patterns: readonly string[]): number {
    const v = this.variable('task', 'task');
    this.facts[v]!.patterns.push(...patterns);
    return this.predicate(`task ${JSON.stringify(patterns)}`, [v], (values) => {
      const x = values[v] as string | null;
      return x !== null && patterns.some((p) => patternMatches(p, x, ':'));
    });
  }

  machine(side: Side): Machine {
    return { lists: [this.templates(side.action), this.rules(side), this.authority(side)] };
  }

  /** The resource, then the effect: a placeholder that does not resolve denies. */
  private templates(action: PolicyAction | undefined): DecisionList {
    const out: Entry[] = [];
    for (const p of action?.resource?.parts ?? []) if (p.kind === 'arg') out.push({ guard: [lit(this.part(p.arg), false)], out: 'fail:resource' });
    for (const p of action?.effect?.parts ?? []) {
      if (p.kind !== 'arg') continue;
      if (p.arg !== 'resource') out.push({ guard: [lit(this.part(p.arg), false)], out: 'fail:effect' });
      // `{resource}` is the resolved resource, and an argument named `resource` makes it ambiguous
      else if (!action?.resource) out.push({ guard: [], out: 'fail:effect' });
      else out.push({ guard: [lit(this.present('resource'), true)], out: 'fail:effect' });
    }
    out.push({ guard: [], out: OK });
    return out;
  }

  private rules(side: Side): DecisionList {
    const action = side.action;
    if (!action) return [{ guard: [], out: DENY }];
    const out: Entry[] = action.rules.map((rule) => ({
      guard: rule.when.map((c) => lit(c.arg === 'data_scope' ? this.scope(c, action.data ?? []) : this.condition(c), true)),
      out: rule.decision === 'deny' ? DENY : ruleOut(side.policy, action, rule.index),
    }));
    out.push({ guard: [], out: DENY });
    return out;
  }

  private authority(side: Side): DecisionList {
    if (!side.policy.authority) return [{ guard: [], out: grantOut(null) }];
    const out: Entry[] = [];
    const fallback = side.policy.environment ?? 'production';
    const grants = [...this.grantsOf(side)].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const g of grants) {
      const guard: number[] = [];
      if (g.subject.agent !== undefined) guard.push(lit(this.subject('agent', g.subject.agent), true));
      if (g.subject.user !== undefined) guard.push(lit(this.subject('user', g.subject.user), true));
      if (g.resources !== null) {
        // a grant naming resources never covers a call without one
        if (!side.action?.resource) continue;
        guard.push(lit(this.resource(side.action.resource, g.resources), true));
      }
      if (g.environments !== null) guard.push(lit(this.environment(g.environments, fallback), true));
      if (g.expiresAt !== null) guard.push(lit(this.expired(g.expiresAt.ms), false));
      if (g.tasks !== null) guard.push(lit(this.task(g.tasks), true));
      for (const c of g.constraints) guard.push(lit(this.condition(c), true));
      out.push({ guard, out: grantOut(g) });
    }
    out.push({ guard: [], out: DENY });
    return out;
  }
}

function budgetText(b: PolicyBudget): string {
  return `${b.metric}/${b.limit}/${b.windowSeconds}`;
}

function grantOut(g: PolicyGrant | null): string {
  return `grant ${JSON.stringify([g?.id ?? null, (g?.budgets ?? []).map(budgetText).sort()])}`;
}

/** The roles an approver must hold for `action`: each of its controls' `approver_role` (serve's reading). */
export function approverRoles(policy: Policy, action: PolicyAction): string[] {
  return [...new Set(action.controls.flatMap((id) => (policy.controls[id]?.approverRole ? [policy.controls[id]!.approverRole!] : [])))].sort();
}

function ruleOut(policy: Policy, action: PolicyAction, index: number): string {
  const rule = action.rules[index]!;
  const approve = rule.decision === 'approve';
  return `rule ${JSON.stringify({
    decision: rule.decision,
    reason: action.bare ? 'decision' : `rule[${index}]`,
    rule: action.bare ? null : index,
    controls: [...new Set([...action.controls, ...rule.controls])].sort(),
    approvals: approve ? action.approvalsRequired : null,
    roles: approve ? approverRoles(policy, action) : null,
  })}`;
}

/** Whether one list's outcome lets a call on, as `combine` reads it: templates resolved (stage 0), a rule that allows or asks (1), a grant (2). */
export function letsOn(stage: number, out: string): boolean {
  return stage === 0 ? out === OK : out !== DENY;
}

/** The call's outcome from the three lists' outcomes, as the runtime combines them. */
export function combine(templates: string, rules: string, authority: string): CallOutcome {
  const denied = (by: CallOutcome['deniedBy']): CallOutcome => ({
    decision: 'deny',
    reason: null,
    rule: null,
    controls: [],
    approvals: null,
    roles: null,
    grant: null,
    budgets: [],
    deniedBy: by,
  });
  if (templates !== OK) return denied('templates');
  if (rules === DENY) return denied('rules');
  if (authority === DENY) return denied('authority');
  const r = JSON.parse(rules.slice('rule '.length)) as Pick<CallOutcome, 'decision' | 'reason' | 'rule' | 'controls' | 'approvals' | 'roles'>;
  const [grant, budgets] = JSON.parse(authority.slice('grant '.length)) as [string | null, string[]];
  return { ...r, grant, budgets, deniedBy: null };
}
