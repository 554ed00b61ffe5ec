import { LITERAL_DOOR_FACTORIES, SDK_DOORS } from '../scan/sdk-surface.js';
import type { FileScan, LiteralDoor } from '../scan/types.js';
import { doorWriteConflicts } from './door-write-conflicts.js';
import type { DoorKind, DoorLeft } from './types.js';

/**
 * Every door of a file the codemod leaves as a conflict whatever the manifest maps: a door's part
 * written after it is made (door-write-conflicts.ts) and the doors written by hand (below). The
 * codemod's rewrite and init's notes both read this list, so the two name the same doors.
 */
export function doorsLeftByHand(scan: FileScan, fileAbs: string): DoorLeft[] {
  return [...doorWriteConflicts(scan, fileAbs), ...handDoorConflicts(scan, fileAbs)];
}

/**
 * Doors check reports that the codemod has no rewrite for (issue 40 item 4): a door written as the
 * object its SDK factory returns (`{ type: 'shell', shell }`, a hosted MCP tool's object), a function
 * tool written by hand (`{ type: 'function', invoke }`), and a `needsApproval` given to an already
 * protected tool, and a handoff's `onInvokeHandoff` written (`h.onInvokeHandoff = f`: it replaces
 * the function a handoff, protected or not, decides in). Each is a conflict at check's place, so the
 * summary never says "0 conflicts" or "already protected" where check is red on the same tree.
 */
export function handDoorConflicts(scan: FileScan, fileAbs: string): DoorLeft[] {
  const out: DoorLeft[] = [];
  const left = (span: { line: number; column: number }, door: DoorKind, message: string, hint: string, name?: string) =>
    out.push({
      kind: 'door-left',
      file: fileAbs,
      line: span.line,
      column: span.column,
      door,
      reason: 'conflict',
      message,
      hint,
      ...(name !== undefined ? { name } : {}),
    });
  for (const d of scan.literalDoors ?? []) {
    if (d.door !== 'hosted_mcp') {
      const door = LITERAL_DOOR_FACTORIES[d.door];
      const variant = SDK_DOORS[door]!.by[0]!;
      left(
        d.span,
        door,
        `written as an object literal (\`type: '${d.door}'\`), which the SDK runs as the tool its factory makes: check reports it, and the codemod rewrites only factory calls`,
        literalHint(variant),
        d.name,
      );
      continue;
    }
    const open = openHostedLiteral(d);
    if (open)
      left(
        open,
        'hostedMcpTool',
        `written as an object literal whose \`require_approval\` is not 'always': check reports it, and the codemod rewrites only hostedMcpTool() calls`,
        HOSTED_HINT,
        d.serverLabel,
      );
  }
  for (const t of scan.objectLiteralTools ?? [])
    left(
      t.span,
      'tool',
      t.tooFar !== undefined
        ? `an agent's \`tools\` value reached through more steps than check follows, so a function tool written by hand may lie past it: check reports it, and the codemod rewrites only tool() calls it can see`
        : `written ${t.form === 'class' ? 'as a class that implements a function tool' : 'as an object literal'} with its own \`invoke\`: check reports it, as no policy decides its calls, and the codemod rewrites only tool() calls`,
      FUNCTION_HINT,
      t.name,
    );
  for (const call of scan.protectedToolCalls) {
    const prop = call.options.properties.needsApproval;
    if (prop)
      left(
        prop.span,
        'tool',
        `protectedTool(${call.action !== undefined ? `'${call.action}'` : ''}) is given \`needsApproval\`, which overrides the policy's approvals: check reports it, and the codemod does not edit a protected tool`,
        OVERRIDE_HINT,
        call.name,
      );
  }
  for (const h of scan.handoffs ?? [])
    if (h.constructed === 'assignment' && h.form !== 'protected') left(h.span, 'handoff', INVOKE_WRITTEN, INVOKE_WRITTEN_HINT, h.to);
  return out;
}

/** Whether a file holds a door only this module reports (the codemod reads the file for it). */
export function hasHandDoors(scan: FileScan): boolean {
  return handDoorConflicts(scan, scan.file).length > 0;
}

/**
 * Where a hosted MCP tool written as an object may run a call with no approval, as check's
 * hosted-mcp-unguarded places it (a hand-written `on_approval`, a spread after `require_approval:
 * 'always'`, a `require_approval` other than 'always', none, or a `providerData` check cannot read);
 * undefined when it always asks.
 */
function openHostedLiteral(d: LiteralDoor): { line: number; column: number } | undefined {
  const p = d.providerData?.properties;
  if (!p) return d.span;
  if (p.on_approval) return p.on_approval.span;
  const always = p.require_approval?.valueKind === 'string' && p.require_approval.stringValue === 'always';
  if (!always) return p.require_approval?.span ?? d.span;
  return d.spreadAfterRequireApproval;
}

const literalHint = (variant: string): string =>
  `Build it with \`${variant}('<action>', { ... })\` from the generated module (the action in ctrlrun.yaml), in place of the object; then run check again.`;
const HOSTED_HINT =
  'Build it with `protectHostedMcp({ serverLabel, ... })` from the generated module (no require_approval), with `- hosted_mcp: { server_label }` mapped to an action in ctrlrun.tools.yaml; then run check again.';
const FUNCTION_HINT =
  "Build it with the SDK's `tool({ name, description, parameters, execute })`, map its name in ctrlrun.tools.yaml, then run the codemod again.";
const INVOKE_WRITTEN = '`onInvokeHandoff` is assigned, replacing the function protectHandoff decides the transfer in';
const INVOKE_WRITTEN_HINT =
  "Drop the assignment and put the code in the handoff's `onHandoff` (`handoff(agent, { onHandoff, inputType })`), which protectHandoff runs once the policy allows.";
const OVERRIDE_HINT = 'Remove `needsApproval` and express the condition as a rule with `decision: approve` in ctrlrun.yaml; then run check again.';
