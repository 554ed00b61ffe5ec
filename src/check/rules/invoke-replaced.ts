import type { DoorWrite, FileScan, InvokeReplacement } from '../../scan/types.js';
import type { Finding, RuleMeta } from '../types.js';
import { capitalized, doorWriteText, unresolvedHint, unresolvedWriteText } from '../../scan/door-write-text.js';
import { findingOf } from './rule-finding.js';

export const invokeReplacedMeta: RuleMeta = {
  id: 'invoke-replaced',
  severity: 'error',
  short:
    "A tool's `invoke` is replaced (`{ ...tool, invoke }`, `Object.assign(tool, { invoke })`, `tool.invoke = ...`, `Object.defineProperty`, `Reflect.set`), the body of a protected shell, apply_patch or computer tool (`shell`, `editor`, `computer`), or the method an agent's tools come from (`getAllTools`, `getMcpTools`, `getEnabledHandoffs`).",
  full: "A protected tool decides, asks for approval and writes its receipt inside its `invoke`. A copy with another `invoke`, or the same object with `invoke` reassigned (or redefined: `Object.defineProperty`, `Object.defineProperties`, `Reflect.set`, `Reflect.defineProperty`), runs the body with none of that: the policy is skipped without a word. A protected shell, apply_patch or computer tool decides in `needsApproval` and runs the call only in the wrapped `shell`, `editor` or `computer` it built: a copy with another one, or the same tool given another, runs commands, patches or clicks the policy denied or nobody approved. Likewise the SDK's runner asks an agent for its tools with `getAllTools()` (which calls `getMcpTools()`) and for its handoffs with `getEnabledHandoffs()`: a class extending `Agent` that overrides one of them, or an agent (or `Agent.prototype`) given another, hands the model tools that are in none of the agent's lists, where no guard and not even `protectAgent` reaches them.",
  help: "Keep the protected tool as the generated module builds it; put extra behaviour in the tool's `execute`, or in a new action of ctrlrun.yaml.",
};

/** `invoke-replaced`: a tool's `invoke` swapped out. */
export function invokeReplacedRule(scan: FileScan): Finding[] {
  const bodies = (scan.doorWrites ?? []).filter((d) => LOCAL_DOORS[d.door] !== undefined).map((d) => bodyReplaced(scan, d));
  return [...replacements(scan), ...bodies];
}

function replacements(scan: FileScan): Finding[] {
  return (scan.invokeReplacements ?? []).map((r) => {
    if (r.method !== undefined) return sourceReplaced(scan, r);
    const what = r.target ? `\`${r.target}\`` : 'a tool';
    const how =
      r.form === 'spread'
        ? `a copy of ${what} with another \`invoke\``
        : r.form === 'object-assign'
          ? `Object.assign() gives ${what} another \`invoke\``
          : r.form === 'reflection'
            ? `${r.via}() gives ${what} another \`invoke\``
            : `${what}'s \`invoke\` is reassigned`;
    return findingOf(
      invokeReplacedMeta,
      scan.file,
      r.span,
      `${how.charAt(0).toUpperCase()}${how.slice(1)}: a protected tool decides and records each call in its invoke, so this runs the body with no policy.`,
      'Keep the tool as built; put extra behaviour in its `execute`, or in a new action of ctrlrun.yaml.',
    );
  });
}

/** `getAllTools` (or `getMcpTools`, `getEnabledHandoffs`) of an agent overridden or assigned. */
function sourceReplaced(scan: FileScan, r: InvokeReplacement): Finding {
  const what =
    r.form === 'override'
      ? `${r.target ? `\`${r.target}\`` : 'A class'} overrides the SDK Agent's \`${r.method}\``
      : r.form === 'reflection'
        ? `${r.via}() gives an agent another \`${r.method}\``
        : `An agent's \`${r.method}\` is reassigned`;
  const gives = r.method === 'getEnabledHandoffs' ? 'handoffs' : 'tools';
  return findingOf(
    invokeReplacedMeta,
    scan.file,
    r.span,
    `${what}: the runner takes the agent's ${gives} from it, so ${gives} it adds are in none of the agent's lists and no policy decides their calls (protectAgent included).`,
    `Give the agent its ${gives} in its options (\`${gives === 'tools' ? 'tools' : 'handoffs'}\`${gives === 'tools' ? ', `mcpServers`' : ''}), protected by the generated module, and drop the override.`,
  );
}

/** The protected local doors, with the body each runs its calls in and what a call of it does. */
const LOCAL_DOORS: Record<string, { kind: string; calls: string } | undefined> = {
  protectShellTool: { kind: 'shell tool', calls: 'commands' },
  protectApplyPatchTool: { kind: 'apply_patch tool', calls: 'patches' },
  protectComputerTool: { kind: 'computer tool', calls: 'actions' },
};

/** The body (`shell`, `editor`, `computer`) of a protected local door replaced. */
function bodyReplaced(scan: FileScan, d: DoorWrite): Finding {
  const door = LOCAL_DOORS[d.door]!;
  if (d.unresolved)
    return findingOf(
      invokeReplacedMeta,
      scan.file,
      d.span,
      unresolvedWriteText(d, `it runs ${door.calls} the policy denied or nobody approved`),
      unresolvedHint(invokeReplacedMeta.id),
    );
  return findingOf(
    invokeReplacedMeta,
    scan.file,
    d.span,
    `${capitalized(doorWriteText(d))}: the protected ${door.kind} decides in \`needsApproval\` and runs ${door.calls} only in the wrapped \`${d.property}\` ${d.door} built, so this one runs ${door.calls} the policy denied or nobody approved.`,
    `Pass the ${d.property} you want to \`${d.door}\` (it wraps what it is given), and keep the tool it returns as it is.`,
  );
}
