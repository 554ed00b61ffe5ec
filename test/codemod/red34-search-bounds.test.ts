import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir } from '../helpers/temp-repo.js';
import { codemodInSharedTree, EMPTY_MANIFEST, lines } from './shared-tree.js';

/**
 * Session 34 (test/check/red34-search-bounds.test.ts): past the searches' old bounds, an agent's
 * `tools` followed through more than 12 steps, a shell returned out of five nested `.map`s, and a
 * door exported again through six `const` steps are each a conflict of the codemod at check's place.
 */

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/** `steps`: the agent's chain of variables; `door`: what the maps and the aliases hold (a door, or a plain value). */
async function codemodOf(steps: number, door: boolean) {
  let mapped = `({ type: SHELL, shell: ${door ? 'f.run' : "'/bin/sh'"} })`;
  for (let i = 0; i < 5; i++) mapped = `flows.flatMap((f) => ${mapped})`;
  const files: Record<string, string> = {
    'ctrlrun.tools.yaml': EMPTY_MANIFEST,
    'src/kinds.ts': "export const SHELL = ['sh', 'ell'].join('');\nexport const FN = process.env.FN_TYPE!;\n",
    'src/make.ts': lines("import { SHELL } from './kinds.js';", 'declare const flows: { run: any }[];', `export const mapped = () => ${mapped};`),
    'src/agent.ts': lines(
      "import { Agent } from '@openai/agents';",
      "import { FN } from './kinds.js';",
      "import { mapped } from './make.js';",
      'declare const runner: any;',
      `const v0 = [{ type: ${door ? 'FN' : "'method'"}, name: 'lookup', invoke: runner }];`,
      ...Array.from({ length: steps }, (_, i) => `const v${i + 1} = v${i};`),
      `export const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: [...v${steps}, ...mapped()] });`,
    ),
    'src/doors.ts': lines(
      "import type { Shell } from '@openai/agents';",
      "import { protectShellTool } from './ctrlrun.generated.js';",
      'declare const shell: Shell;',
      "export const shellTool = protectShellTool('host.shell', { shell });",
      'export const settings = { retries: 3 };',
    ),
    'src/alias.ts': lines(
      `import { ${door ? 'shellTool' : 'settings'} as a0 } from './doors.js';`,
      ...Array.from({ length: 6 }, (_, i) => `const a${i + 1} = a${i};`),
      'export const gh = a6;',
    ),
    'src/ops.ts': lines("import { gh } from './alias.js';", 'declare const other: never;', 'gh.shell = other;'),
  };
  return codemodInSharedTree('codemod-red34-', files, dirs);
}

describe('codemod: the searches past their old bounds', () => {
  it('each is a conflict at check`s place', async () => {
    const { dir, result } = await codemodOf(14, true);
    const left = result.findings.filter((f) => f.kind === 'door-left');
    expect(left.map((f) => `${path.relative(dir, f.file)}:${f.line} ${f.reason}`).sort()).toEqual([
      'src/agent.ts:8 conflict',
      'src/make.ts:3 conflict',
      'src/ops.ts:3 conflict',
    ]);
    expect(left.find((f) => f.file.endsWith('agent.ts'))?.message).toContain('more steps than check follows');
    expect(result.summary.conflicts).toBe(3);
  });

  it('control: the same chains within the bound, holding no door, are none', async () => {
    const { result } = await codemodOf(8, false);
    expect(result.findings.filter((f) => f.kind === 'door-left')).toEqual([]);
    expect(result.summary.conflicts).toBe(0);
  });
});
