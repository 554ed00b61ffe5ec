import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/paths.js';

/** Issue 21 item 9: a usage error prints the error, a "did you mean" for a flag, and one line to --help; not the whole help. */
describe('usage errors', () => {
  it("a mistyped flag: the error, the nearest flag, one line to the command's --help", async () => {
    const r = await cli(['codemod', '--wirte'], { cwd: REPO_ROOT });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'ctrlrun-gen: Unknown argument: wirte\n  hint: did you mean --write?\nRun `ctrlrun-gen codemod --help` for the options and examples.\n',
    );
  });

  it('a flag of check (kebab-case) and a flag far from any', async () => {
    const near = await cli(['check', '--fail-onn', 'warning'], { cwd: REPO_ROOT });
    expect(near.stderr).toContain('hint: did you mean --fail-on?');
    const far = await cli(['check', '--zzzzzzzzzz'], { cwd: REPO_ROOT });
    expect(far.code).toBe(2);
    expect(far.stderr).not.toContain('did you mean');
    expect(far.stderr.split('\n').filter(Boolean)).toHaveLength(2);
  });

  it("a subcommand missing its argument names that subcommand's help; an unknown command suggests the nearest", async () => {
    const sub = await cli(['approvals', 'approve'], { cwd: REPO_ROOT });
    expect(sub.code).toBe(2);
    expect(sub.stderr).toContain('Run `ctrlrun-gen approvals approve --help`');
    expect(sub.stderr).not.toContain('Examples:');
    const cmd = await cli(['chek'], { cwd: REPO_ROOT });
    expect(cmd.code).toBe(2);
    expect(cmd.stderr).toContain('did you mean `ctrlrun-gen check`?');
    expect(cmd.stderr).toContain('Run `ctrlrun-gen --help` for the commands.');
    expect(cmd.stderr.split('\n').length).toBeLessThan(6);
  });
});
