import path from 'node:path';
import type { Finding, ProjectContext, RuleMeta, ScannedFile } from '../types.js';
import { findingOf } from './rule-finding.js';

export const observeModeMeta: RuleMeta = {
  id: 'observe-mode',
  severity: 'warning',
  short: 'The policy is in `mode: observe`: calls run, decisions are only recorded.',
  full: 'In observe mode every call runs whatever the policy decides: denials and approvals are written to the receipts (to measure what enforcing would do), no approval request is made and no effect key is reserved. A repository in this mode passes the other rules while nothing is protected, so check says so once, at the `mode:` line.',
  help: 'Switch to `mode: enforce` (or remove `mode:`) once the receipts show the policy decides as intended.',
};

/** `observe-mode` (warning, once per repo): the policy records decisions but protects nothing. */
export function observeModeRule(_files: ScannedFile[], project: ProjectContext | undefined): Finding[] {
  if (project?.policy.mode !== 'observe') return [];
  const file = path.relative(project.manifest.root, project.policy.file).split(path.sep).join('/');
  return [
    findingOf(
      observeModeMeta,
      file,
      project.policy.modeLoc ?? { line: 1, column: 1 },
      'The policy is in `mode: observe`: every call runs, denials and approvals are only written to the receipts; nothing is protected.',
      'Switch to `mode: enforce` (or remove `mode:`) once the receipts show the policy decides as intended.',
    ),
  ];
}
