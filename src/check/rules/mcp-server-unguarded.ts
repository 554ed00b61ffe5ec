import type { FileScan } from '../../scan/types.js';
import { yamlScalar } from '../../manifest/yaml-scalar.js';
import type { Finding, RuleMeta } from '../types.js';
import { findingOf } from './rule-finding.js';
import { capitalized, doorWriteText, unresolvedHint, unresolvedWriteText } from '../../scan/door-write-text.js';

export const mcpServerUnguardedMeta: RuleMeta = {
  id: 'mcp-server-unguarded',
  severity: 'error',
  short: "An MCP server reaches an agent's `mcpServers` with no `protectMcpServer` guard.",
  full: "The SDK builds the tools of `agent.mcpServers` on every turn and runs their calls with no policy, no approval and no receipt. Each server that reaches `mcpServers` (any property so named in a file of the SDK, whatever carries it to an agent: `new Agent`, `Agent.create`, `clone`, a factory, `super()`; an assignment, `push`, `unshift`, `splice`, an index written; a variable holding an agent's list) is reported unless it is `protectMcpServer(...)`, a variable made by it or passed to it in the same file, or the agent is passed to `protectAgent` in the same file (which guards its servers in place). The servers of `connectMcpServers([...])` reach it through `.active` or `.all` as the very objects it was given, and are checked there. A server check cannot follow (a spread of an unknown array, a function's result, an import), and an agent's list handed to code check does not follow, are reported too. An MCP `errorFunction` other than `null` (on a server, or in `mcpConfig`) is reported: it turns a failed call into text the model retries. A guarded server's guard dropped afterwards is reported where it is dropped: its `toolInputGuardrails` or `toolOutputGuardrails` replaced or emptied (an assignment, `Object.assign`, `Object.defineProperty`, `Reflect.set`, `splice`, `pop`, `shift`, `length` or an element written), or its `errorFunction` replaced; a guardrail added with `push` or `unshift` keeps the guard. A guarded server whose mapped calls are refused at run time (an action that can need a person, a TLS pin without `upstreamFetch`) is `mcp-calls-refused`'s, a warning.",
  help: 'Wrap each server where it reaches the agent: `protectMcpServer(server)` from the generated module, with its tools mapped in ctrlrun.tools.yaml (`- mcp: { server, tool }`); use `protectMcpTools` when a call must be able to pause for a person. Set MCP `errorFunction`s to `null`.',
};

/**
 * `mcp-server-unguarded`: an MCP server reaching an agent's `mcpServers` (construction, `clone`,
 * a later assignment or push) that no `protectMcpServer` guards (and the agent is not passed to
 * `protectAgent`, which guards its servers in place); an MCP `errorFunction` other than `null`.
 */
export function mcpServerUnguardedRule(scan: FileScan): Finding[] {
  const findings: Finding[] = [];
  for (const list of scan.mcpServerLists ?? []) {
    for (const el of list.elements) {
      if (el.status !== 'protected' && !list.agentProtected) findings.push(...unguardedFindings(scan, list, el));
    }
  }
  findings.push(...errorFunctionFindings(scan), ...droppedGuardFindings(scan));
  return findings;
}

