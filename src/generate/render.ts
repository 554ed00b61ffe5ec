/**
 * Renders the generated module (SPEC §4) from `templates/generated-module.ts.tmpl`: the template
 * holds the fixed text, this fills its `{{slots}}`. Pure and deterministic: actions and tools in
 * code-unit order, `\n` line endings, one trailing newline.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../package-root.js';
import { type ActionExposure, actionExposure } from '../policy/exposure.js';
import type { Policy, PolicyAction, PolicyGrant } from '../policy/types.js';
import {
  compileDecision,
  commentText,
  compileTemplate,
  HELPER_ORDER,
  HELPER_SOURCE,
  identifierPart,
  propertyKey,
  tsString,
  type CompiledFunction,
  type Helper,
} from './codegen.js';

export interface RenderInput {
  policy: Policy;
  /** Display paths (relative to the repo root, forward slashes) for the header and comments. */
  policyFile: string;
  manifestFile: string;
  controlFile: string;
  /** The import specifier of the control module from the output file (`./ctrlrun.control.js`). */
  controlSpecifier: string;
  /** SDK tool name (as written in code) -> action id. */
  tools: Record<string, string>;
  /** MCP server name -> tool name -> action id (the manifest's `mcp:` entries). */
  mcp?: Record<string, Record<string, string>>;
  /** Hosted MCP server label -> action id (the manifest's `hosted_mcp:` entries). */
  hostedMcp?: Record<string, string>;
  /** Action id -> the name patterns of its tools whose names are computed (the manifest's `tool: { at, names }` entries). */
  computedNames?: Record<string, string[]>;
  /** SandboxAgent capability tools (the manifest's `sandbox:` entries): tool -> action for every SandboxAgent, and per agent name. */
  sandbox?: { tools: Record<string, string>; agents: Record<string, Record<string, string>> };
  /** The target agent's name -> action id (the manifest's `handoff:` entries). */
  handoffs?: Record<string, string>;
  /**
   * The SDK package this package lists that exports the type names `protectedTool`'s type is
   * written with (`@openai/agents`, `@openai/agents-core`: scan/sdk-types-package.ts); undefined:
   * none, and `protectedTool` keeps ctrlrun-gen's own type.
   */
  sdkTypes: string | undefined;
  /** SHA-256 hex of the inputs (policy hash, manifest, tool parameter shapes). */
  inputsHash: string;
  version: string;
}

const LINE_WIDTH = 100;

function loadTemplate(): string {
  return readFileSync(path.join(packageRoot(), 'templates', 'generated-module.ts.tmpl'), 'utf8').replace(/\r\n?/g, '\n');
}

/** Fills `{{name}}` slots; a slot without a value or a value without a slot is a bug, not output. */
export function fillTemplate(template: string, slots: Record<string, string>): string {
  const used = new Set<string>();
  const text = template.replace(/\{\{(\w+)\}\}/g, (_match, name: string) => {
    const value = slots[name];
    if (value === undefined) throw new Error(`template slot {{${name}}} has no value`);
    used.add(name);
    return value;
  });
  const unused = Object.keys(slots).filter((name) => !used.has(name));
  if (unused.length > 0) throw new Error(`template has no slot for ${unused.join(', ')}`);
  return text;
}

/** Code-unit order (never locale order): the same on every machine. */
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Per action id (sorted), a unique identifier fragment for its function names. */
function functionBaseNames(actionIds: string[]): Map<string, string> {
  const names = new Map<string, string>();
  const used = new Set<string>();
  for (const id of [...actionIds].sort(byCodeUnit)) {
    const base = identifierPart(id);
    let name = base;
    for (let n = 2; used.has(name); n += 1) name = `${base}_${n}`;
    used.add(name);
    names.set(id, name);
  }
  return names;
}

