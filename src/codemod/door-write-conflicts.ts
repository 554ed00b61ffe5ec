import { doorWriteText, MADE_LOCAL_HINT, unresolvedLeftText } from '../scan/door-write-text.js';
import type { DoorWrite, FileScan, InvokeReplacement } from '../scan/types.js';
import type { DoorKind, DoorLeft } from './types.js';

/**
 * A door's part written after the door is made (`o.server.toolInputGuardrails = []`,
 * `this.shell.shell = other`, `refund.invoke = f`): check reports each (mcp-server-unguarded,
 * hosted-mcp-unguarded, invoke-replaced) and the codemod has no rewrite for any, so each is a
 * conflict of the file, counted and named, never a silent "0 conflicts" where check is red
 * (issue 40 item 4).
 */
export function doorWriteConflicts(scan: FileScan, fileAbs: string): DoorLeft[] {
  const writes = (scan.doorWrites ?? []).map((d) => {
    const door = DOOR_OF[d.door] ?? 'tool';
    if (d.unresolved) {
      const { message, hint } = unresolvedLeftText(d);
      return conflictOf(fileAbs, d.span, door, message, hint);
    }
    if (d.door === 'hostedShell') return conflictOf(fileAbs, d.span, door, madeLocalText(d), MADE_LOCAL_HINT);
    return conflictOf(fileAbs, d.span, door, writeText(d), WRITE_HINT);
  });
  const invokes = (scan.invokeReplacements ?? []).map((r) =>
    conflictOf(fileAbs, r.span, r.method !== undefined ? 'agent' : 'tool', invokeText(r), r.method !== undefined ? AGENT_HINT : INVOKE_HINT),
  );
  return [...writes, ...invokes];
}

/** The door kind a write names, by what made the door (door-writes.ts `BREAKS` names no other). */
const DOOR_OF: Readonly<Record<string, DoorKind>> = {
  protectShellTool: 'shellTool',
  protectApplyPatchTool: 'applyPatchTool',
  protectComputerTool: 'computerTool',
  protectMcpServer: 'mcpServers',
  protectHostedMcp: 'hostedMcpTool',
  hostedMcpTool: 'hostedMcpTool',
  hostedShell: 'shellTool',
};

function conflictOf(file: string, span: { line: number; column: number }, door: DoorKind, message: string, hint: string): DoorLeft {
  return { kind: 'door-left', file, line: span.line, column: span.column, door, reason: 'conflict', message, hint };
}

function writeText(d: DoorWrite): string {
  const member = d.inner !== undefined && d.form !== 'contents' ? ` (\`${d.property}.${d.inner}\`)` : '';
  return `${doorWriteText(d)}${member} after ${d.door}(): check reports it, as the door no longer holds the policy, and the codemod has no rewrite for a door changed after it is made`;
}

function invokeText(r: InvokeReplacement): string {
  const who = r.target !== undefined ? `\`${r.target}\`` : 'an object';
  const why = r.method !== undefined ? "the agent's tools no longer pass the policy" : "the tool's calls no longer pass the policy";
  return `${who} is given another \`${r.method ?? 'invoke'}\`: check reports it, as ${why}, and the codemod has no rewrite for it`;
}

const WRITE_HINT =
  "Remove the write, or make the change before the door is protected (the server's guardrails before protectMcpServer, the shell given to protectShellTool); then run check again.";
/** A hosted shell whose `environment` is made local after it is made: check's unprotected-door, the SDK runs its calls here. */
function madeLocalText(d: DoorWrite): string {
  return `${doorWriteText(d)} on a hosted shell tool: check reports it, as the SDK then runs the model's shell commands here with no policy, and the codemod has no rewrite for it`;
}

const INVOKE_HINT = "Keep the tool's `invoke` as it is: change what the tool does in the function it is built with, then run check again.";
const AGENT_HINT = 'Give the agent its tools, servers and handoffs when it is made instead of replacing the method that lists them; then run check again.';
