import type { FileScan } from '../scan/types.js';
import type { CodemodFinding, DoorKind } from './types.js';

// A write that breaks a door (check's `door-write`s: a guard list emptied, a body swapped, an
// approval turned off), or may break one because check cannot tell which object it writes: the
// codemod has no rewrite for it, and a door it protects would be broken by it, so it is a conflict
// (never "0 conflicts" on a broken door; issue 40, item 4).

/** The door kind of the codemod's words for each door a write is reported against. */
const KINDS: Record<string, DoorKind | undefined> = {
  protectMcpServer: 'mcpServers',
  hostedMcpTool: 'hostedMcpTool',
  protectHostedMcp: 'hostedMcpTool',
  protectShellTool: 'shellTool',
  protectApplyPatchTool: 'applyPatchTool',
  protectComputerTool: 'computerTool',
};

/** The file's door writes as conflicts, each at the write. */
export function doorWritesLeft(scan: FileScan, fileAbs: string): CodemodFinding[] {
  const out: CodemodFinding[] = [];
  for (const d of scan.doorWrites ?? []) {
    const door = KINDS[d.door];
    if (door === undefined) continue;
    const member = `\`${d.target ?? 'the door'}.${d.property}${d.inner !== undefined && d.inner !== '[]' ? `.${d.inner}` : ''}\``;
    out.push({
      kind: 'door-left',
      file: fileAbs,
      line: d.span.line,
      column: d.span.column,
      door,
      reason: 'conflict',
      message: d.unresolved
        ? `${member} is written on an object check cannot follow; if it is a door the codemod protects, this write undoes the protection`
        : `${member} is written after ${d.door}() made the door, and undoes its protection`,
      hint: d.unresolved
        ? 'keep the door in a `const` of the module that writes it (or write what it needs before it is protected), then run `ctrlrun-gen check`'
        : `give the door what it needs before ${d.door}() (it keeps what it is given), and leave the protected door as it is`,
    });
  }
  return out;
}