export function renderModuleText(input: RenderInput, template: string = loadTemplate()): string {
  const { policy } = input;
  const actionIds = Object.keys(policy.actions).sort(byCodeUnit);
  const baseNames = functionBaseNames(actionIds);
  const functions: CompiledFunction[] = [];
  const entries: string[] = [];
  for (const id of actionIds) {
    const action = policy.actions[id];
    if (!action) continue;
    entries.push(actionEntry(id, action, baseNames.get(id) as string, input.policyFile, functions, actionExposure(policy, id)));
  }
  const grantEntries = policy.authority ? policy.authority.grants.map(grantEntry(input.policyFile, functions)) : [];

  const helpers = new Set<Helper>();
  for (const f of functions) for (const h of f.helpers) helpers.add(h);
  const usesTemplates = functions.some((f) => f.name.startsWith('effect_') || f.name.startsWith('resource_'));
  const tlsPinned = usesTlsPins(policy, input.mcp ?? {});
  const text = fillTemplate(template, {
    // a line of its own when there is one (the slot starts the runtime import's line)
    sdkTypesImport:
      input.sdkTypes === undefined ? '' : `import type { FunctionTool, ToolInputParameters, ToolOptions, UnknownContext } from ${tsString(input.sdkTypes)};\n`,
    protectedToolType: input.sdkTypes === undefined ? RUNTIME_PROTECTED_TOOL_TYPE : SDK_PROTECTED_TOOL_TYPE,
    upstreamImport: tlsPinned ? "import { createPinnedFetch } from 'ctrlrun-gen/runtime/upstream';" : '',
    mcpOptions: tlsPinned ? ', { createPinnedFetch }' : '',
    upstreamExport: tlsPinned ? UPSTREAM_EXPORT : '',
    policyFile: commentText(input.policyFile),
    manifestFile: commentText(input.manifestFile),
    controlFile: commentText(input.controlFile),
    inputsHash: input.inputsHash,
    version: input.version,
    runtimeTypes: [
      'type AgentDoors',
      'type CompiledPolicy',
      ...(functions.length > 0 ? ['type DecisionResult'] : []),
      'type HandoffDoors',
      'type LocalDoors',
      'type McpDoors',
      'type ProtectHostedMcp',
      'type ProtectedTool',
      'type SandboxDoors',
      ...(usesTemplates ? ['type TemplateResult'] : []),
    ]
      .map((name) => `  ${name},`)
      .join('\n'),
    controlSpecifier: tsString(input.controlSpecifier),
    actionIdType: actionIdType(actionIds),
    helpers: HELPER_ORDER.filter((h) => helpers.has(h))
      .map((h) => HELPER_SOURCE[h])
      .join('\n\n'),
    functions: functions.map((f) => f.source).join('\n\n'),
    policyLiteral: `{\n${policyFields(input, entries, grantEntries).join('\n')}\n}`,
  });
  // An empty section leaves blank lines behind: keep at most one blank line anywhere.
  return `${text.replace(/\n{3,}/g, '\n\n').replace(/\n+$/, '')}\n`;
}

/**
 * `protectedTool`'s type with the package's own SDK type names (`sdkTypes`): `tool()`'s signature
 * as the package's copy of the SDK types it, then ctrlrun-gen's for an `outputSchema` tool.
 */
const SDK_PROTECTED_TOOL_TYPE = [
  '/**',
  " * `protectedTool`'s type, written out so that a declaration build can name it: first `tool()` as",
  " * this package's own copy of the SDK types it (parameters, run context, result), so this package's",
  ' * `Agent<Context>` takes the tool also where ctrlrun-gen resolves another copy of the SDK; then',
  " * ctrlrun-gen's, for a tool with an `outputSchema` (SDK 0.14 on).",
  ' */',
  'export type ProtectedToolType = (<',
  '  TParameters extends ToolInputParameters = undefined,',
  '  Context = UnknownContext,',
  '  Result = string,',
  '>(',
  '  action: ActionId,',
  '  options: ToolOptions<TParameters, Context> & { needsApproval?: never },',
  ') => FunctionTool<Context, TParameters, Result>) &',
  '  ProtectedTool<ActionId>;',
].join('\n');

/** Without an SDK package to import type names from: ctrlrun-gen's type, typed with the SDK ctrlrun-gen resolves. */
const RUNTIME_PROTECTED_TOOL_TYPE = [
  '/**',
  " * `protectedTool`'s type: ctrlrun-gen's, typed with the SDK ctrlrun-gen resolves (this package's",
  ' * package.json lists neither `@openai/agents` nor `@openai/agents-core`, whose type names it would',
  ' * be written with).',
  ' */',
  'export type ProtectedToolType = ProtectedTool<ActionId>;',
].join('\n');

/** The `upstreamFetch` export, when an MCP server's action pins TLS certificates. */
const UPSTREAM_EXPORT = [
  '',
  '/**',
  ' * `upstreamFetch(serverName)`: a fetch pinned to the TLS certificates the policy pins for that MCP',
  " * server's actions (`upstream.tls_cert_sha256`, `tls_cert_file`). Build the server with it:",
  " * `new MCPServerStreamableHttp({ url, name, fetch: upstreamFetch(name) })`; a pinned action's calls",
  ' * run only through that server, after it has seen a pinned certificate (Node only).',
  ' */',
  "export const upstreamFetch: McpDoors['upstreamFetch'] = mcpDoors.upstreamFetch;",
].join('\n');

