import { answerCall } from '../../scan/answer-call.js';
import { isRealtimeEntry } from '../../scan/realtime.js';
import type { Finding, ProjectContext, RepoFacts, RuleMeta, ScannedFile } from '../types.js';
import { findingOf } from './rule-finding.js';
import { hasOwnProtectedTools } from '../own-protected-tools.js';

export const sdkApprovalMeta: RuleMeta = {
  id: 'sdk-approval',
  severity: 'error',
  short: 'An interruption is approved or rejected through the SDK (`state.approve/reject`) in a repo with protected tools.',
  full: "A protected tool asks its approvals through the Control, which records who answered, checks the answer is for the exact arguments, and refuses an approver who asked for the call. Approving its interruption with the SDK's `state.approve(item)` (or `reject`, `approveTool`, `rejectTool`) skips all of that, and the protected tool then refuses the call with `ApprovalMismatch` out of `run()`. Reported in every repo whose manifest maps a tool or whose code builds a protected tool, and in a package of a workspace that depends (in its package.json, by name) on a package whose manifest maps one (a `server` package running an `agents` package's tools), and in a file outside such a package whose imports reach one of its protected tools (a relative path, a sibling of a root that is no workspace), since check cannot tell statically which tool an interruption belongs to.",
  help: 'Answer through the Control: `await control.approve(state, item, { approver })` or `await control.reject(state, item, { approver, message })`, then resume the run with the same state.',
};

/**
 * `sdk-approval`: `state.approve/reject(item)` (and `approveTool`/`rejectTool`) in a repo with
 * protected tools (a mapped function tool in the manifest, or a protectedTool call anywhere), or in
 * a package that depends on a package of its workspace whose manifest maps one (a `server` package
 * answering the interruptions of an `agents` package's tools: issue 40), or in a file that imports
 * such a package's tools by path. What other packages hold is read before the rule runs
 * (check/answer-facts.ts): the rule reads it from `facts`.
 */
export function sdkApprovalRule(files: ScannedFile[], project: ProjectContext | undefined, facts?: RepoFacts): Finding[] {
  const hasProtected = hasOwnProtectedTools(
    files.map((f) => f.scan),
    project,
  );
  /** Why an answer in this file authorizes nothing: '' for this repo's own protected tools, undefined when nothing says so. */
  const protectedFor = (file: string): string | undefined => {
    if (hasProtected) return '';
    const via = facts?.importsProtected?.get(file);
    if (via !== undefined) return ` (this file imports the tools of \`${via}\` by path, and they are protected)`;
    const deps = facts?.protectedDependencies?.get(file) ?? [];
    return deps.length > 0 ? ` (this package depends on ${deps.map((d) => `\`${d.name}\``).join(', ')}, whose tools are protected)` : undefined;
  };
  const out: Finding[] = [];
  for (const { scan } of files) {
    if ((scan.sdkApprovals ?? []).length === 0) continue;
    const why = protectedFor(scan.file);
    if (why === undefined) continue;
    // a file that imports the realtime entry answers a RealtimeSession's tool_approval_requested
    const realtime = (scan.moduleImports ?? []).some((m) => isRealtimeEntry(m.module));
    for (const a of scan.sdkApprovals ?? []) {
      const answer = a.method.startsWith('approve') ? 'approve' : 'reject';
      const call = answerCall(a);
      // a helper's untyped parameter, taken for a run's state (issue 40): the message says so
      const unsure = a.unsure !== undefined ? ` (${a.unsure})` : '';
      out.push(
        findingOf(
          sdkApprovalMeta,
          scan.file,
          a.span,
          realtime
            ? `\`${call}\` answers a realtime call through the SDK${why}${unsure}: for a protected tool's call no approver is recorded and the tool refuses it with ApprovalMismatch (the session's error event).`
            : `\`${call}\` answers an interruption through the SDK${why}${unsure}: for a protected tool's call no approver is recorded and the tool refuses the call with ApprovalMismatch out of run().`,
          realtime
            ? `The call is filed in the store when it pauses; once an operator answered (\`ctrlrun-gen serve\`, \`ctrlrun-gen approvals\`), \`await control.resolveRealtime(session, ${a.item})\` approves or rejects it in the session.`
            : a.key !== undefined
              ? `Use the Control for either answer the key names: \`await control.approve(state, ${a.item}, { approver })\` or \`await control.reject(state, ${a.item}, { approver, reason })\`, then resume with the same state.`
              : answer === 'approve'
                ? `Use the Control: \`await control.approve(state, ${a.item}, { approver })\`, then resume with the same state.`
                : `Use the Control: \`await control.reject(state, ${a.item}, { approver, reason })\`, then resume with the same state.`,
        ),
      );
    }
  }
  return out;
}
