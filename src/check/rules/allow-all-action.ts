import path from 'node:path';
import { policyFindings } from '../../policy-test/analysis.js';
import type { Finding, ProjectContext, RuleMeta, ScannedFile } from '../types.js';
import { findingOf } from './rule-finding.js';
import { projectSchemas } from './tool-schemas.js';

export const allowAllActionMeta: RuleMeta = {
  id: 'allow-all-action',
  severity: 'warning',
  short: 'An action with an `effect:` whose rules allow every call.',
  full: 'An `effect:` key marks an action that changes something (a refund, a write, a message). When its rules allow every call (`decision: allow`, or only `allow` rules down to a catch-all), the policy guards nothing but the templates: any amount, any target runs with no person asked. The finding shows a call that is allowed.',
  help: 'Bound what runs on its own (`when: { amount_lte: ... }` then `decision: allow`) and send the rest to a person (`decision: approve`) or deny it.',
};

/** `allow-all-action` (warning): src/policy-test/analysis.ts finds it, with a proof sketch or a witness call (one the tool's schema accepts, when it is read). */
export function allowAllActionRule(files: ScannedFile[], project: ProjectContext | undefined): Finding[] {
  if (!project) return [];
  const file = path.relative(project.manifest.root, project.policy.file).split(path.sep).join('/');
  return policyFindings(project.policy, { only: ['allow-all-action'], schemas: projectSchemas(files, project) }).map((f) =>
    findingOf(allowAllActionMeta, file, f.loc, f.message, f.hint),
  );
}
