/**
 * Dead and dangerous rules, found by the decision procedure diff uses (src/policy/exact/reach.ts),
 * each with a witness call: a rule no call reaches because earlier rules, alone or together (and
 * within the tool's schema), match every call it matches (`shadowed-rule`), a rule whose conditions
 * cannot all hold (`contradictory-conditions`), an action with an effect whose rules allow every call
 * (`allow-all-action`). Each dead rule is reported once, and each example is decided by the
 * runtime's own decision (decider.ts) before it is shown.
 */
import type { Diagnostic } from '../diagnostics.js';
import type { ActionSchemas, ToolSchema } from '../generate/tool-schemas.js';
import { argsAt } from '../policy/exact/compare.js';
import { actionReach } from '../policy/exact/reach.js';
import type { Condition, Policy, PolicyAction, Rule, SourceLocation } from '../policy/types.js';
import type { CallDecision } from '../runtime/types.js';
import { argSchemas } from './arg-schemas.js';
import { createDecider, type Decider } from './decider.js';
import { matchedRule } from './run-tests.js';
import { SCHEMA_FINDING_IDS, schemaFindings, type SchemaAnalysisOptions, type SchemaFindingId } from './schema-analysis.js';
import { showValue } from './show.js';
import { baseCall, schemaCandidates, type WitnessArgs } from './witness.js';

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

function when(rule: Rule): string {
  return rule.when.length === 0 ? 'no conditions' : rule.when.map((c) => `${c.key}: ${showValue(c.value)}`).join(', ');
}

/** The first argument whose conditions in `rule` no value satisfies together (the procedure found the rule unsatisfiable). */
function contradiction(action: PolicyAction, rule: Rule): { arg: string; conditions: Condition[] } | undefined {
  const byArg = new Map<string, Condition[]>();
  for (const c of rule.when) byArg.set(c.arg, [...(byArg.get(c.arg) ?? []), c]);
  for (const [arg, conditions] of byArg) {
    const alone: PolicyAction = { ...action, rules: [{ ...rule, index: 0, when: conditions }] };
    if (!actionReach(action.id, { policy: EMPTY_POLICY, action: alone }, undefined).rules[0]!.matching) return { arg, conditions };
  }
  return undefined;
}

/** A policy of no action: the rules' reach reads nothing else of it. */
const EMPTY_POLICY: Policy = { schemaVersion: 8, mode: 'enforce', controls: {}, actions: {}, hash: '', file: '' };

function contradictory(action: PolicyAction, rule: Rule): PolicyFinding {
  const found = contradiction(action, rule);
  const what = found
    ? `no value of \`${found.arg}\` satisfies ${found.conditions.map((c) => `${c.key}: ${showValue(c.value)}`).join(' and ')} at once`
    : `no call satisfies ${when(rule)} at once`;
  return {
    ruleId: 'contradictory-conditions',
    action: action.id,
    rule: rule.index,
    loc: rule.loc,
    message: `rule ${rule.index} of ${action.id} can never match: ${what} (rules compare type-strictly; lt/lte/gt/gte hold only for integers)`,
    hint: found ? `fix the bounds of \`${found.arg}\`, or delete the rule` : 'fix the conditions, or delete the rule',
  };
}

interface Shadowing {
  earlier: number[];
  example: WitnessArgs;
  decided: CallDecision;
  /** The tool's schema, when it (not the rules alone) makes the earlier rules take every call. */
  schema?: ToolSchema | undefined;
}

function shadowed(action: PolicyAction, rule: Rule, s: Shadowing): PolicyFinding {
  const rules = s.earlier.map((j) => `${j} (${action.rules[j]!.decision} when ${when(action.rules[j]!)})`);
  const by = rules.length === 1 ? `rule ${rules[0]}` : `rules ${rules.slice(0, -1).join(', ')} and ${rules[rules.length - 1]} together`;
  const within = s.schema
    ? ` within the parameter schema of tool${s.schema.tools.length === 1 ? '' : 's'} ${s.schema.tools.map((t) => `\`${t}\``).join(', ')}`
    : '';
  const catchAll = rule.when.length === 0 || s.earlier.some((j) => action.rules[j]!.when.length === 0);
  return {
    ruleId: 'shadowed-rule',
    action: action.id,
    rule: rule.index,
    loc: rule.loc,
    message: `rule ${rule.index} of ${action.id} (${rule.decision} when ${when(rule)}) is never reached${within}: every call it matches is matched first by ${by}; e.g. ${showValue(s.example)} is decided ${s.decided.decision} by ${s.decided.reason}`,
    hint: catchAll
      ? 'move the catch-all rule last, or delete the rules after it'
      : rules.length === 1
        ? `move rule ${rule.index} above rule ${s.earlier[0]} if it is the exception, or delete it`
        : `move rule ${rule.index} above the rules that take its calls if it is the exception, or delete it`,
  };
}

/**
 * Each dead rule once, by the decision procedure: conditions no call satisfies
 * (`contradictory-conditions`), none within the tool's schema (left to `impossible-condition`, which
 * names the condition), or calls all taken by earlier rules, alone or together, within the schema
 * (`shadowed-rule`, its example call confirmed by the runtime's own decision).
 */
function deadRules(action: PolicyAction, lazy: () => Decider, only: ReadonlySet<PolicyFindingId>, schema?: ToolSchema): PolicyFinding[] {
  if (!only.has('contradictory-conditions') && !only.has('shadowed-rule')) return [];
  const out: PolicyFinding[] = [];
  const side = { policy: EMPTY_POLICY, action };
  const free = actionReach(action.id, side, undefined);
  const within = schema ? actionReach(action.id, side, argSchemas(schema.params)) : free;
  for (const rule of action.rules) {
    const r = within.rules[rule.index]!;
    if (!free.rules[rule.index]!.matching) {
      if (only.has('contradictory-conditions')) out.push(contradictory(action, rule));
      continue;
    }
    // no call within the schema satisfies it: the schema, not an earlier rule, keeps it from matching
    if (!r.matching || r.reached || !only.has('shadowed-rule')) continue;
    const example = argsAt(within.model, r.matching);
    const decided = lazy().decide({ action: action.id, args: example });
    // the claim checked against the runtime's own decision: a call it decides is no shadowing
    if (matchedRule(decided) === rule.index) continue;
    out.push(shadowed(action, rule, { earlier: r.earlier, example, decided, schema: free.rules[rule.index]!.reached ? schema : undefined }));
  }
  return out;
}

function actionFindings(action: PolicyAction, lazy: () => Decider, only: ReadonlySet<PolicyFindingId>, schema?: ToolSchema): PolicyFinding[] {
  const out = deadRules(action, lazy, only, schema);
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
