import type { Finding, ProjectContext, RuleMeta, ScannedFile } from '../types.js';
import { schemaRuleFindings } from './tool-schemas.js';

export const alwaysTrueConditionMeta: RuleMeta = {
  id: 'always-true-condition',
  severity: 'warning',
  short: "A policy condition every call satisfies, given the tool's parameter schema: it tests nothing.",
  full: "The runtime checks a call's arguments against the tool's parameter schema before any rule. A `when` entry on a required argument that every value the schema accepts satisfies (`amount_gte: 0` on `.nonnegative()`, `currency_in` listing every value of the enum, `amount_lte: 1000` on `.max(500)`) decides nothing: the rule matches as if it were not there, often a bound meant to be tighter. The finding states the schema as declared and where, and the edge value that passes.",
  help: 'Delete the condition, or write the bound you meant: the schema already guarantees this one.',
};

/** `always-true-condition` (warning): src/policy-test/schema-analysis.ts finds it, from the schemas of the mapped tools. */
export function alwaysTrueConditionRule(files: ScannedFile[], project: ProjectContext | undefined): Finding[] {
  return schemaRuleFindings(alwaysTrueConditionMeta, files, project);
}
