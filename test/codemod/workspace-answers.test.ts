import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeAnsweringWorkspace } from '../helpers/answering-workspace.js';
import { cli } from '../helpers/cli.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * Issue 40 item 4 across packages: an npm workspace whose `agents` package holds the tools (and the
 * manifest) and whose `server` package, depending on it, answers their interruptions with
 * `result.state.approve(item)`. Once `close_account` is protected those answers authorize nothing
 * (SPEC §5.4): the codemod, from the package and from the root, keeps it as a conflict naming
 * packages/server/src/app.ts (the answers of the packages that depend on this one count), where it
 * read only the manifest's package and said "0 conflicts", exit 0. A package that does not depend
 * on it is not read.
 */
function workspace(): string {
  const root = makeTempDir('codemod-ws-answers-');
  dirs.push(root);
  writeAnsweringWorkspace(root, { agents: '*' });
  return root;
}

describe('codemod in a workspace: another package answers the interruptions of this one', () => {
  it('keeps close_account as a conflict, from the package and from the root', async () => {
    const root = workspace();
    for (const cwd of [path.join(root, 'packages/agents'), root]) {
      const r = await cli(['codemod'], { cwd });
      expect(r.stdout).toContain('1 conflicts');
      expect(r.stdout).toContain('server/src/app.ts:');
      expect(r.code).toBe(1);
    }
  });

  it('a package that does not depend on this one answers its own tools: not read, the tool is rewritten', async () => {
    const root = makeTempDir('codemod-ws-answers-');
    dirs.push(root);
    // its own tools (a copy): importing agents' tools, even without the dependency, reaches them (sibling-answers.test.ts)
    writeAnsweringWorkspace(root, {});
    const r = await cli(['codemod'], { cwd: path.join(root, 'packages/agents') });
    expect(r.stdout).toContain('0 conflicts');
    expect(r.code).toBe(0);
  });
});
