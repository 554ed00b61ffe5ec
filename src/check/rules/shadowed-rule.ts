import path from 'node:path';
import { policyFindings } from '../../policy-test/analysis.js';
import type { Finding, ProjectContext, RuleMeta, ScannedFile } from '../types.js';
import { findingOf } from './rule-finding.js';
import { projectSchemas } from './tool-schemas.js';

export const shadowedRuleMeta: RuleMeta = {
  id: 'shadowed-rule',
  severity: 'warning',
  short: 'A policy rule no call can reach: an earlier rule matches every call it matches.',
  full: "Rules are tried in order and the first match decides. When every call that satisfies a rule's conditions also satisfies an earlier rule's (a catch-all above it, a wider band, a superset of its `in` values), or one of several earlier rules' together, or does so within the tool's parameter schema (a catch-all after `amount_gte: 1` on a `.positive()` amount), the later rule never decides anything: usually an exception written below the rule it was meant to carve out of. The finding names the earlier rules and a call that shows it, decided by the runtime's own decision.",
  help: 'Move the rule above the one that shadows it if it is the exception, or delete it.',
};

/** `shadowed-rule` (warning): src/policy-test/analysis.ts finds it by the decision procedure, with a witness call (one the tool's schema accepts, when it is read). */
export function shadowedRuleRule(files: ScannedFile[], project: ProjectContext | undefined): Finding[] {
  if (!project) return [];
  const file = path.relative(project.manifest.root, project.policy.file).split(path.sep).join('/');
  return policyFindings(project.policy, { only: ['shadowed-rule'], schemas: projectSchemas(files, project) }).map((f) =>
    findingOf(shadowedRuleMeta, file, f.loc, f.message, f.hint),
  );
}
