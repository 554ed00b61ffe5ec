/**
 * Conditions the tool's parameter schema decides before the policy does: a `when` entry no value
 * the schema accepts satisfies, or entries on one argument none satisfies together
 * (`impossible-condition`: its rule never matches), or one every call
 * the schema accepts satisfies (`always-true-condition`: it tests nothing). The runtime checks the
 * arguments against the schema before any rule, so both are facts about what runs. Each finding
 * names the declaration and states the schema, with a value as witness where there is one. Pure.
 */
import {
  alwaysHolds,
  describeParam,
  type ParamSchema,
  satisfyingValue,
  schemaValues,
  someValue,
  type ActionSchemas,
  type ToolSchema,
} from '../generate/tool-schemas.js';
import { holds, isInteger } from '../policy/evaluate.js';
import type { Condition, PolicyAction, Rule, SourceLocation } from '../policy/types.js';
import { showValue } from './show.js';

export const SCHEMA_FINDING_IDS = ['impossible-condition', 'always-true-condition'] as const;
export type SchemaFindingId = (typeof SCHEMA_FINDING_IDS)[number];

export interface SchemaFinding {
  ruleId: SchemaFindingId;
  action: string;
  rule: number;
  loc: SourceLocation;
  message: string;
  hint: string;
}

export interface SchemaAnalysisOptions {
  schemas: ActionSchemas;
  /** How a declaration's place is written in a message (`src/tools.ts:9:3`). */
  where: (loc: SourceLocation) => string;
  only?: ReadonlySet<SchemaFindingId>;
  /** Conditions another report already refuses (check: the generator's type errors, shown as `policy-invalid`). */
  skip?: (c: Condition, p: ParamSchema) => boolean;
}

const DATA_SCOPE = 'data_scope';
const COMPARISONS = new Set(['lt', 'lte', 'gt', 'gte']);

function entry(c: Condition): string {
  return `\`${c.key}: ${showValue(c.value)}\``;
}

function declared(schema: ToolSchema, p: ParamSchema, options: SchemaAnalysisOptions, required = false): string {
  const tools = schema.tools.map((t) => `\`${t}\``).join(', ');
  const one = schema.tools.length === 1;
  return `tool${one ? '' : 's'} ${tools} declare${one ? 's' : ''} \`${p.name}\`${required ? ' required,' : ''} as ${describeParam(p)} (${options.where(p.loc)})`;
}

function impossible(action: PolicyAction, rule: Rule, c: Condition, p: ParamSchema, schema: ToolSchema, options: SchemaAnalysisOptions): SchemaFinding {
  const typed = COMPARISONS.has(c.op) && p.type !== 'integer' && p.type !== 'number';
  const why = typed ? 'lt/lte/gt/gte hold only for integers' : COMPARISONS.has(c.op) ? 'no value in that range passes it' : 'rules compare type-strictly';
  return {
    ruleId: 'impossible-condition',
    action: action.id,
    rule: rule.index,
    loc: c.loc,
    message: `rule ${rule.index} of ${action.id} can never match: ${entry(c)} holds for no call the schema accepts, since ${declared(schema, p, options)} (${why}); the runtime refuses any other value before the rules`,
    hint: typed
      ? `compare \`${p.name}\` with eq, neq or in, or delete the rule`
      : `write a value the schema allows for \`${p.name}\`, widen the schema if such calls should exist, or delete the rule`,
  };
}

/** A value of the schema that satisfies `c`, shown as the proof's example (the range's edge the comparison is about, when there is one). */
function example(c: Condition, p: ParamSchema): string {
  const edges = schemaValues(p).filter((v) => holds(c, v));
  const v = edges[c.op === 'gt' || c.op === 'gte' ? 0 : edges.length - 1] ?? someValue(p);
  return showValue(v);
}

function alwaysTrue(action: PolicyAction, rule: Rule, c: Condition, p: ParamSchema, schema: ToolSchema, options: SchemaAnalysisOptions): SchemaFinding {
  const edge =
    COMPARISONS.has(c.op) && isInteger(c.value) ? `; even its ${c.op === 'gt' || c.op === 'gte' ? 'least' : 'greatest'} value, ${example(c, p)}, passes` : '';
  return {
    ruleId: 'always-true-condition',
    action: action.id,
    rule: rule.index,
    loc: c.loc,
    message: `${entry(c)} in rule ${rule.index} of ${action.id} holds for every call: ${declared(schema, p, options, true)}, and every such value satisfies it${edge}; the condition tests nothing`,
    hint: `delete the condition, or write the bound you meant: the schema already guarantees this one`,
  };
}

function impossibleTogether(
  action: PolicyAction,
  rule: Rule,
  group: Condition[],
  p: ParamSchema,
  schema: ToolSchema,
  options: SchemaAnalysisOptions,
): SchemaFinding {
  return {
    ruleId: 'impossible-condition',
    action: action.id,
    rule: rule.index,
    loc: group[0]!.loc,
    message: `rule ${rule.index} of ${action.id} can never match: ${group.map(entry).join(' and ')} each hold for some call the schema accepts, but together for none, since ${declared(schema, p, options)}; the runtime refuses any other value before the rules`,
    hint: `write bounds on \`${p.name}\` that leave a value the schema allows, widen the schema if such calls should exist, or delete the rule`,
  };
}

/**
 * The entries on one argument that the schema leaves no value for together, though each alone has
 * one and some value outside the schema satisfies them all (else `contradictory-conditions` says it).
 */
function impossibleGroup(group: Condition[], p: ParamSchema): boolean {
  if (group.length < 2 || satisfyingValue(group, p) !== undefined) return false;
  return group.every((c) => satisfyingValue(c, p) !== undefined) && satisfyingValue(group, { ...p, type: 'unknown' }) !== undefined;
}

/** The schema's findings of one action, rule by rule, condition by condition in document order, then each argument's entries together. */
function actionFindings(action: PolicyAction, schema: ToolSchema, options: SchemaAnalysisOptions): SchemaFinding[] {
  const out: SchemaFinding[] = [];
  const only = options.only ?? new Set(SCHEMA_FINDING_IDS);
  for (const rule of action.rules) {
    const byArg = new Map<string, Condition[]>();
    for (const c of rule.when) {
      const p = c.arg === DATA_SCOPE ? undefined : schema.params.get(c.arg);
      if (!p || p.type === 'unknown' || options.skip?.(c, p)) continue;
      byArg.set(c.arg, [...(byArg.get(c.arg) ?? []), c]);
      if (satisfyingValue(c, p) === undefined) {
        if (only.has('impossible-condition')) out.push(impossible(action, rule, c, p, schema, options));
      } else if (only.has('always-true-condition') && alwaysHolds(c, p)) out.push(alwaysTrue(action, rule, c, p, schema, options));
    }
    if (!only.has('impossible-condition')) continue;
    for (const [arg, group] of byArg) {
      const p = schema.params.get(arg)!;
      if (impossibleGroup(group, p)) out.push(impossibleTogether(action, rule, group, p, schema, options));
    }
  }
  return out;
}

/** Every condition the mapped tools' schemas make impossible or always true, action by action in document order. */
export function schemaFindings(actions: Iterable<PolicyAction>, options: SchemaAnalysisOptions): SchemaFinding[] {
  const out: SchemaFinding[] = [];
  for (const action of actions) {
    const schema = options.schemas.byAction.get(action.id);
    if (schema) out.push(...actionFindings(action, schema, options));
  }
  return out;
}
