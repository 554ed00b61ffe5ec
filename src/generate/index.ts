import { createRequire } from 'node:module';
import path from 'node:path';
import { sdkTypesPackage } from '../scan/sdk-types-package.js';
import { assertImportLoads, createModuleSettingsLookup, relativeSpecifier } from '../scan/specifier.js';
import type { Diagnostic } from '../diagnostics.js';
import { UserError } from '../diagnostics.js';
import type { Project } from '../manifest/load.js';
import type { Manifest } from '../manifest/types.js';
import type { Policy } from '../policy/types.js';
import { canonicalHash } from '../runtime/canonical.js';
import { VERSION } from '../version.js';
import { crossCheck } from './crosscheck.js';
import { manifestDeclarations, type ToolDeclaration } from './declarations.js';
import { computedTools } from '../manifest/computed.js';
import { outputKind, toJavaScript, typingsFor, typingsPath } from './javascript.js';
import { byCodeUnit, renderModuleText, type RenderInput } from './render.js';

export interface GeneratedModule {
  /** Absolute path the module is written to (the manifest's `output`). */
  path: string;
  text: string;
  /** A JavaScript output's declaration file (`.d.ts`/`.d.mts`/`.d.cts` beside it); none for TypeScript. */
  typings?: { path: string; text: string };
  /** Warnings (e.g. parameters that cannot be read statically), and the errors of the tools left out. Other errors throw UserError. */
  diagnostics: Diagnostic[];
  /**
   * Mapped tools the module does not protect (issue 40): the policy cannot be checked against their
   * declarations (or none was found). The module is written all the same, for the other tools; the
   * codemod leaves these as conflicts and `check` reports them open. Tool name -> action and first error.
   */
  leftOut: Map<string, { action: string; error: Diagnostic }>;
}

export interface RenderOptions {
  /** Declarations already found (by tool name); default: searched in the manifest's repo. */
  declarations?: ReadonlyMap<string, ToolDeclaration[]>;
  /** The repo's source files as `listSourceFilesSync({ root })` lists them, when the caller has them (a scan read ahead). */
  listing?: readonly string[];
  /**
   * A listed file's text as the caller read it (check: its bytes, so the repo's imports are not read
   * from disk again); throws when the file cannot be read. Default: read from disk.
   */
  readListed?: (file: string) => string;
}

/** Every file `generate` writes: the module, and a JavaScript module's declaration file. */
export function generatedFiles(generated: GeneratedModule): Array<{ path: string; text: string }> {
  return [{ path: generated.path, text: generated.text }, ...(generated.typings ? [generated.typings] : [])];
}

/** Pure with respect to its inputs: reads the repo's tool declarations and renders the module. */
export function renderGeneratedModule(project: Project, options: RenderOptions = {}): GeneratedModule {
  const { manifest, policy } = project;
  const declarations = options.declarations ?? manifestDeclarations(manifest);
  const { diagnostics, leftOut, fatal } = crossCheck(policy, manifest, declarations);
  const output = manifest.output;
  if (fatal > 0) {
    const errors = diagnostics.filter((d) => d.severity === 'error').length;
    throw new UserError(
      `cannot generate ${rel(manifest.root, output)}: ${errors} error${errors === 1 ? '' : 's'} between the policy, the manifest and the code`,
      diagnostics,
    );
  }
  diagnostics.push(...undiciProblems(project));
  const tools: Record<string, string> = {};
  for (const t of manifest.tools) if (t.kind === 'function') tools[t.tool] = t.action;
  const mcp: Record<string, Record<string, string>> = {};
  for (const t of manifest.tools) {
    if (t.kind !== 'mcp') continue;
    mcp[t.server] ??= {};
    mcp[t.server]![t.tool] = t.action;
  }
  const hostedMcp: Record<string, string> = {};
  for (const t of manifest.tools) if (t.kind === 'hosted_mcp') hostedMcp[t.serverLabel] = t.action;
  // the names the tools of a computed entry keep to, by action: the runtime refuses one outside them
  const computedNames: Record<string, string[]> = {};
  for (const t of computedTools(manifest)) computedNames[t.action] = [...new Set([...(computedNames[t.action] ?? []), t.names])].sort(byCodeUnit);
  const { sandbox, handoffs } = sandboxAndHandoffs(manifest);
  const policyPath = path.isAbsolute(policy.file) ? policy.file : manifest.policy;
  // The codemod's own rule, so the control import and the `protectedTool` imports follow the same settings.
  const settings = createModuleSettingsLookup(manifest.root, options.listing, options.readListed)(path.dirname(output));
  // a TypeScript module whose import of the control Node, running the app's TypeScript, could not load
  assertImportLoads(settings, output, `cannot generate ${rel(manifest.root, output)}`, manifest.root);
  const controlSpecifier = relativeSpecifier(output, manifest.control, settings);
  // the SDK package the module's folder lists (its package.json, or a workspace root's): protectedTool's type names come from it
  const sdkTypes = sdkTypesPackage(path.dirname(output));
  const text = renderModuleText({
    policy,
    policyFile: rel(manifest.root, policyPath),
    manifestFile: rel(manifest.root, manifest.file),
    controlFile: rel(manifest.root, manifest.control),
    controlSpecifier,
    tools,
    mcp,
    hostedMcp,
    computedNames,
    sandbox,
    handoffs,
    sdkTypes,
    inputsHash: inputsHash(policy, manifest, controlSpecifier, declarations, sdkTypes),
    version: VERSION,
  });
  const kind = outputKind(output);
  if (kind === 'ts') return { path: output, text, diagnostics, leftOut };
  return { path: output, text: toJavaScript(text, kind), typings: { path: typingsPath(output), text: typingsFor(text) }, diagnostics, leftOut };
}

