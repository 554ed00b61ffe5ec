import { generatedFiles, renderGeneratedModule, type GeneratedModule } from '../../generate/index.js';
import { readGeneratedModule, writeGeneratedModule } from '../../generate/write.js';
import { loadProject } from '../../manifest/load.js';
import { controlIsMissing, controlMissingMessage, controlMissingMeta } from '../../check/rules/control-missing.js';
import type { CliContext, CommandSpec } from '../context.js';
import { workspaceManifests } from '../workspace.js';
import { withProjectOptions } from '../project-options.js';
import { refusePlainFolder } from '../plain-folder.js';
import { displayPath, formatDiagnostics } from '../../format-diagnostics.js';

interface GenerateArgs {
  check?: boolean;
  manifest?: string;
  policy?: string;
}

export const generateCommand: CommandSpec<GenerateArgs> = {
  command: 'generate',
  describe:
    'Write the generated module of protected tools (exit 1: written, some mapped tools left unprotected or the control module missing); --check exits 1 when it is stale',
  builder: (y) =>
    withProjectOptions(y).option('check', {
      type: 'boolean',
      default: false,
      describe: 'Write nothing; exit 1 if the file on disk differs from what would be written',
    }),
  examples: [
    ['ctrlrun-gen generate', 'Compile ctrlrun.yaml and ctrlrun.tools.yaml into the module named by the manifest'],
    ['ctrlrun-gen generate --check', 'In CI: exit 1 if the generated module is stale'],
    ['ctrlrun-gen generate --manifest config/ctrlrun.tools.yaml --policy config/prod.yaml', 'Use other files'],
  ],
  run: async (args, ctx) => {
    // At a workspace root with no manifest of its own: each package's manifest in turn (issue 21).
    const packages = args.manifest ? undefined : workspaceManifests(ctx.cwd);
    // in a plain folder of projects: the manifests below it, rather than "no manifest found"
    if (!args.manifest && packages === undefined) refusePlainFolder(ctx.cwd, 'generate');
    const manifests = args.manifest ? [args.manifest] : (packages ?? [undefined]);
    let code = 0;
    for (const manifest of manifests) code = Math.max(code, generateOne({ ...args, ...(manifest !== undefined ? { manifest } : {}) }, ctx));
    return code;
  },
};

function generateOne(args: GenerateArgs, ctx: CliContext): number {
  {
    const project = loadProject({ cwd: ctx.cwd, ...(args.manifest ? { manifest: args.manifest } : {}), ...(args.policy ? { policy: args.policy } : {}) });
    const generated = renderGeneratedModule(project);
    if (generated.diagnostics.length > 0) ctx.stderr(formatDiagnostics(generated.diagnostics, ctx, project.sources));
    const files = generatedFiles(generated);
    if (args.check) {
      let stale = 0;
      for (const file of files) {
        const shown = displayPath(file.path, ctx.cwd);
        const current = readGeneratedModule(file.path);
        if (current === file.text) {
          ctx.stdout(`${shown} is up to date\n`);
        } else {
          stale += 1;
          ctx.stdout(`${shown} is ${current === undefined ? 'missing' : 'stale'}: run \`ctrlrun-gen generate\` and commit the result\n`);
        }
      }
      return stale === 0 ? 0 : 1;
    }
    for (const file of files) {
      writeGeneratedModule(file.path, file.text, project.manifest.root);
      ctx.stdout(`wrote ${displayPath(file.path, ctx.cwd)}\n`);
    }
    // the module imports the control: written, but the app cannot start until the control is there (issue 40)
    const noControl = controlIsMissing(project.manifest);
    if (noControl) ctx.stderr(`${controlMissingMessage(project.manifest, (f) => displayPath(f, ctx.cwd))} ${controlMissingMeta.help}\n`);
    if (generated.leftOut.size === 0) return noControl ? 1 : 0;
    // written for every other tool; these stay open (the codemod leaves them, check reports them): exit 1
    ctx.stderr(leftOutSummary(generated.leftOut, ctx));
    return 1;
  }
}

/** The mapped tools the module does not protect, one line each with the first reason (its diagnostic is above). */
function leftOutSummary(leftOut: GeneratedModule['leftOut'], ctx: CliContext): string {
  const n = leftOut.size;
  const lines = [
    `${n} mapped tool${n === 1 ? ' is' : 's are'} left unprotected (the module protects the others); fix what is reported above and run generate again:`,
  ];
  for (const [tool, { action, error }] of leftOut)
    lines.push(`  ${tool} (${action}): ${displayPath(error.file, ctx.cwd)}:${error.line}:${error.column}: ${error.code}`);
  return `${lines.join('\n')}\n`;
}
