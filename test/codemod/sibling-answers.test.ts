import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { REACHING, type SiblingReach, writeSiblingRoot } from '../helpers/sibling-answers.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function siblings(reach: SiblingReach, options: { workspace?: boolean } = {}): string {
  const root = makeTempDir('codemod-sibling-answers-');
  dirs.push(root);
  writeSiblingRoot(root, reach, options);
  return root;
}

/**
 * Issue 40 item 4 beyond package.json: `server/src/app.ts` answers the interruptions of `agents`'
 * tools, reaching them by a relative path (no dependency declared), by name in a root that is no
 * workspace, through the package's barrel or through a module of its own. Once `close_account` is
 * protected those answers authorize nothing (SPEC §5.4): the codemod in `agents` keeps it as a
 * conflict naming the answering file, where it read only workspace dependents and said
 * "0 conflicts", exit 0. A sibling whose imports do not reach the tools is not read.
 */
describe('codemod: a file outside the package answers the interruptions of its tools', () => {
  for (const { reach, workspace, label } of REACHING) {
    it(`keeps close_account as a conflict naming server/src/app.ts (${label})`, async () => {
      const r = await cli(['codemod'], { cwd: path.join(siblings(reach, { workspace }), 'agents') });
      expect(r.stdout).toContain('1 conflicts');
      expect(r.stdout).toContain('server/src/app.ts:11');
      expect(r.code).toBe(1);
    });
  }

  it('a sibling whose imports do not reach the tools (its own tools, a module of agents that declares none) is not read', async () => {
    const r = await cli(['codemod'], { cwd: path.join(siblings('none'), 'agents') });
    expect(r.stdout).toContain('0 conflicts');
    expect(r.stdout).not.toContain('server/src/app.ts');
    expect(r.code).toBe(0);
  });
});
