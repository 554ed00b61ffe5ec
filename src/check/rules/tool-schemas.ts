import path from 'node:path';
import { conditionProblem } from '../../generate/crosscheck.js';
import { schemasInScans } from '../../generate/project-schemas.js';
import type { ActionSchemas } from '../../generate/tool-schemas.js';
import { policyFindings, type PolicyFindingId } from '../../policy-test/analysis.js';
import type { Finding, ProjectContext, RuleMeta, ScannedFile } from '../types.js';
import { findingOf } from './rule-finding.js';

/*
 * The mapped tools' parameter schemas, for the rules that read them (`impossible-condition`,
 * `always-true-condition`, the witness calls of `shadowed-rule` and `allow-all-action`): read
 * from the scanned files that declare a mapped tool, as the generator reads them. Kept per lint (the files array one lint hands every repo rule) so the
 * rules parse those files once; a WeakMap, so nothing outlives the lint.
 */
const perLint = new WeakMap<readonly ScannedFile[], { project: ProjectContext; schemas: ActionSchemas }>();

export function projectSchemas(files: readonly ScannedFile[], project: ProjectContext): ActionSchemas {
  const kept = perLint.get(files);
  if (kept?.project === project) return kept.schemas;
  const byScan = new Map(files.map((f) => [f.scan, f]));
  const schemas = schemasInScans(project.manifest, project.manifest.root, [...byScan.keys()], (scan) => byScan.get(scan)?.text());
  perLint.set(files, { project, schemas });
  return schemas;
}

/**
 * The findings of one schema rule, in the policy file. A condition `generate` refuses outright (a
 * comparison of a string, a value of another type or outside the enum) is left to its error, which
 * check reports as `policy-invalid`: the same line is not reported twice.
 */
export function schemaRuleFindings(meta: RuleMeta, files: readonly ScannedFile[], project: ProjectContext | undefined): Finding[] {
  if (!project) return [];
  const root = project.manifest.root;
  const rel = (file: string) => path.relative(root, file).split(path.sep).join('/');
  return policyFindings(project.policy, {
    only: [meta.id as PolicyFindingId],
    schemas: projectSchemas(files, project),
    where: (loc) => `${rel(loc.file)}:${loc.line}:${loc.column}`,
    skip: (c, p) => conditionProblem(c, p) !== undefined,
  }).map((f) => findingOf(meta, rel(project.policy.file), f.loc, f.message, f.hint));
}
