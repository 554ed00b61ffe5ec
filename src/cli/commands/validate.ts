import path from 'node:path';
import { readActionSchemas } from '../../generate/project-schemas.js';
import type { ActionSchemas } from '../../generate/tool-schemas.js';
import { findManifest, loadProject, MANIFEST_FILE } from '../../manifest/load.js';
import { loadPolicyOrThrow } from '../../policy/load.js';
import { policyHazards } from '../../policy/hazards.js';
import { policyFindingDiagnostics } from '../../policy-test/analysis.js';
import type { Policy, SourceLocation } from '../../policy/types.js';
import type { CliContext, CommandSpec } from '../context.js';
import { type Diagnostic, UserError } from '../../diagnostics.js';
import { formatUserError } from '../format-error.js';
import { policyPackages } from '../policy-packages.js';
import { displayPath, formatDiagnostics } from '../../format-diagnostics.js';
import { withProjectOptions } from '../project-options.js';
import { refusePlainFolder } from '../plain-folder.js';

interface ValidateArgs {
  policy?: string;
  manifest?: string;
}

export const validateCommand: CommandSpec<ValidateArgs> = {
  command: 'validate',
  describe: 'Load and check the policy and the manifest; print every error found',
  builder: withProjectOptions,
  examples: [
    ['ctrlrun-gen validate', `Check ${MANIFEST_FILE} (found upward) and the policy it names`],
    ['ctrlrun-gen validate --policy ctrlrun.yaml', 'Check a policy on its own when there is no manifest'],
    ['ctrlrun-gen validate --manifest config/ctrlrun.tools.yaml', 'Check another manifest'],
  ],
  run: async (args, ctx) => {
    const packages = policyPackages(ctx.cwd, args);
    if (packages === undefined) {
      // in a plain folder of projects: the manifests below it, rather than "no manifest found"
      // (a policy named alone is validated without a manifest)
      if (args.manifest === undefined && args.policy === undefined) refusePlainFolder(ctx.cwd, 'validate');
      return validateOne(args, ctx);
    }
    // At a workspace root: every package's project, each error printed, the worst exit code.
    let code = 0;
    for (const manifest of packages) {
      try {
        code = Math.max(code, validateOne({ manifest }, ctx));
      } catch (error) {
        if (!(error instanceof UserError)) throw error;
        ctx.stderr(formatUserError(error, ctx));
        code = 2;
      }
    }
    return code;
  },
};

function validateOne(args: ValidateArgs, ctx: CliContext): number {
  const manifestFile = args.manifest !== undefined ? path.resolve(ctx.cwd, args.manifest) : findManifest(ctx.cwd);
  if (manifestFile === undefined && args.policy !== undefined) {
    // No manifest anywhere: check the policy alone, and say so.
    const { policy, warnings } = loadPolicyOrThrow(path.resolve(ctx.cwd, args.policy));
    printWarnings(once([...warnings, ...policyHazards(policy)], policyFindingDiagnostics(policy)), ctx);
    ctx.stdout(`ok: ${policySummary(policy, ctx.cwd)}; no ${MANIFEST_FILE} found, so only the policy was checked\n`);
    return 0;
  }
  const project = loadProject({ cwd: ctx.cwd, manifest: manifestFile, policy: args.policy });
  // the tools' schemas, read from the code as generate reads them: the runtime checks a call
  // against its schema before the rules, so the policy warnings are judged within it
  const schemas = readActionSchemas(project.manifest);
  const hazards = policyHazards(project.policy, { pinned: (action, arg) => pinned(schemas, action, arg) });
  const where = (loc: SourceLocation) => `${displayPath(loc.file, ctx.cwd)}:${loc.line}:${loc.column}`;
  printWarnings(once([...(project.warnings ?? []), ...hazards], policyFindingDiagnostics(project.policy, { schemas, where })), ctx);
  const n = project.manifest.tools.length;
  ctx.stdout(
    `ok: ${policySummary(project.policy, ctx.cwd)}; ${displayPath(project.manifest.file, ctx.cwd)} maps ${n} tool${n === 1 ? '' : 's'}${schemaSummary(schemas)}\n`,
  );
  return 0;
}

/**
 * The loader's warnings and the analysis's findings, each dead rule once: the analysis reports every
 * rule no call reaches (with a witness), so the loader's `unreachable-rule` for the same rule goes.
 */
function once(warnings: Diagnostic[], findings: Diagnostic[]): Diagnostic[] {
  const dead = new Set(findings.map((f) => f.path));
  return [...warnings.filter((w) => !(w.code === 'unreachable-rule' && dead.has(w.path))), ...findings];
}

/** Whether the schema makes the argument present, typed and never null in every call the rules see. */
function pinned(schemas: ActionSchemas, action: string, arg: string): boolean {
  const p = schemas.byAction.get(action)?.params.get(arg);
  return p?.required === true && !p.nullable && p.type !== 'unknown';
}

/** `; not judged within a tool's schema: notes.add (…)`: the actions whose warnings were judged without one (empty when every schema was read). */
function schemaSummary(schemas: ActionSchemas): string {
  if (schemas.unread.size === 0) return '';
  return `; not judged within a tool's parameter schema (not read from the code; \`generate\` says why): ${[...schemas.unread.keys()].join(', ')}`;
}

function policySummary(policy: Policy, cwd: string): string {
  const n = Object.keys(policy.actions).length;
  const mode = policy.mode === 'observe' ? ', mode observe' : '';
  return `${displayPath(policy.file, cwd)} (ctrlrun.policy/v${policy.schemaVersion}, ${n} action${n === 1 ? '' : 's'}${mode}, hash ${policy.hash.slice(0, 'sha256:'.length + 12)})`;
}

function printWarnings(diagnostics: Parameters<typeof formatDiagnostics>[0], ctx: CliContext): void {
  const warnings = diagnostics.filter((d) => d.severity === 'warning');
  if (warnings.length > 0) ctx.stderr(`${formatDiagnostics(warnings, ctx)}\n`);
}