/** A guard `protectMcpServer` put on a server, dropped after it (file/door-writes.ts). */
function droppedGuardFindings(scan: FileScan): Finding[] {
  return (scan.doorWrites ?? [])
    .filter((d) => d.door === 'protectMcpServer')
    .map((d) =>
      d.unresolved
        ? findingOf(
            mcpServerUnguardedMeta,
            scan.file,
            d.span,
            unresolvedWriteText(
              d,
              d.property === 'errorFunction'
                ? 'the guarded error function it replaces settles a failed call, so a failure is left unrecorded'
                : `the policy's guard is the first of its \`${d.property}\`, so its calls may run with no policy, no approval and no receipt`,
            ),
            unresolvedHint(mcpServerUnguardedMeta.id),
          )
        : findingOf(
            mcpServerUnguardedMeta,
            scan.file,
            d.span,
            d.property === 'errorFunction'
              ? `${capitalized(doorWriteText(d))} after protectMcpServer: the guarded error function it replaces settles a failed call's receipt and effect, so a failure is left unrecorded (and a text returned is retried blind by the model).`
              : `${capitalized(doorWriteText(d))} after protectMcpServer: the policy's guard is the first of the server's \`${d.property}\`, so ${d.property === 'toolInputGuardrails' ? 'every call of the server now runs with no policy, no approval and no receipt' : 'the calls it let through are never settled: no receipt, no effect recorded'}.`,
            d.property === 'errorFunction'
              ? 'Leave `errorFunction` to protectMcpServer; to handle failures, give the server its own before it is protected (protectMcpServer keeps it, after its own settlement).'
              : `Add guardrails without removing the policy's: \`${d.target ?? 'server'}.${d.property}.push(audit)\`, or give them to the server before protectMcpServer (it puts its guard first and keeps yours).`,
          ),
    );
}

type McpServerList = NonNullable<FileScan['mcpServerLists']>[number];
type McpServerElement = McpServerList['elements'][number];

/** A server that reaches `mcpServers` with no guard. */
function unguardedFindings(scan: FileScan, list: McpServerList, el: McpServerElement): Finding[] {
  if (list.form === 'handed-on') {
    return [
      findingOf(
        mcpServerUnguardedMeta,
        scan.file,
        el.span,
        "An agent's `mcpServers` list is handed on here, and check cannot follow what is added to it: the SDK builds the tools of every server in it each turn and runs their calls with no policy.",
        'Add servers where the list is written, each wrapped in `protectMcpServer(server)` from the generated module (with its tools mapped in ctrlrun.tools.yaml), or pass the agent to `protectAgent`, which guards its servers in place.',
      ),
    ];
  }
  const findings: Finding[] = [];
  const where =
    list.form === 'clone'
      ? "a clone's `mcpServers`"
      : list.form === 'assignment'
        ? '`mcpServers`, assigned later'
        : list.form === 'push'
          ? '`mcpServers`, pushed later'
          : '`mcpServers`';
  const what = el.text && el.text.length <= 40 ? `\`${el.text}\`` : 'An MCP server';
  findings.push(
    findingOf(
      mcpServerUnguardedMeta,
      scan.file,
      el.span,
      el.status === 'opaque'
        ? `${what} reaches ${where}, and check cannot follow it to \`protectMcpServer\`: the SDK builds the tools of an unguarded server every turn and runs their calls with no policy.`
        : `${el.text.length <= 40 && el.text ? `MCP server ${what}` : 'An MCP server'} reaches ${where} unguarded: the SDK builds its tools every turn and runs their calls with no policy, no approval and no receipt.`,
      `Wrap it where it reaches the agent: \`protectMcpServer(${el.text && el.text.length <= 40 && !el.text.startsWith('...') ? el.text : 'server'})\` from the generated module, with its tools mapped in ctrlrun.tools.yaml (\`- mcp: { server${el.serverName !== undefined ? `: ${yamlScalar(el.serverName)}` : ''}, tool }\`); use \`protectMcpTools\` when a call must be able to pause for a person.`,
    ),
  );
  return findings;
}

/** MCP `errorFunction`s other than `null` (on a server, or in `mcpConfig`). */
function errorFunctionFindings(scan: FileScan): Finding[] {
  const findings: Finding[] = [];
  for (const ef of scan.mcpErrorFunctions ?? []) {
    findings.push(
      findingOf(
        mcpServerUnguardedMeta,
        scan.file,
        ef.span,
        ef.where === 'server'
          ? "An MCP server's own `errorFunction` turns a failed call into text for the model, which then retries blind: whether the call acted is hidden (protectMcpTools refuses such a server)."
          : '`mcpConfig.errorFunction` turns every failed MCP call of an unguarded server into text for the model, which then retries blind; whether the call acted is hidden.',
        'Set it to `null` (or remove it from a server `protectMcpServer` guards): this library reports failures itself.',
      ),
    );
  }
  return findings;
}
