import type { FileScan } from '../../scan/types.js';
import { isHostedShell } from './sdk-factory-calls.js';
import type { Finding, RuleMeta } from '../types.js';
import { findingOf } from './rule-finding.js';
import { capitalized, doorWriteText, MADE_LOCAL_HINT } from '../../scan/door-write-text.js';
import { exportsReportedBy, LITERAL_DOOR_FACTORIES, SDK_DOORS } from '../../scan/sdk-surface.js';

export const unprotectedDoorMeta: RuleMeta = {
  id: 'unprotected-door',
  severity: 'error',
  short: 'An SDK shellTool(), applyPatchTool() or computerTool() call: a door the model can open with no policy.',
  full: "The SDK runs a local shell command, a file patch or a computer action for the model with no approval by default, and an inline `needsApproval`/`onApproval` records no approver and binds no answer to the call. `protectShellTool(action, options)`, `protectApplyPatchTool(action, options)` and `protectComputerTool(action, options)` from the generated module decide each call by the policy, pause for a person, run an approved call once and write receipts. The same door written as the object the factory returns (`{ type: 'shell', shell, ... }`, `{ type: 'apply_patch', editor }`, `{ type: 'computer', computer }`) is reported too: the runner finds it by its `type`. So is a hosted shell (`environment` not local) whose `environment` is made local after it is made: the runner runs a shell call here unless `environment.type` is other than 'local'.",
  help: "Replace `shellTool({ ... })` with `protectShellTool('<action>', { ... })`, `applyPatchTool({ ... })` with `protectApplyPatchTool('<action>', { ... })` and `computerTool({ ... })` with `protectComputerTool('<action>', { ... })` from the generated module (drop `needsApproval`/`onApproval`; the policy decides); `npx ctrlrun-gen codemod --write` does it for tools mapped by name in ctrlrun.tools.yaml.",
};

/** The local doors and their protected variants, as the census of the SDK classifies them (src/scan/sdk-surface.ts). */
const LOCAL_DOORS: Record<string, string> = Object.fromEntries(exportsReportedBy('unprotected-door').map((name) => [name, SDK_DOORS[name]!.by[0]!]));

/** `unprotected-door`: an SDK shellTool (local)/applyPatchTool/computerTool call (each has a protected variant). */
export function unprotectedDoorRule(scan: FileScan): Finding[] {
  const out: Finding[] = [];
  for (const call of scan.sdkFactoryCalls ?? []) {
    if (!(call.factory in LOCAL_DOORS) || isHostedShell(call)) continue;
    const variant = LOCAL_DOORS[call.factory];
    out.push(
      findingOf(
        unprotectedDoorMeta,
        scan.file,
        call.callee,
        `\`${call.factory}()\` lets the model ${call.factory === 'shellTool' ? 'run shell commands' : call.factory === 'applyPatchTool' ? 'patch files' : 'drive a computer'} with no policy: no decision, no recorded approval, no receipt.`,
        `Use \`${variant}('<action>', { ... })\` from the generated module (without needsApproval/onApproval), with the action in ctrlrun.yaml; map the tool's name in ctrlrun.tools.yaml and \`npx ctrlrun-gen codemod --write\` rewrites it.`,
      ),
    );
  }
  for (const d of scan.literalDoors ?? []) if (d.door !== 'hosted_mcp') out.push(literalFinding(scan, d));
  for (const d of scan.doorWrites ?? []) if (d.door === 'hostedShell') out.push(madeLocalFinding(scan, d));
  return out;
}

/** A hosted shell whose `environment` is made local after it is made (file/hosted-shells.ts): the SDK runs its calls here. */
function madeLocalFinding(scan: FileScan, d: NonNullable<FileScan['doorWrites']>[number]): Finding {
  return findingOf(
    unprotectedDoorMeta,
    scan.file,
    d.span,
    `${capitalized(doorWriteText(d))} on a hosted shell tool: the SDK runs a shell call here unless \`environment.type\` is other than 'local', so this lets the model run shell commands with no policy: no decision, no recorded approval, no receipt.`,
    MADE_LOCAL_HINT,
  );
}

/** What each literal door lets the model do, and its body's property. */
const LITERAL_DOORS = {
  shell: ['run shell commands', 'shell'],
  apply_patch: ['patch files', 'editor'],
  computer: ['drive a computer', 'computer'],
} as const;

/** A local door written as the object its factory returns: the runner finds it by `type`, so it runs as the factory's would. */
function literalFinding(scan: FileScan, d: NonNullable<FileScan['literalDoors']>[number]): Finding {
  const type = d.door as keyof typeof LITERAL_DOORS;
  const [does, body] = LITERAL_DOORS[type];
  const variant = SDK_DOORS[LITERAL_DOOR_FACTORIES[type]]!.by[0]!;
  return findingOf(
    unprotectedDoorMeta,
    scan.file,
    d.span,
    d.typeText !== undefined
      ? `A ${d.door} tool${d.name !== undefined ? ` '${d.name}'` : ''} written as an object literal with its own \`${body}\` and \`type: ${d.typeText}\`, a value check cannot read: if it is '${d.door}', the SDK finds the tool by it and lets the model ${does} with no policy: no decision, no recorded approval, no receipt.`
      : `A ${d.door} tool${d.name !== undefined ? ` '${d.name}'` : ''} written as an object literal (\`type: '${d.door}'\` with its own \`${body}\`): the SDK finds it by its type and lets the model ${does} with no policy: no decision, no recorded approval, no receipt.`,
    `Use \`${variant}('<action>', { ... })\` from the generated module, with the action in ctrlrun.yaml (the codemod does not rewrite an object literal).`,
  );
}
