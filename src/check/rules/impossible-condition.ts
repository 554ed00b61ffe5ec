import type { Finding, ProjectContext, RuleMeta, ScannedFile } from '../types.js';
import { schemaRuleFindings } from './tool-schemas.js';

export const impossibleConditionMeta: RuleMeta = {
  id: 'impossible-condition',
  severity: 'warning',
  short: "A policy condition no call can satisfy, given the tool's parameter schema: its rule never matches.",
  full: "The runtime checks a call's arguments against the tool's parameter schema before any rule, so a rule sees only values the schema accepts. A `when` entry no such value satisfies (`amount_gt: 100` on `z.number().int().max(50)`, an `in` list of values outside the range) makes its rule dead: usually a bound written in other units, or a schema narrowed since. The finding states the schema as declared and where. Conditions `generate` refuses outright (a comparison of a string, a value outside an enum) are reported by its error, as `policy-invalid`.",
  help: 'Write a value the schema allows, widen the schema if such calls should exist, or delete the rule.',
};

/** `impossible-condition` (warning): src/policy-test/schema-analysis.ts finds it, from the schemas of the mapped tools. */
export function impossibleConditionRule(files: ScannedFile[], project: ProjectContext | undefined): Finding[] {
  return schemaRuleFindings(impossibleConditionMeta, files, project);
}
