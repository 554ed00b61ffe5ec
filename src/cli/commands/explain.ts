import { existsSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../../diagnostics.js';
import { readActionSchemas } from '../../generate/project-schemas.js';
import type { ActionSchemas } from '../../generate/tool-schemas.js';
import { findManifest, loadProject, MANIFEST_FILE } from '../../manifest/load.js';
import { evaluateJson } from '../../policy/evaluate.js';
import { loadPolicyOrThrow } from '../../policy/load.js';
import type { Policy } from '../../policy/types.js';
import { explainJson, explainText } from '../../policy-test/explain-report.js';
import { toolGate } from '../../policy-test/tool-gate.js';
import { canonicalJson } from '../../runtime/canonical.js';
import type { CliContext, CommandSpec } from '../context.js';
import { withProjectOptions } from '../project-options.js';
import { refusePlainFolder } from '../plain-folder.js';
import { shellWord } from '../../shell-word.js';

interface ExplainArgs {
  action: string;
  args?: string;
  policy?: string;
  manifest?: string;
  json?: boolean;
}

export const explainCommand: CommandSpec<ExplainArgs> = {
  command: 'explain <action>',
  describe: 'Explain which rule decides an action for given arguments, and why',
  builder: (y) =>
    withProjectOptions(y)
      .positional('action', { type: 'string', describe: 'The policy action (`stripe.refund`)' })
      .option('args', { type: 'string', default: '{}', describe: "The call's arguments as JSON" })
      .option('json', { type: 'boolean', default: false, describe: 'Print the explanation as JSON' }),
  examples: [
    ['ctrlrun-gen explain stripe.refund --args \'{"amount": 5000}\'', 'Which rule decides a refund of 5000, and why'],
    ['ctrlrun-gen explain stripe.refund --args \'{"amount": 5000}\' --json', 'The same, as JSON'],
    ['ctrlrun-gen explain files.delete --policy ctrlrun.yaml --args \'{"path": "/"}\'', 'Use a policy file directly'],
  ],
  run: async (args, ctx) => {
    const text = args.args ?? '{}';
    parseArgs(text);
    const { policy, source, schemas } = loadPolicyForExplain(args, ctx);
    // The arguments are read as the runtime reads the model's: losslessly (integers of any size; a float refuses the call).
    // the tool's own check first, as at run time: arguments its schema refuses reach no rule, and
    // values it fills in (a `.default()`) are decided as filled
    const gated = schemas ? (toolGate(schemas)?.(args.action, text) ?? null) : null;
    const refusal = gated !== null && !('filled' in gated) ? gated : null;
    const explanation = evaluateJson(policy, args.action, gated !== null && 'filled' in gated ? canonicalJson(gated.filled) : text);
    const view = { policy, source, cwd: ctx.cwd, color: ctx.color, refusal };
    ctx.stdout(args.json ? explainJson(explanation, view) : explainText(explanation, view));
    return 0;
  },
};

function parseArgs(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UserError(`--args is not valid JSON (${(error as Error).message}); pass the call's arguments as a JSON object, e.g. --args '{"amount": 5000}'`);
  }
}

/** The explain the hint runs in a project's folder: the action and the arguments, each quoted as a shell reads it. */
function explainInvocation(args: ExplainArgs): string {
  const given = args.args ?? '{}';
  if (given === '{}') return `explain ${shellWord(args.action)}`;
  return `explain ${shellWord(args.action)} --args ${shellWord(given)}`;
}

/** The policy named by --policy, else the project's (manifest found upward), else ./ctrlrun.yaml. */
function loadPolicyForExplain(args: ExplainArgs, ctx: CliContext): { policy: Policy; source: string; schemas?: ActionSchemas } {
  let file: string | undefined;
  if (args.policy !== undefined) file = path.resolve(ctx.cwd, args.policy);
  else if (args.manifest !== undefined || findManifest(ctx.cwd) !== undefined) {
    const project = loadProject({ cwd: ctx.cwd, manifest: args.manifest });
    // the tools' parameter schemas, read from the code as generate reads them
    return { policy: project.policy, source: project.sources.get(project.policy.file) ?? '', schemas: readActionSchemas(project.manifest) };
  } else if (existsSync(path.join(ctx.cwd, 'ctrlrun.yaml'))) file = path.join(ctx.cwd, 'ctrlrun.yaml');
  if (file === undefined) {
    // in a plain folder of projects: the manifests below it, rather than "no manifest found"
    refusePlainFolder(ctx.cwd, 'explain', explainInvocation(args));
    throw new UserError(`no ${MANIFEST_FILE} found in ${ctx.cwd} or any directory above it, and no ctrlrun.yaml here; pass --policy or --manifest`);
  }
  return loadPolicyOrThrow(file);
}
