/**
 * Dead and dangerous rules, found statically with a proof sketch or a witness call: a rule no call
 * can reach because an earlier one matches every call it matches (`shadowed-rule`), a rule whose
 * conditions cannot all hold (`contradictory-conditions`), an action with an effect whose rules allow
 * every call (`allow-all-action`). Each claim is checked against the runtime's decision (decider.ts)
 * on the witness calls before it is reported, so a finding is never a guess of this module alone.
 */
import type { Diagnostic } from '../diagnostics.js';
import type { ActionSchemas, ToolSchema } from '../generate/tool-schemas.js';
import { holds, isInteger, jsonEqual } from '../policy/evaluate.js';
import type { Condition, Operand, Policy, PolicyAction, Rule, SourceLocation } from '../policy/types.js';
import { createDecider, type Decider } from './decider.js';
import { matchedRule } from './run-tests.js';
import { SCHEMA_FINDING_IDS, schemaFindings, type SchemaAnalysisOptions, type SchemaFindingId } from './schema-analysis.js';
import { showValue } from './show.js';
import { argumentCandidates, baseCall, satisfyingCalls, schemaCandidates, type WitnessArgs } from './witness.js';

export const POLICY_FINDING_IDS = ['shadowed-rule', 'contradictory-conditions', 'allow-all-action', ...SCHEMA_FINDING_IDS] as const;
export type PolicyFindingId = (typeof POLICY_FINDING_IDS)[number];

export interface PolicyFinding {
  ruleId: PolicyFindingId;
  action: string;
  rule: number | null;
  loc: SourceLocation;
  message: string;
  hint: string;
}

const DATA_SCOPE = 'data_scope';

function when(rule: Rule): string {
  return rule.when.length === 0 ? 'no conditions' : rule.when.map((c) => `${c.key}: ${showValue(c.value)}`).join(', ');
}

/** The integers an argument's comparisons allow: [lo, hi] (null: unbounded), as bigints. */
function interval(conditions: readonly Condition[]): { lo: bigint | null; hi: bigint | null } {
  let lo: bigint | null = null;
  let hi: bigint | null = null;
  for (const c of conditions) {
    if (!isInteger(c.value)) continue;
    const v = BigInt(c.value);
    if (c.op === 'gte' || c.op === 'gt') {
      const b = c.op === 'gt' ? v + 1n : v;
      lo = lo === null || b > lo ? b : lo;
    }
    if (c.op === 'lte' || c.op === 'lt') {
      const b = c.op === 'lt' ? v - 1n : v;
      hi = hi === null || b < hi ? b : hi;
    }
  }
  return { lo, hi };
}

const COMPARISONS = new Set(['lt', 'lte', 'gt', 'gte']);

/**
 * Whether every value satisfying `given` (one argument's conditions of a later rule) satisfies `c`
 * (a condition of an earlier rule on the same argument). Sound, not complete: false when unsure.
 */
function implies(given: readonly Condition[], c: Condition): boolean {
  if (given.some((g) => g.key === c.key && jsonEqual(g.value, c.value))) return true;
  // a finite set of values: each must satisfy c
  const finite = given.find((g) => g.op === 'eq' || g.op === 'in');
  if (finite) {
    const values = finite.op === 'eq' ? [finite.value] : Array.isArray(finite.value) ? finite.value : [];
    return values.filter((v) => given.every((g) => holds(g, v))).every((v) => holds(c, v));
  }
  if (COMPARISONS.has(c.op) && isInteger(c.value) && given.some((g) => COMPARISONS.has(g.op))) {
    const { lo, hi } = interval(given);
    const v = BigInt(c.value);
    if (c.op === 'gte') return lo !== null && lo >= v;
    if (c.op === 'gt') return lo !== null && lo > v;
    if (c.op === 'lte') return hi !== null && hi <= v;
    return hi !== null && hi < v;
  }
  // `x_neq: v` holds for every present x other than v: implied by any condition v fails
  if (c.op === 'neq') return given.some((g) => !holds(g, c.value as Operand));
  return false;
}