/** One action's entry in the policy literal; its decision and template functions are appended to `functions`. */
function actionEntry(id: string, action: PolicyAction, base: string, policyFile: string, functions: CompiledFunction[], exposure: ActionExposure): string {
  const decide = compileDecision(action, `decide_${base}`, policyFile);
  functions.push(decide);
  const fields = [`id: ${tsString(id)}`, `decide: ${decide.name}`];
  if (action.effect) {
    const effect = compileTemplate(action.effect, `effect_${base}`, 'effect', id);
    functions.push(effect);
    fields.push(`effect: ${effect.name}`);
  }
  if (action.resource) {
    const resource = compileTemplate(action.resource, `resource_${base}`, 'resource', id);
    functions.push(resource);
    fields.push(`resource: ${resource.name}`);
  }
  fields.push(`controls: [${action.controls.map(tsString).join(', ')}]`);
  fields.push(`approvalsRequired: ${action.approvalsRequired}`);
  fields.push(`maxAttempts: ${action.maxAttempts}`);
  const pin = action.upstream;
  const pinFields: string[] = [];
  if (pin?.toolSchemaSha256 !== undefined) pinFields.push(`toolSchemaSha256: ${tsString(pin.toolSchemaSha256)}`);
  if (pin?.tlsCertSha256?.length) pinFields.push(`tlsCertSha256: [${pin.tlsCertSha256.map(tsString).join(', ')}]`);
  if (pin?.tlsCertPems?.length) pinFields.push(`tlsCertPems: [${pin.tlsCertPems.map(tsString).join(', ')}]`);
  if (pinFields.length) fields.push(`upstream: { ${pinFields.join(', ')} }`);
  if (action.mcp.notExecutedOnError) fields.push('mcp: { notExecutedOnError: true }');
  // the decision log keeps a labelled argument only as its hash
  if (action.data?.length) fields.push(`sensitive: [${[...new Set(action.data.map(([arg]) => arg))].map(tsString).join(', ')}]`);
  // least exposure (policy/exposure.ts): no call ever passes, or grants that never authorize one; written only when so
  if (exposure.never) fields.push('exposure: { never: true }');
  else if (exposure.deadGrants.length > 0) fields.push(`exposure: { deadGrants: ${stringList(exposure.deadGrants)} }`);
  // no rule decides approve: needsApproval answers false without the call's arguments (issue 39)
  if (!action.rules.some((rule) => rule.decision === 'approve')) fields.push('neverPauses: true');
  return `    ${propertyKey(id)}: {\n${fields.map((f) => `      ${f},\n`).join('')}    },`;
}

/** Renders the grants in order, each with a unique constraints function (appended to `functions`) when it has constraints. */
function grantEntry(policyFile: string, functions: CompiledFunction[]): (grant: PolicyGrant) => string {
  const used = new Set<string>();
  return (grant) => {
    const fields = [
      `id: ${tsString(grant.id)}`,
      `agent: ${grant.subject.agent === undefined ? 'null' : tsString(grant.subject.agent)}`,
      `user: ${grant.subject.user === undefined ? 'null' : tsString(grant.subject.user)}`,
      `actions: ${stringList(grant.actions)}`,
      `resources: ${grant.resources === null ? 'null' : stringList(grant.resources)}`,
      `environments: ${grant.environments === null ? 'null' : stringList(grant.environments)}`,
      `expiresAt: ${grant.expiresAt === null ? 'null' : `${grant.expiresAt.ms} /* ${grant.expiresAt.iso} */`}`,
      `tasks: ${grant.tasks === null ? 'null' : stringList(grant.tasks)}`,
      `budgets: ${
        grant.budgets === null
          ? 'null'
          : `[${grant.budgets.map((b) => `{ metric: ${tsString(b.metric)}, limit: ${tsString(String(b.limit))}, windowMs: ${b.windowSeconds * 1000} }`).join(', ')}]`
      }`,
    ];
    if (grant.constraints.length > 0) {
      let name = `constraints_${identifierPart(grant.id)}`;
      for (let n = 2; used.has(name); n += 1) name = `constraints_${identifierPart(grant.id)}_${n}`;
      used.add(name);
      const holds = compileDecision(
        {
          id: `grant ${grant.id}`,
          bare: false,
          controls: [],
          approvalsRequired: 1,
          maxAttempts: null,
          mcp: { notExecutedOnError: false },
          rules: [{ index: 0, when: grant.constraints, decision: 'allow', controls: [], loc: grant.loc }],
          loc: grant.loc,
        },
        name,
        policyFile,
      );
      functions.push(holds);
      fields.push(`constraints: ${holds.name}`);
    }
    return `      {\n${fields.map((f) => `        ${f},\n`).join('')}      },`;
  };
}

