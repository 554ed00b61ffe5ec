import { isRealtimeEntry } from '../../scan/realtime.js';
import type { FileScan, UnreadablePath } from '../../scan/types.js';
import type { Finding, ProjectContext, ScannedFile } from '../types.js';
import { findingAt } from './finding.js';

/** `opaque-tool-factory`: a tool factory reached in a way the scanner cannot follow (fail closed). */
export function opaqueToolFactoryRule(scan: FileScan): Finding[] {
  return (scan.opaqueFactoryUses ?? []).map((u) =>
    findingAt(
      'opaque-tool-factory',
      scan.file,
      u.span,
      `${u.what === 'tool' || !u.what.includes('/') ? `\`${u.what}\`` : `'${u.what}'`} leads to the SDK's tool factory, but ${u.reason}: any tool built from it is one no policy decides.`,
      'Call the factory directly (`tool({ name: ... })`, or `const { tool } = await import(...)`) so check and the codemod can see each tool.',
    ),
  );
}

/** `object-literal-tool`: `{ type: 'function', invoke, ... }` written by hand. */
export function objectLiteralToolRule(scan: FileScan): Finding[] {
  return (scan.objectLiteralTools ?? []).map((t) =>
    findingAt(
      'object-literal-tool',
      scan.file,
      t.span,
      `A function tool${t.name !== undefined ? ` '${t.name}'` : ''} written as an object literal with its own \`invoke\`: the SDK runs it, but it never goes through tool(), so no policy decides its calls.`,
      'Build it with `tool({ name, description, parameters, execute })`, map its name in ctrlrun.tools.yaml, then run `npx ctrlrun-gen codemod --write`.',
    ),
  );
}

/** `invoke-replaced`: a tool's `invoke` swapped out. */
export function invokeReplacedRule(scan: FileScan): Finding[] {
  return (scan.invokeReplacements ?? []).map((r) => {
    const what = r.target ? `\`${r.target}\`` : 'a tool';
    const how =
      r.form === 'spread' ? `a copy of ${what} with another \`invoke\`` : r.form === 'object-assign' ? `Object.assign() gives ${what} another \`invoke\`` : `${what}'s \`invoke\` is reassigned`;
    return findingAt(
      'invoke-replaced',
      scan.file,
      r.span,
      `${how.charAt(0).toUpperCase()}${how.slice(1)}: a protected tool decides and records each call in its invoke, so this runs the body with no policy.`,
      "Keep the tool as built; put extra behaviour in its `execute`, or in a new action of ctrlrun.yaml.",
    );
  });
}

/**
 * `sdk-approval`: `state.approve/reject(item)` (and `approveTool`/`rejectTool`) in a repo with
 * protected tools (a mapped function tool in the manifest, or a protectedTool call anywhere).
 */
export function sdkApprovalRule(files: ScannedFile[], project: ProjectContext | undefined): Finding[] {
  const hasProtected = (project?.manifest.tools.some((t) => t.kind === 'function') ?? false) || files.some((f) => f.scan.protectedToolCalls.length > 0);
  if (!hasProtected) return [];
  const out: Finding[] = [];
  for (const { scan } of files) {
    // a file that imports the realtime entry answers a RealtimeSession's tool_approval_requested
    const realtime = (scan.moduleImports ?? []).some((m) => isRealtimeEntry(m.module));
    for (const a of scan.sdkApprovals ?? []) {
      const answer = a.method.startsWith('approve') ? 'approve' : 'reject';
      out.push(
        findingAt(
          'sdk-approval',
          scan.file,
          a.span,
          realtime
            ? `\`${a.receiver}.${a.method}(${a.item})\` answers a realtime call through the SDK: for a protected tool's call no approver is recorded and the tool refuses it with ApprovalMismatch (the session's error event).`
            : `\`${a.receiver}.${a.method}(${a.item})\` answers an interruption through the SDK: for a protected tool's call no approver is recorded and the tool refuses the call with ApprovalMismatch out of run().`,
          realtime
            ? `The call is filed in the store when it pauses; once an operator answered (\`ctrlrun-gen serve\`, \`ctrlrun-gen approvals\`), \`await control.resolveRealtime(session, ${a.item})\` approves or rejects it in the session.`
            : answer === 'approve'
              ? `Use the Control: \`await control.approve(state, ${a.item}, { approver })\`, then resume with the same state.`
              : `Use the Control: \`await control.reject(state, ${a.item}, { approver, reason })\`, then resume with the same state.`,
        ),
      );
    }
  }
  return out;
}

/** `unreadable-file`: from the repo listing, not from a parsed file. */
export function unreadableFindings(items: readonly UnreadablePath[]): Finding[] {
  return items.map((u) =>
    findingAt(
      'unreadable-file',
      u.file,
      { line: 1, column: 1 },
      `${u.message}, so it was not checked.`,
      'Make it readable by the CI user, or save it as UTF-8; if it is not source code, rename or ignore it.',
    ),
  );
}

const LOCAL_DOORS: Record<string, string> = { shellTool: 'protectShellTool', applyPatchTool: 'protectApplyPatchTool', computerTool: 'protectComputerTool' };
const HOSTED_TOOLS = new Set(['webSearchTool', 'fileSearchTool', 'codeInterpreterTool', 'imageGenerationTool']);

/** A `shellTool({ environment, ... })` with no `shell`: a hosted (container) shell, run at OpenAI. */
function isHostedShell(call: NonNullable<FileScan['sdkFactoryCalls']>[number]): boolean {
  const p = call.options.properties;
  return call.factory === 'shellTool' && !call.options.hasSpread && p.environment !== undefined && p.shell === undefined;
}

/** `unprotected-door`: an SDK shellTool (local)/applyPatchTool/computerTool call (each has a protected variant). */
export function unprotectedDoorRule(scan: FileScan): Finding[] {
  const out: Finding[] = [];
  for (const call of scan.sdkFactoryCalls ?? []) {
    if (!(call.factory in LOCAL_DOORS) || isHostedShell(call)) continue;
    const variant = LOCAL_DOORS[call.factory];
    out.push(
      findingAt(
        'unprotected-door',
        scan.file,
        call.callee,
        `\`${call.factory}()\` lets the model ${call.factory === 'shellTool' ? 'run shell commands' : call.factory === 'applyPatchTool' ? 'patch files' : 'drive a computer'} with no policy: no decision, no recorded approval, no receipt.`,
        `Use \`${variant}('<action>', { ... })\` from the generated module (without needsApproval/onApproval), with the action in ctrlrun.yaml; map the tool's name in ctrlrun.tools.yaml and \`npx ctrlrun-gen codemod --write\` rewrites it.`,
      ),
    );
  }
  return out;
}

/** `hosted-tool-ungated` (warning): a hosted tool that runs at OpenAI, out of any client's reach. */
export function hostedToolUngatedRule(scan: FileScan): Finding[] {
  return (scan.sdkFactoryCalls ?? [])
    .filter((call) => HOSTED_TOOLS.has(call.factory) || isHostedShell(call))
    .map((call) =>
      findingAt(
        'hosted-tool-ungated',
        scan.file,
        call.callee,
        isHostedShell(call)
          ? '`shellTool()` with a hosted `environment` (no local `shell`) runs commands in a container at OpenAI: no policy, approval or receipt applies to it.'
          : `\`${call.factory}()\` runs at OpenAI inside the model call: no policy, approval or receipt applies to it.`,
        'Keep it only where its results are safe to act on, or suppress with the reason.',
      ),
    );
}
