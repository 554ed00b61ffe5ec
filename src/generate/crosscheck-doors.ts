/**
 * `generate`'s checks of the doors the manifest maps by something other than a tool name: the
 * `sandbox:` entries against the SandboxAgents the code makes (and what each capability tool
 * sends), the `handoff:` entries against the handoffs to that agent (and their `inputType`), and
 * the one thing the SDK cannot do: pause a handoff for a person.
 */
import type { Diagnostic } from '../diagnostics.js';
import { handoffDeclaration, SANDBOX_DECLARATION } from '../manifest/function-tools.js';
import type { Manifest, ManifestTool } from '../manifest/types.js';
import type { Policy, PolicyAction, SourceLocation } from '../policy/types.js';
import type { ToolDeclaration } from './declarations.js';
import { sandboxToolParameters, SANDBOX_TOOL_NAMES } from './door-declarations.js';

type FunctionEntry = Extract<ManifestTool, { kind: 'function' }>;
/** crosscheck.ts's check of one declaration's parameters against an action (passed in: that module calls this one). */
export type CheckDeclaration = (action: PolicyAction, entry: FunctionEntry, declaration: ToolDeclaration) => Diagnostic[];

const at = (loc: SourceLocation) => ({ file: loc.file, line: loc.line, column: loc.column });

export function doorProblems(
  policy: Policy,
  manifest: Manifest,
  declarations: ReadonlyMap<string, ToolDeclaration[]>,
  checkDeclaration: CheckDeclaration,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const entry of manifest.tools) {
    const action = policy.actions[entry.action];
    if (!action) continue; // the loader reports an action missing from the policy
    if (entry.kind === 'handoff') out.push(...handoffProblems(action, entry, declarations.get(handoffDeclaration(entry.to)) ?? [], checkDeclaration));
    if (entry.kind === 'sandbox') out.push(...sandboxProblems(action, entry, declarations.get(SANDBOX_DECLARATION) ?? [], checkDeclaration));
  }
  return out;
}

/** The rules of an action that can decide `approve` (a catch-all `decision: approve` too). */
function approveRules(action: PolicyAction) {
  return action.rules.filter((r) => r.decision === 'approve');
}

function handoffProblems(
  action: PolicyAction,
  entry: Extract<ManifestTool, { kind: 'handoff' }>,
  found: ToolDeclaration[],
  check: CheckDeclaration,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const approving = approveRules(action);
  if (approving.length > 0) {
    const rule = approving[0]!;
    out.push({
      severity: 'error',
      code: 'handoff-cannot-pause',
      ...at(rule.loc),
      path: action.bare ? `actions.${action.id}.decision` : `actions.${action.id}.rules[${rule.index}].decision`,
      message: `\`${action.id}\` decides the handoff to agent \`${entry.to}\`, and it can decide \`approve\`: the OpenAI Agents SDK cannot pause a handoff for a person, so such a transfer could only be refused`,
      hint: "decide handoffs `allow` or `deny` (rules on the handoff's input may allow some and deny the rest); to ask a person first, give the agent a protected tool that needs approval before it hands off",
      related: { ...at(entry.loc), message: `the handoff to \`${entry.to}\` is mapped to \`${entry.action}\` here` },
    });
  }
  if (found.length === 0) {
    out.push({
      severity: 'error',
      code: 'handoff-not-found',
      ...at(entry.loc),
      message: `the handoff to agent \`${entry.to}\` is mapped to \`${entry.action}\`, but no handoff to an agent named '${entry.to}' was found in the repo`,
      hint: `hand off with \`handoffs: [agent]\`, \`handoff(agent, { ... })\` or \`protectHandoff('${entry.action}', agent, { ... })\`, where the agent is made in the same file with the literal \`name: '${entry.to}'\`; or fix the name, or remove the mapping`,
      related: { ...at(action.loc), message: `the action \`${entry.action}\` it maps to` },
    });
    return out;
  }
  const asTool: FunctionEntry = { kind: 'function', tool: `handoff to ${entry.to}`, action: entry.action, loc: entry.loc };
  for (const d of found) out.push(...check(action, asTool, d));
  return out;
}

function sandboxProblems(
  action: PolicyAction,
  entry: Extract<ManifestTool, { kind: 'sandbox' }>,
  sites: ToolDeclaration[],
  check: CheckDeclaration,
): Diagnostic[] {
  const mine = entry.agent === undefined ? sites : sites.filter((s) => s.sandbox?.agent === entry.agent);
  const whose = entry.agent === undefined ? 'a SandboxAgent' : `a SandboxAgent named '${entry.agent}'`;
  if (mine.length === 0) {
    return [
      {
        severity: 'error',
        code: 'sandbox-agent-not-found',
        ...at(entry.loc),
        message: `sandbox tool \`${entry.tool}\` is mapped to \`${entry.action}\`, but no \`new SandboxAgent({ ... })\`${entry.agent === undefined ? '' : ` with the literal \`name: '${entry.agent}'\``} was found in the repo`,
        hint:
          entry.agent === undefined
            ? 'remove the mapping, or make the SandboxAgent in the repo'
            : `fix the agent's name, or drop \`agent:\` to map the tool of every SandboxAgent`,
        related: { ...at(action.loc), message: `the action \`${entry.action}\` it maps to` },
      },
    ];
  }
  // a SandboxAgent whose tools check cannot list (a custom capability, configureTools) may give any name
  const listed = mine.every((s) => s.sandbox?.tools !== undefined);
  const given = new Set(mine.flatMap((s) => s.sandbox?.tools ?? []));
  if (listed && !given.has(entry.tool)) {
    return [
      {
        severity: 'error',
        code: 'sandbox-tool-not-found',
        ...at(entry.loc),
        message: `sandbox tool \`${entry.tool}\` is mapped to \`${entry.action}\`, but no capability of ${whose} in the repo gives the model a tool of that name (they give ${[...given].sort().join(', ') || 'none'})`,
        hint: SANDBOX_TOOL_NAMES.includes(entry.tool)
          ? `add the capability that gives \`${entry.tool}\` to the SandboxAgent, or remove the mapping`
          : `the SDK's capability tools are ${SANDBOX_TOOL_NAMES.join(', ')}; fix the name, or remove the mapping`,
        related: { ...at(mine[0]!.loc), message: `${whose} is made here` },
      },
    ];
  }
  const parameters = sandboxToolParameters(entry.tool, mine[0]!.loc);
  if (parameters === undefined) return []; // a custom capability's tool: its parameters are not read statically
  const declaration: ToolDeclaration = { ...mine[0]!, parameters: { readable: true, form: 'json-schema', parameters, loc: mine[0]!.loc } };
  return check(action, { kind: 'function', tool: entry.tool, action: entry.action, loc: entry.loc }, declaration);
}

/** The hint of a `tool:` entry no `tool()` declares, when its name is a sandbox capability tool's. */
export function sandboxToolHint(name: string): string | undefined {
  return SANDBOX_TOOL_NAMES.includes(name)
    ? `\`${name}\` is a tool a SandboxAgent's capability gives the model: map it with \`- sandbox: { tool: ${name} }\` (the \`tool:\` key names tools made with tool(), shellTool(), applyPatchTool(), …)`
    : undefined;
}