/** The lines of the policy literal: hash, mode, environment, actions, authority, tools, MCP tools, hosted MCP labels. */
function policyFields(input: RenderInput, entries: string[], grantEntries: string[]): string[] {
  const { policy } = input;
  const toolNames = Object.keys(input.tools).sort(byCodeUnit);
  const fields = [`  hash: ${tsString(policy.hash)},`, `  mode: ${tsString(policy.mode)},`];
  if (policy.environment !== undefined) fields.push(`  environment: ${tsString(policy.environment)},`);
  fields.push(entries.length === 0 ? '  actions: {},' : `  actions: {\n${entries.join('\n')}\n  },`);
  if (policy.authority)
    fields.push(grantEntries.length === 0 ? '  authority: { grants: [] },' : `  authority: {\n    grants: [\n${grantEntries.join('\n')}\n    ],\n  },`);
  fields.push(
    toolNames.length === 0
      ? '  tools: {},'
      : `  tools: {\n${toolNames.map((name) => `    ${propertyKey(name)}: ${tsString(input.tools[name] as string)},`).join('\n')}\n  },`,
  );
  const mcp = input.mcp ?? {};
  const mcpServers = Object.keys(mcp).sort(byCodeUnit);
  if (mcpServers.length > 0) {
    const server = (name: string) => {
      const tools = mcp[name] ?? {};
      const lines = Object.keys(tools)
        .sort(byCodeUnit)
        .map((tool) => `      ${propertyKey(tool)}: ${tsString(tools[tool] as string)},`);
      return `    ${propertyKey(name)}: {\n${lines.join('\n')}\n    },`;
    };
    fields.push(`  mcp: {\n${mcpServers.map(server).join('\n')}\n  },`);
  }
  const hosted = input.hostedMcp ?? {};
  const labels = Object.keys(hosted).sort(byCodeUnit);
  if (labels.length > 0) {
    fields.push(`  hostedMcp: {\n${labels.map((label) => `    ${propertyKey(label)}: ${tsString(hosted[label] as string)},`).join('\n')}\n  },`);
  }
  const computed = input.computedNames ?? {};
  const computedActions = Object.keys(computed).sort(byCodeUnit);
  if (computedActions.length > 0) {
    const line = (action: string) => `    ${propertyKey(action)}: [${(computed[action] ?? []).map(tsString).join(', ')}],`;
    fields.push(`  computedNames: {\n${computedActions.map(line).join('\n')}\n  },`);
  }
  fields.push(...sandboxFields(input));
  const handoffs = input.handoffs ?? {};
  const targets = Object.keys(handoffs).sort(byCodeUnit);
  if (targets.length > 0) fields.push(`  handoffs: {\n${stringMap(handoffs, '    ')}\n  },`);
  return fields;
}

/** The lines of a string-to-string map literal, keys in code-unit order. */
function stringMap(map: Record<string, string>, indent: string): string {
  return Object.keys(map)
    .sort(byCodeUnit)
    .map((key) => `${indent}${propertyKey(key)}: ${tsString(map[key] as string)},`)
    .join('\n');
}

/** `sandbox: { tools, agents }`, only when the manifest maps a sandbox tool (modules without one keep their policy literal). */
function sandboxFields(input: RenderInput): string[] {
  const tools = input.sandbox?.tools ?? {};
  const agents = input.sandbox?.agents ?? {};
  const names = Object.keys(agents).sort(byCodeUnit);
  if (Object.keys(tools).length === 0 && names.length === 0) return [];
  const parts: string[] = [];
  if (Object.keys(tools).length > 0) parts.push(`    tools: {\n${stringMap(tools, '      ')}\n    },`);
  if (names.length > 0) {
    const agent = (name: string) => `      ${propertyKey(name)}: {\n${stringMap(agents[name] ?? {}, '        ')}\n      },`;
    parts.push(`    agents: {\n${names.map(agent).join('\n')}\n    },`);
  }
  return [`  sandbox: {\n${parts.join('\n')}\n  },`];
}

/** CTRLRun's TLS pins on actions of MCP servers: the Node-only pinned fetch, and `upstreamFetch`. */
function usesTlsPins(policy: Policy, mcp: Record<string, Record<string, string>>): boolean {
  return Object.values(mcp).some((tools) =>
    Object.values(tools).some((action) => {
      const pin = policy.actions[action]?.upstream;
      return (pin?.tlsCertSha256?.length ?? 0) > 0 || (pin?.tlsCertPems?.length ?? 0) > 0;
    }),
  );
}

function stringList(values: readonly string[]): string {
  return `[${values.map(tsString).join(', ')}]`;
}

function actionIdType(ids: string[]): string {
  if (ids.length === 0) return 'export type ActionId = never;';
  const oneLine = `export type ActionId = ${ids.map(tsString).join(' | ')};`;
  if (oneLine.length <= LINE_WIDTH) return oneLine;
  return `export type ActionId =\n${ids.map((id) => `  | ${tsString(id)}`).join('\n')};`;
}
