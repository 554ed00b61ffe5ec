import type { FileScan } from '../../scan/types.js';
import { isHostedShell } from './sdk-factory-calls.js';
import type { Finding, RuleMeta } from '../types.js';
import { findingOf } from './rule-finding.js';
import { exportsReportedBy } from '../../scan/sdk-surface.js';

export const hostedToolUngatedMeta: RuleMeta = {
  id: 'hosted-tool-ungated',
  severity: 'warning',
  short: 'A hosted tool (web search, file search, code interpreter, image generation, programmatic tool calling, a hosted shell) that no client can gate.',
  full: 'These tools run at OpenAI inside the model call: the SDK never sees a call before it happens, so no policy, approval or receipt of this library applies to them. What they read can still steer the model (a web page is untrusted input).',
  help: 'Keep them only where their results are safe to act on, or suppress with the reason: `// ctrlrun-ignore hosted-tool-ungated -- <why>`.',
};

/** The hosted tools, as the census of the SDK classifies them (src/scan/sdk-surface.ts). */
const HOSTED_TOOLS = new Set(exportsReportedBy('hosted-tool-ungated'));

/** `hosted-tool-ungated` (warning): a hosted tool that runs at OpenAI, out of any client's reach. */
export function hostedToolUngatedRule(scan: FileScan): Finding[] {
  return (scan.sdkFactoryCalls ?? [])
    .filter((call) => HOSTED_TOOLS.has(call.factory) || isHostedShell(call))
    .map((call) =>
      findingOf(
        hostedToolUngatedMeta,
        scan.file,
        call.callee,
        isHostedShell(call)
          ? '`shellTool()` with a hosted `environment` (no local `shell`) runs commands in a container at OpenAI: no policy, approval or receipt applies to it.'
          : `\`${call.factory}()\` runs at OpenAI inside the model call: no policy, approval or receipt applies to it.`,
        'Keep it only where its results are safe to act on, or suppress with the reason.',
      ),
    );
}
