import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { type SiblingReach, writeSiblingRoot } from '../helpers/sibling-answers.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';
import { eslintWith } from './helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function siblings(reach: SiblingReach): string {
  const root = makeTempDir('eslint-sibling-answers-');
  dirs.push(root);
  writeSiblingRoot(root, reach);
  return root;
}

/**
 * ESLint's fix writes what `codemod --write` writes (issue 40 item 4): where `server/src/app.ts`
 * answers the interruptions of `agents`' tools, reaching them by a relative path or by name in a
 * root that is no workspace, both keep close_account as it is (a conflict for the codemod); a
 * sibling that does not reach them is not read, and both rewrite it.
 */
describe('eslint --fix when a file outside the package answers the interruptions of its tools', () => {
  for (const reach of ['relative', 'by-name', 'none'] as const) {
    it(`writes what codemod --write writes (${reach})`, async () => {
      const byCodemod = path.join(siblings(reach), 'agents');
      expect((await cli(['generate'], { cwd: byCodemod })).code).toBe(0);
      await cli(['codemod', '--write', '--allow-dirty'], { cwd: byCodemod });
      const expected = readFileSync(path.join(byCodemod, 'src/tools.ts'), 'utf8');
      expect(expected.includes('export const closeAccount = tool({'), reach).toBe(reach !== 'none');
      const agents = path.join(siblings(reach), 'agents');
      const [result] = await eslintWith(agents, { fix: true }).lintFiles([path.join(agents, 'src/tools.ts')]);
      expect(result!.output).toBe(expected);
    }, 60_000);
  }
});
