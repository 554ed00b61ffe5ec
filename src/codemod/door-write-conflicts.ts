import { doorWriteText } from '../scan/door-write-text.js';
import type { DoorWrite, FileScan, InvokeReplacement } from '../scan/types.js';
import type { CodemodFinding, DoorKind } from './types.js';

/**
 * A door's part written after the door is made (`o.server.toolInputGuardrails = []`,
 * `this.shell.shell = other`, `refund.invoke = f`): check reports each (mcp-server-unguarded,
 * hosted-mcp-unguarded, invoke-replaced) and the codemod has no rewrite for any, so each is a
 * conflict of the file, counted and named, never a silent "0 conflicts" where check is red
 * (issue 40 item 4).
 */
export function doorWriteConflicts(scan: FileScan, fileAbs: string): CodemodFinding[] {
  const writes = (scan.doorWrites ?? []).map((d) =>
    conflictOf(fileAbs, d.span, DOOR_OF[d.door] ?? 'tool', writeText(d), d.unresolved ? UNRESOLVED_HINT : WRITE_HINT),
  );
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
};

function conflictOf(file: string, span: { line: number; column: number }, door: DoorKind, message: string, hint: string): CodemodFinding {
  return { kind: 'door-left', file, line: span.line, column: span.column, door, reason: 'conflict', message, hint };
}

function writeText(d: DoorWrite): string {
  const member = d.inner !== undefined && d.form !== 'contents' ? ` (\`${d.property}.${d.inner}\`)` : '';
  // an object check cannot follow (a parameter, an element, a function's result): it may be the door
  if (d.unresolved)
    return `${doorWriteText(d)}${member} on an object check cannot follow: check reports it, as the write undoes the protection if the object is a door the codemod protects, and the codemod has no rewrite for it`;
  return `${doorWriteText(d)}${member} after ${d.door}(): check reports it, as the door no longer holds the policy, and the codemod has no rewrite for a door changed after it is made`;
}

function invokeText(r: InvokeReplacement): string {
  const who = r.target !== undefined ? `\`${r.target}\`` : 'an object';
  const why = r.method !== undefined ? "the agent's tools no longer pass the policy" : "the tool's calls no longer pass the policy";
  return `${who} is given another \`${r.method ?? 'invoke'}\`: check reports it, as ${why}, and the codemod has no rewrite for it`;
}

const WRITE_HINT =
  "Remove the write, or make the change before the door is protected (the server's guardrails before protectMcpServer, the shell given to protectShellTool); then run check again.";
const UNRESOLVED_HINT =
  'Keep the door in a `const` of the module that writes it (or write what it needs before it is protected), so check can follow it; then run check again.';
const INVOKE_HINT = "Keep the tool's `invoke` as it is: change what the tool does in the function it is built with, then run check again.";
const AGENT_HINT = 'Give the agent its tools, servers and handoffs when it is made instead of replacing the method that lists them; then run check again.';