/** The manifest's `sandbox:` entries (every SandboxAgent's, and per agent) and `handoff:` entries, as the compiled policy holds them. */
function sandboxAndHandoffs(manifest: Manifest): Pick<RenderInput, 'sandbox' | 'handoffs'> {
  const tools: Record<string, string> = {};
  const agents: Record<string, Record<string, string>> = {};
  const handoffs: Record<string, string> = {};
  for (const t of manifest.tools) {
    if (t.kind === 'handoff') handoffs[t.to] = t.action;
    if (t.kind !== 'sandbox') continue;
    if (t.agent === undefined) {
      tools[t.tool] = t.action;
      continue;
    }
    const own = agents[t.agent] ?? {};
    own[t.tool] = t.action;
    agents[t.agent] = own;
  }
  return { sandbox: { tools, agents }, handoffs };
}

/**
 * SHA-256 of what the module is made from: the policy's hash (the loader's `Policy.hash`), the
 * manifest's content (repo-relative paths) and the parameter shapes of each mapped tool's
 * declarations (no source positions: moving code around does not change it), and the SDK package
 * the type names come from when it is not `@openai/agents` (so the hashes from before it was chosen hold).
 */
export function inputsHash(
  policy: Policy,
  manifest: Manifest,
  controlSpecifier: string,
  declarations: ReadonlyMap<string, ToolDeclaration[]>,
  sdkTypes: string | undefined,
): string {
  const root = manifest.root;
  const tools = manifest.tools
    .map((t) => {
      switch (t.kind) {
        case 'function':
          return { kind: t.kind, tool: t.tool, action: t.action };
        case 'mcp':
          return { kind: t.kind, server: t.server, tool: t.tool, action: t.action };
        case 'computed':
          return { kind: t.kind, at: t.at, names: t.names, action: t.action };
        case 'sandbox':
          return { kind: t.kind, tool: t.tool, agent: t.agent ?? null, action: t.action };
        case 'handoff':
          return { kind: t.kind, to: t.to, action: t.action };
      }
      return { kind: t.kind, serverLabel: t.serverLabel, action: t.action };
    })
    .sort((a, b) => byCodeUnit(JSON.stringify(a), JSON.stringify(b)));
  const parameters: Record<string, string[]> = {};
  for (const name of [...declarations.keys()].sort(byCodeUnit)) {
    parameters[name] = (declarations.get(name) ?? [])
      .map((d) =>
        JSON.stringify(
          d.parameters.readable
            ? d.parameters.parameters.map((p) => ({ name: p.name, type: p.type, enumValues: p.enumValues ?? null, required: p.required, nullable: p.nullable }))
            : null,
        ),
      )
      .sort(byCodeUnit);
  }
  // the certificates `tls_cert_file` held are in the module; the policy hash has only their paths
  const certs = Object.values(policy.actions).flatMap((a) => a.upstream?.tlsCertPems ?? []);
  return canonicalHash({
    ...(certs.length ? { certs } : {}),
    ...(sdkTypes === '@openai/agents' ? {} : { sdkTypes: sdkTypes ?? null }),
    policy: policy.hash,
    manifest: { policy: rel(root, manifest.policy), output: rel(root, manifest.output), control: rel(root, manifest.control), controlSpecifier, tools },
    parameters,
  });
}

/**
 * A policy that pins an MCP server's TLS certificate makes the module import
 * `ctrlrun-gen/runtime/upstream`, which loads `undici` (an optional peer dependency): a warning on
 * the first pinned entry when the repo cannot resolve it (the app would fail at start).
 */
function undiciProblems(project: Project): Diagnostic[] {
  const { manifest, policy } = project;
  const entry = manifest.tools.find((t) => {
    if (t.kind !== 'mcp') return false;
    const pin = policy.actions[t.action]?.upstream;
    return (pin?.tlsCertSha256?.length ?? 0) > 0 || (pin?.tlsCertPems?.length ?? 0) > 0;
  });
  if (!entry) return [];
  try {
    createRequire(path.join(manifest.root, 'package.json')).resolve('undici');
    return [];
  } catch {
    return [
      {
        severity: 'warning',
        code: 'missing-undici',
        file: entry.loc.file,
        line: entry.loc.line,
        column: entry.loc.column,
        message: `\`${entry.action}\` pins its MCP server's TLS certificate, so the generated module imports ctrlrun-gen/runtime/upstream, which needs the package \`undici\`; it is not installed here, and the app would fail to start`,
        hint: 'npm install undici',
      },
    ];
  }
}

function rel(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/');
}
