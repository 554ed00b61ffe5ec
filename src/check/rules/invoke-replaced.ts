import type { FileScan, InvokeReplacement } from '../../scan/types.js';
import type { Finding, RuleMeta } from '../types.js';
import { findingOf } from './rule-finding.js';

export const invokeReplacedMeta: RuleMeta = {
  id: 'invoke-replaced',
  severity: 'error',
  short:
    "A tool's `invoke` is replaced (`{ ...tool, invoke }`, `Object.assign(tool, { invoke })`, `tool.invoke = ...`), or the method an agent's tools come from (`getAllTools`, `getMcpTools`, `getEnabledHandoffs`).",
  full: "A protected tool decides, asks for approval and writes its receipt inside its `invoke`. A copy with another `invoke`, or the same object with `invoke` reassigned, runs the body with none of that: the policy is skipped without a word. Likewise the SDK's runner asks an agent for its tools with `getAllTools()` (which calls `getMcpTools()`) and for its handoffs with `getEnabledHandoffs()`: a class extending `Agent` that overrides one of them, or an agent (or `Agent.prototype`) given another, hands the model tools that are in none of the agent's lists, where no guard and not even `protectAgent` reaches them.",
  help: "Keep the protected tool as the generated module builds it; put extra behaviour in the tool's `execute`, or in a new action of ctrlrun.yaml.",
};

/** `invoke-replaced`: a tool's `invoke` swapped out. */
export function invokeReplacedRule(scan: FileScan): Finding[] {
  return (scan.invokeReplacements ?? []).map((r) => {
    if (r.method !== undefined) return sourceReplaced(scan, r);
    const what = r.target ? `\`${r.target}\`` : 'a tool';
    const how =
      r.form === 'spread'
        ? `a copy of ${what} with another \`invoke\``
        : r.form === 'object-assign'
          ? `Object.assign() gives ${what} another \`invoke\``
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
