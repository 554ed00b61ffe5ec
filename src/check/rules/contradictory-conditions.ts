import path from 'node:path';
import { policyFindings } from '../../policy-test/analysis.js';
import type { Finding, ProjectContext, RuleMeta, ScannedFile } from '../types.js';
import { findingOf } from './rule-finding.js';

export const contradictoryConditionsMeta: RuleMeta = {
  id: 'contradictory-conditions',
  severity: 'warning',
  short: 'A policy rule whose conditions cannot all hold, so it never matches.',
  full: 'A `when` entry on an argument holds only for some values; entries on the same argument that no one value satisfies together (`amount_gte: 100` with `amount_lte: 10`, `mode_eq: a` with `mode_in: [b, c]`, a comparison with a string, since `lt lte gt gte` hold only for integers) make the rule dead. The finding names the argument and the entries.',
  help: 'Fix the bounds or values so some call satisfies them all, or delete the rule.',
};

/** `contradictory-conditions` (warning): src/policy-test/analysis.ts finds it, with a proof sketch or a witness call. */
export function contradictoryConditionsRule(_files: ScannedFile[], project: ProjectContext | undefined): Finding[] {
  if (!project) return [];
  const file = path.relative(project.manifest.root, project.policy.file).split(path.sep).join('/');
  return policyFindings(project.policy, { only: ['contradictory-conditions'] }).map((f) =>
    findingOf(contradictoryConditionsMeta, file, f.loc, f.message, f.hint),
  );
}