/** An earlier rule whose conditions every call matching `rule` satisfies (so `rule` is never reached). */
function shadowingRule(action: PolicyAction, rule: Rule): Rule | undefined {
  for (const earlier of action.rules) {
    if (earlier.index >= rule.index) break;
    const covered = earlier.when.every((c) => {
      if (c.arg === DATA_SCOPE) return rule.when.some((g) => g.key === c.key && jsonEqual(g.value, c.value));
      const given = rule.when.filter((g) => g.arg === c.arg);
      return given.length > 0 && implies(given, c);
    });
    if (covered) return earlier;
  }
  return undefined;
}

/** Per argument, whether the rule's conditions on it can all hold; the first argument that cannot. */
function contradiction(rule: Rule, candidates: ReturnType<typeof argumentCandidates>): { arg: string; conditions: Condition[] } | undefined {
  const byArg = new Map<string, Condition[]>();
  for (const c of rule.when) if (c.arg !== DATA_SCOPE) byArg.set(c.arg, [...(byArg.get(c.arg) ?? []), c]);
  for (const [arg, conditions] of byArg) {
    const { lo, hi } = interval(conditions);
    const empty = lo !== null && hi !== null && lo > hi;
    // the candidates hold each comparison's boundary and neighbours and each eq/in value: when the
    // conditions can hold together, one of them satisfies all
    const noCandidate = !(candidates.get(arg) ?? []).some((v) => typeof v !== 'symbol' && conditions.every((c) => holds(c, v)));
    if (empty || noCandidate) return { arg, conditions };
  }
  return undefined;
}

/**
 * No witness call satisfying `rule` is decided by it (the runtime's own decision agrees with the
 * claim): the first such call as the example; undefined when one is decided by it. Under a schema
 * the calls are built of values it accepts, and `null` says none satisfies the rule: the schema,
 * not the earlier rule, keeps it from matching, and a call the runtime would refuse before the
 * rules is no example of shadowing.
 */
function unreachedByWitnesses(action: PolicyAction, rule: Rule, decider: Decider, schema: ToolSchema | undefined): WitnessArgs | null | undefined {
  const candidates = schemaCandidates([action], schema);
  const labels = new Map(action.data ?? []);
  let example: WitnessArgs | undefined;
  for (const s of satisfyingCalls(rule, candidates, labels)) {
    const args = baseCall(s, [action], candidates, schema);
    example ??= args;
    if (matchedRule(decider.decide({ action: action.id, args })) === rule.index) return undefined;
  }
  return example ?? (schema ? null : {});
}

