import type { Finding, ProjectContext, RuleMeta, ScannedFile } from '../types.js';
import { findingOf } from './rule-finding.js';

export const realtimeApprovalUnansweredMeta: RuleMeta = {
  id: 'realtime-approval-unanswered',
  severity: 'error',
  short: 'A RealtimeSession whose tool_approval_requested event no handler answers, while the policy can send a call to a person.',
  full: "In a `RealtimeSession` a call the policy sends to a person pauses with the session's `tool_approval_requested` event and waits until the app answers it. A repo whose sessions have no handler for the event, or only handlers that neither file the request (`control.requestRealtime(session, request.approvalItem)`) nor answer it (`control.resolveRealtime`, `session.approve/reject`) nor keep the request to answer later, leaves the voice agent waiting forever: the call is filed in the store as it pauses, but nothing applies an operator's answer to the session. Reported when the policy (in enforce mode) has an action that can be `approve`; a handler check cannot read (a function from another module) counts as answering.",
  help: "Handle it: keep `request.approvalItem` from `session.on('tool_approval_requested', (_context, _agent, request) => ...)` (the call is already filed in the store), and once an operator answered apply the answer with `control.resolveRealtime(session, request.approvalItem)` (docs/runtime.md).",
};

/** `realtime-approval-unanswered`: sessions in a repo where no approval handler answers. */
export function realtimeApprovalUnansweredRule(files: ScannedFile[], project: ProjectContext | undefined): Finding[] {
  if (!project || project.policy.mode === 'observe') return [];
  const pausing = Object.values(project.policy.actions).find((a) => a.rules.some((r) => r.decision === 'approve'));
  if (!pausing) return [];
  const handlers = files.flatMap((f) => (f.scan.realtimeApprovalHandlers ?? []).map((h) => ({ file: f.scan.file, h })));
  if (handlers.some(({ h }) => h.answers !== 'no')) return [];
  const silent = handlers[0];
  return files.flatMap(({ scan }) =>
    (scan.realtimeSessions ?? []).map((s) =>
      findingOf(
        realtimeApprovalUnansweredMeta,
        scan.file,
        s.span,
        silent
          ? `This RealtimeSession's \`tool_approval_requested\` is handled (${silent.file}:${silent.h.span.line}) but never answered or filed: a call of ${pausing.id} the policy sends to a person waits forever, and no operator sees it.`
          : `No handler of this RealtimeSession's \`tool_approval_requested\`: a call of ${pausing.id} the policy sends to a person waits forever, and no operator sees it.`,
        realtimeApprovalUnansweredMeta.help,
      ),
    ),
  );
}
