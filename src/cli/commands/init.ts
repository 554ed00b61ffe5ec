import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../../diagnostics.js';
import { findTools, planActions, renderControl, renderManifest, renderPolicy } from '../../init/render.js';
import { scanRepo } from '../../scan/index.js';
import type { CommandSpec } from '../context.js';
import { displayPath } from '../format-diagnostics.js';
import { MANIFEST_DEFAULTS } from '../../manifest/load.js';

interface InitArgs {
  force?: boolean;
}

const { output: OUTPUT, control: CONTROL } = MANIFEST_DEFAULTS;

export const initCommand: CommandSpec<InitArgs> = {
  command: 'init',
  describe: 'Scan this repo and write ctrlrun.yaml, ctrlrun.tools.yaml and src/ctrlrun.control.ts',
  builder: (y) => y.option('force', { type: 'boolean', default: false, describe: 'Overwrite files that already exist' }),
  examples: [
    ['ctrlrun-gen init', 'Write a policy that asks a human before any tool runs'],
    ['ctrlrun-gen init --force', 'Start over, overwriting the three files'],
  ],
  run: async (args, ctx) => {
    const root = ctx.cwd;
    const targets = ['ctrlrun.yaml', 'ctrlrun.tools.yaml', CONTROL];
    const existing = targets.filter((f) => existsSync(path.join(root, f)));
    if (existing.length > 0 && !args.force) {
      throw new UserError(
        `${existing.join(', ')} already exist${existing.length === 1 ? 's' : ''}; nothing was written. ` +
          'Run `ctrlrun-gen init --force` to overwrite, or edit the files by hand.',
      );
    }

    const scan = await scanRepo({ root, generatedModule: path.join(root, OUTPUT) });
    const plan = planActions(findTools(scan));
    const files: Record<string, string> = {
      'ctrlrun.yaml': renderPolicy(plan),
      'ctrlrun.tools.yaml': renderManifest(plan, { output: OUTPUT, control: CONTROL }),
      [CONTROL]: renderControl(),
    };

    for (const [rel, text] of Object.entries(files)) {
      const target = path.join(root, rel);
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, text);
      ctx.stdout(`wrote ${displayPath(target, ctx.cwd)}\n`);
    }
    const declared = plan.tools.reduce((n, t) => n + t.places.length, 0);
    ctx.stdout(
      `\nFound ${plan.tools.length} tool name${plan.tools.length === 1 ? '' : 's'} in ${declared} tool() call${declared === 1 ? '' : 's'}` +
        ` (${scan.filesConsidered} files looked at); every one starts at decision: approve.\n`,
    );
    for (const tool of plan.tools.filter((t) => t.renamedFrom)) {
      ctx.stdout(`note: tool ${JSON.stringify(tool.name)} is action ${tool.action} (${tool.renamedFrom} was taken)\n`);
    }
    for (const place of plan.unnamed) {
      ctx.stdout(`note: the tool() at ${place.file}:${place.line} has no literal name; map it by hand in ctrlrun.tools.yaml\n`);
    }
    ctx.stdout(
      '\nNext:\n' +
        '  npx ctrlrun-gen generate        # write the generated module of protected tools\n' +
        '  npx ctrlrun-gen codemod --write # rewrite your tool() calls to protectedTool()\n' +
        '  npx ctrlrun-gen check           # the lint your CI runs on every pull request\n',
    );
    return 0;
  },
};
