import type { FileScan } from '../../scan/types.js';
import type { Finding, RuleMeta } from '../types.js';
import { findingOf } from './rule-finding.js';
import { exportsReportedBy } from '../../scan/sdk-surface.js';

export const mcpFunctionToolMeta: RuleMeta = {
  id: 'mcp-function-tool',
  severity: 'error',
  short: "An MCP server's tools turned into plain function tools with getAllMcpTools() or mcpToFunctionTool().",
  full: "`getAllMcpTools(...)` and `mcpToFunctionTool(...)` make SDK function tools that call the MCP server directly. Put in an Agent's `tools`, they run every call with no policy, no approval and no receipt: neither `protectMcpServer` (which guards `mcpServers`) nor the manifest's `- mcp:` entries ever see them.",
  help: 'Use `tools: await protectMcpTools([server])` from the generated module instead, with each tool mapped in ctrlrun.tools.yaml (`- mcp: { server, tool }`).',
};

/** The SDK's conversions of MCP tools to function tools, as the census classifies them (src/scan/sdk-surface.ts). */
const CONVERSIONS = new Set(exportsReportedBy('mcp-function-tool'));

/** `mcp-function-tool`: an SDK call that converts MCP tools to unguarded function tools. */
export function mcpFunctionToolRule(scan: FileScan): Finding[] {
  return (scan.sdkFactoryCalls ?? [])
    .filter((call) => CONVERSIONS.has(call.factory))
    .map((call) =>
      findingOf(
        mcpFunctionToolMeta,
        scan.file,
        call.callee,
        `\`${call.factory}()\` turns MCP tools into plain function tools: given to an agent, each call goes straight to the server with no policy, no approval and no receipt.`,
        mcpFunctionToolMeta.help,
      ),
    );
}
