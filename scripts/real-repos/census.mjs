// A census of the doors a repository's source opens, by text alone: independent of the scanner,
// so a door the scanner misses shows as a kind counted here that nothing mapped or reported.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Each kind of door and what in a source file opens it. */
export const DOOR_KINDS = {
  tool: /\btool\(\s*\{/g,
  agentTool: /\.asTool\(/g,
  handoff: /\bhandoff\(|\bhandoffs\s*:/g,
  handoffCallback: /\bonHandoff\b|\binputType\s*:/g,
  sandbox: /\bnew\s+SandboxAgent\b|\bSandboxAgent\.create\(/g,
  mcpServer: /\bnew\s+MCPServer(?:Stdio|StreamableHttp|SSE|Sse)\b|\bconnectMcpServers\(/g,
  mcpTools: /\bgetAllMcpTools\(|\bmcpToFunctionTool\(/g,
  hostedMcp: /\bhostedMcpTool\(/g,
  builtinDoor: /\b(?:shellTool|computerTool|applyPatchTool|localShellTool)\(/g,
  realtime: /\bnew\s+RealtimeAgent\b/g,
};

/** What in the manifest or in check's findings answers each kind (a kind none answers is unseen). */
export const ANSWERED_BY = {
  tool: { entries: ['tool'], rules: /tool|error-function|object-literal|opaque/ },
  agentTool: { entries: ['tool', 'agent_tool'], rules: /agent-tool|tool/ },
  handoffCallback: { entries: ['handoff'], rules: /handoff/ },
  sandbox: { entries: ['sandbox', 'capability'], rules: /sandbox|capabilit/ },
  mcpServer: { entries: ['mcp'], rules: /mcp/ },
  mcpTools: { entries: ['mcp'], rules: /mcp/ },
  hostedMcp: { entries: ['hosted_mcp'], rules: /hosted-mcp/ },
  builtinDoor: { entries: ['tool', 'shell', 'computer', 'apply_patch'], rules: /door|hosted-tool/ },
};

const SOURCE = /\.(?:[cm]?[jt]sx?)$/;

/** Counts each kind over the tracked source files (`files`, relative to `root`), skipping declarations and bundles. */
export function census(root, files) {
  const counts = Object.fromEntries(Object.keys(DOOR_KINDS).map((k) => [k, 0]));
  for (const rel of files) {
    if (!SOURCE.test(rel) || rel.endsWith('.d.ts') || /(^|\/)(node_modules|dist|build|\.next)\//.test(rel)) continue;
    const full = path.join(root, rel);
    let text;
    try {
      if (statSync(full).size > 2_000_000) continue;
      text = readFileSync(full, 'utf8');
    } catch {
      continue;
    }
    if (!/@openai\/agents|SandboxAgent|RealtimeAgent/.test(text)) continue;
    for (const [kind, pattern] of Object.entries(DOOR_KINDS)) counts[kind] += text.match(pattern)?.length ?? 0;
  }
  return counts;
}

/** The kinds counted in the source that no manifest entry maps and no finding of check names. */
export function unseenKinds(counts, entryKinds, findingRules) {
  return Object.entries(ANSWERED_BY)
    .filter(([kind]) => counts[kind] > 0)
    .filter(([, by]) => !by.entries.some((e) => (entryKinds[e] ?? 0) > 0) && !findingRules.some((rule) => by.rules.test(rule)))
    .map(([kind]) => kind);
}