function actionFindings(action: PolicyAction, lazy: () => Decider, only: ReadonlySet<PolicyFindingId>, schema?: ToolSchema): PolicyFinding[] {
  const out: PolicyFinding[] = [];
  const candidates = argumentCandidates([action]);
  for (const rule of action.rules) {
    if (!only.has('contradictory-conditions') && !only.has('shadowed-rule')) break;
    const impossible = contradiction(rule, candidates);
    if (impossible) {
      if (!only.has('contradictory-conditions')) continue;
      out.push({
        ruleId: 'contradictory-conditions',
        action: action.id,
        rule: rule.index,
        loc: rule.loc,
        message: `rule ${rule.index} of ${action.id} can never match: no value of \`${impossible.arg}\` satisfies ${impossible.conditions.map((c) => `${c.key}: ${showValue(c.value)}`).join(' and ')} at once (rules compare type-strictly; lt/lte/gt/gte hold only for integers)`,
        hint: `fix the bounds of \`${impossible.arg}\`, or delete the rule`,
      });
      continue;
    }
    const earlier = only.has('shadowed-rule') ? shadowingRule(action, rule) : undefined;
    if (!earlier) continue;
    const decider = lazy();
    const example = unreachedByWitnesses(action, rule, decider, schema);
    if (!example) continue; // a witness reaches it (the proof sketch was wrong), or the schema rules out every call it matches: say nothing
    const decided = decider.decide({ action: action.id, args: example });
    out.push({
      ruleId: 'shadowed-rule',
      action: action.id,
      rule: rule.index,
      loc: rule.loc,
      message: `rule ${rule.index} of ${action.id} (${rule.decision} when ${when(rule)}) is never reached: every call it matches is matched first by rule ${earlier.index} (${earlier.decision} when ${when(earlier)}); e.g. ${showValue(example)} is decided ${decided.decision} by ${decided.reason}`,
      hint:
        rule.when.length === 0 || earlier.when.length === 0
          ? 'move the catch-all rule last, or delete the rules after it'
          : `move rule ${rule.index} above rule ${earlier.index} if it is the exception, or delete it`,
    });
  }
  if (action.effect && only.has('allow-all-action')) {
    const catchAll = action.rules.find((r) => r.when.length === 0);
    const before = catchAll ? action.rules.filter((r) => r.index <= catchAll.index) : [];
    if (catchAll && before.every((r) => r.decision === 'allow')) {
      const example = baseCall({}, [action], schemaCandidates([action], schema), schema);
      const decided = lazy().decide({ action: action.id, args: example });
      if (decided.decision === 'allow') {
        out.push({
          ruleId: 'allow-all-action',
          action: action.id,
          rule: action.bare ? null : catchAll.index,
          loc: catchAll.loc,
          message: `${action.id} has an effect (\`${action.effect.source}\`) and allows every call its templates resolve for: ${action.bare ? '`decision: allow`' : `every rule up to the catch-all rule ${catchAll.index} allows`}; e.g. ${showValue(example)} is allowed (${decided.reason})`,
          hint: 'bound what runs on its own (`when: { amount_lte: ... }` → allow) and send the rest to a person (`decision: approve`) or deny it',
        });
      }
    }
  }
  return out;
}

export interface PolicyFindingOptions {
  decider?: Decider;
  only?: readonly PolicyFindingId[];
  /**
   * The mapped tools' parameter schemas: without them, no `impossible-condition` / `always-true-condition`,
   * and the example calls of `shadowed-rule` and `allow-all-action` are not held to them.
   */
  schemas?: ActionSchemas;
  where?: SchemaAnalysisOptions['where'];
  skip?: SchemaAnalysisOptions['skip'];
}

/**
 * Every dead or dangerous rule of the policy, action by action in document order. The policy is
 * compiled only when a claim is to be confirmed (a clean policy costs `check` no compiler load).
 */
export function policyFindings(policy: Policy, options: PolicyFindingOptions = {}): PolicyFinding[] {
  let made = options.decider;
  const lazy = (): Decider => (made ??= createDecider(policy));
  const only = new Set<PolicyFindingId>(options.only ?? POLICY_FINDING_IDS);
  const schemaOnly = new Set(SCHEMA_FINDING_IDS.filter((id: SchemaFindingId) => only.has(id)));
  const { schemas } = options;
  const where = options.where ?? ((l) => `${l.file}:${l.line}:${l.column}`);
  const bySchema = (a: PolicyAction): PolicyFinding[] =>
    schemas && schemaOnly.size > 0 ? schemaFindings([a], { schemas, where, only: schemaOnly, ...(options.skip ? { skip: options.skip } : {}) }) : [];
  return Object.values(policy.actions).flatMap((a) => [...actionFindings(a, lazy, only, schemas?.byAction.get(a.id)), ...bySchema(a)]);
}

/** The findings as `validate`'s warnings (`file:line:col`, the rule id as the code), the schema's among them when given. */
export function policyFindingDiagnostics(policy: Policy, options: Pick<PolicyFindingOptions, 'schemas' | 'where'> = {}): Diagnostic[] {
  return policyFindings(policy, options).map((f) => ({
    severity: 'warning',
    file: f.loc.file || policy.file,
    line: f.loc.line,
    column: f.loc.column,
    code: f.ruleId,
    path: f.rule === null ? `actions.${f.action}` : `actions.${f.action}.rules[${f.rule}]`,
    message: `${f.message} [${f.ruleId}]`,
    hint: f.hint,
  }));
}
