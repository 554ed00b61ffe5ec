import path from 'node:path';
import { policyFindings } from '../../policy-test/analysis.js';
import type { Finding, ProjectContext, ScannedFile } from '../types.js';
import { findingAt } from './finding.js';

/** `contradictory-conditions` (warning): src/policy-test/analysis.ts finds it, with a proof sketch or a witness call. */
export function contradictoryConditionsRule(_files: ScannedFile[], project: ProjectContext | undefined): Finding[] {
  if (!project) return [];
  const file = path.relative(project.manifest.root, project.policy.file).split(path.sep).join('/');
  return policyFindings(project.policy, { only: ['contradictory-conditions'] }).map((f) => findingAt(f.ruleId, file, f.loc, f.message, f.hint));
}
