import { afterAll, describe, expect, it } from 'vitest';
import { shellWord } from '../../src/shell-word.js';
import { cli } from '../helpers/cli.js';
import { REFUND_AGENT, REFUND_MANIFEST } from '../helpers/plain-folder.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';

/**
 * Red team, session 23: the plain-folder refusal's hint is a command line to paste
 * (`npx ctrlrun-gen generate --cwd a`). For a project folder whose name holds a space (`my app/`)
 * it printed `--cwd my app` unquoted: pasted, the shell passes `--cwd my` and a stray `app`.
 * The folder is quoted for a POSIX shell when its name needs it, and left bare when it does not.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function plainFolderWithProject(folder: string): string {
  const dir = makeTempDir('plain-quoting-');
  dirs.push(dir);
  writeFiles(dir, {
    [`${folder}/package.json`]: JSON.stringify({ name: 'a', private: true, type: 'module' }),
    [`${folder}/src/agent.ts`]: REFUND_AGENT,
    [`${folder}/ctrlrun.tools.yaml`]: REFUND_MANIFEST,
    [`${folder}/ctrlrun.yaml`]: 'version: 1\nrules: []\n',
  });
  return dir;
}

describe('the refusal hint names a folder with a space so a shell reads it as one argument', () => {
  for (const argv of [['check'], ['generate'], ['codemod'], ['validate']])
    it(`${argv.join(' ')}`, async () => {
      const r = await cli(argv, { cwd: plainFolderWithProject('my app') });
      expect(r.code, r.stdout + r.stderr).toBe(2);
      expect(r.stderr).toContain('the manifests below it: my app/ctrlrun.tools.yaml');
      expect(r.stderr).not.toContain('--cwd my app`');
      expect(r.stderr).toContain(`--cwd 'my app'\``);
    });
});

describe('the refusal hint quotes a folder holding a quote, and leaves a plain name bare', () => {
  it("a folder named bob's app: single-quoted, the quote written as '\\''", async () => {
    const r = await cli(['check'], { cwd: plainFolderWithProject("bob's app") });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain(`--cwd 'bob'\\''s app'\``);
  });

  it('a folder named app-1.x: bare', async () => {
    const r = await cli(['check'], { cwd: plainFolderWithProject('app-1.x') });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain('--cwd app-1.x`');
  });

  it("explain's arguments holding a quote: quoted as one word, not elided", async () => {
    const r = await cli(['explain', 'refund', '--args', `{"note":"it's"}`], { cwd: plainFolderWithProject('app') });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain(`npx ctrlrun-gen explain refund --args '{"note":"it'\\''s"}' --cwd app\``);
    expect(r.stderr).not.toContain('…');
  });

  it('shellWord: shell-special characters quoted, plain words bare', () => {
    expect(shellWord('apps/a')).toBe('apps/a');
    expect(shellWord('@scope/pkg')).toBe('@scope/pkg');
    expect(shellWord('a$b')).toBe("'a$b'");
    expect(shellWord('a;b')).toBe("'a;b'");
    expect(shellWord("it's")).toBe("'it'\\''s'");
  });
});
