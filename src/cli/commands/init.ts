import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../../diagnostics.js';
import { findTools, planActions, renderControl, renderManifest, renderPolicy } from '../../init/render.js';
import { scanRepo } from '../../scan/index.js';
import type { CommandSpec } from '../context.js';
import { displayPath } from '../format-diagnostics.js';
import { MANIFEST_DEFAULTS } from '../../manifest/load.js';
import { packageType, typingsPath, type OutputKind } from '../../generate/javascript.js';

interface InitArgs {
  force?: boolean;
}

/**
 * Where init puts the generated module and the control. A TypeScript project (a tsconfig.json, or
 * `typescript` among package.json's dependencies) gets the defaults (`src/*.ts`); a plain
 * JavaScript one gets `.js` files (ESM or CommonJS as its package.json `type` says), in `src/`
 * when it has one, else beside package.json.
 */
export function initLayout(root: string): { output: string; control: string; kind: OutputKind } {
  if (usesTypeScript(root)) return { output: MANIFEST_DEFAULTS.output, control: MANIFEST_DEFAULTS.control, kind: 'ts' };
  const dir = existsSync(path.join(root, 'src')) ? 'src/' : '';
  return { output: `${dir}ctrlrun.generated.js`, control: `${dir}ctrlrun.control.js`, kind: packageType(root) === 'module' ? 'esm' : 'cjs' };
}

function usesTypeScript(root: string): boolean {
  if (existsSync(path.join(root, 'tsconfig.json'))) return true;
  try {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
    return ['dependencies', 'devDependencies', 'peerDependencies'].some((field) => {
      const deps = pkg[field];
      return typeof deps === 'object' && deps !== null && Object.hasOwn(deps, 'typescript');
    });
  } catch {
    return false;
  }
}

/**
 * Marks the generated files for GitHub (diffs collapsed, left out of language statistics) in the
 * repo's `.gitattributes`: appends `<path> linguist-generated=true` for each path not named yet.
 * Returns whether the file changed.
 */
export function markGenerated(root: string, files: string[]): boolean {
  const file = path.join(root, '.gitattributes');
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const named = new Set(current.split(/\r?\n/).map((line) => line.trim().split(/\s+/)[0]));
  const missing = files.filter((f) => !named.has(f) && !named.has(`/${f}`));
  if (missing.length === 0) return false;
  const lead = current === '' || current.endsWith('\n') ? current : `${current}\n`;
  writeFileSync(file, `${lead}${current === '' ? '# Written by ctrlrun-gen init: generated files (collapsed in diffs).\n' : ''}${missing.map((f) => `${f} linguist-generated=true`).join('\n')}\n`);
  return true;
}

export const initCommand: CommandSpec<InitArgs> = {
  command: 'init',
  describe: 'Scan this repo and write ctrlrun.yaml, ctrlrun.tools.yaml and src/ctrlrun.control.ts (.js files in a JavaScript project)',
  builder: (y) => y.option('force', { type: 'boolean', default: false, describe: 'Overwrite files that already exist' }),
  examples: [
    ['ctrlrun-gen init', 'Write a policy that asks a human before any tool runs'],
    ['ctrlrun-gen init --force', 'Start over, overwriting the three files'],
  ],
  run: async (args, ctx) => {
    const root = ctx.cwd;
    const { output: OUTPUT, control: CONTROL, kind } = initLayout(root);
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
      [CONTROL]: renderControl(kind),
    };

    for (const [rel, text] of Object.entries(files)) {
      const target = path.join(root, rel);
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, text);
      ctx.stdout(`wrote ${displayPath(target, ctx.cwd)}\n`);
    }
    if (markGenerated(root, kind === 'ts' ? [OUTPUT] : [OUTPUT, typingsPath(OUTPUT)])) {
      ctx.stdout(`wrote ${displayPath(path.join(root, '.gitattributes'), ctx.cwd)} (marks the generated module as generated)\n`);
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
