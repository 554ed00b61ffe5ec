import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { loadCommands } from '../../src/cli/commands/index.js';

const commands = await loadCommands();
import type { CommandSpec } from '../../src/cli/context.js';
import { cliProcess } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/paths.js';

/** Every command and subcommand, with the words that name it (`['approvals', 'approve']`). */
function allCommands(specs: CommandSpec<any>[], prefix: string[] = []): Array<{ words: string[]; spec: CommandSpec<any> }> {
  return specs.flatMap((spec) => {
    const words = [...prefix, spec.command.split(' ')[0]!];
    return [{ words, spec }, ...allCommands(spec.subcommands ?? [], words)];
  });
}

async function help(words: string[], columns: number | undefined): Promise<string> {
  let stdout = '';
  const code = await runCli([...words, '--help'], {
    cwd: REPO_ROOT,
    env: { NO_COLOR: '1' },
    stdout: (t) => (stdout += t),
    stderr: () => {},
    isTTY: columns !== undefined,
    columns,
  });
  expect(code).toBe(0);
  return stdout;
}

describe('--help examples are whole commands (issue 10 item 9)', () => {
  const all = allCommands(commands);

  it('covers commands with long examples (the test can fail)', () => {
    const longest = Math.max(...all.flatMap(({ spec }) => spec.examples.map(([cmd]) => cmd.length)));
    expect(longest).toBeGreaterThan(40);
  });

  for (const columns of [40, 80, 200, undefined]) {
    it(`every example sits on one line at width ${columns ?? 'none (not a terminal)'}`, async () => {
      for (const { words, spec } of all) {
        const out = await help(words, columns);
        const lines = out.split('\n');
        for (const [cmd, what] of spec.examples) {
          expect(
            lines.some((line) => line === `  ${cmd}` || line.startsWith(`  ${cmd}  `)),
            `${words.join(' ')}: ${cmd}\n${out}`,
          ).toBe(true);
          // The description is shown too (possibly wrapped), word for word.
          expect(out.replace(/\s+/g, ' ')).toContain(what.replace(/\s+/g, ' '));
        }
        expect(out.match(/^Examples:$/gm)?.length ?? 0, words.join(' ')).toBe(spec.examples.length ? 1 : 0);
        expect(out).not.toContain('ctrlrun-gen-examples:');
      }
    });
  }

  it('a usage error points to --help instead of printing the examples (issue 21)', async () => {
    let stderr = '';
    const code = await runCli(['approvals', 'approve'], {
      cwd: REPO_ROOT,
      env: { NO_COLOR: '1' },
      stdout: () => {},
      stderr: (t) => (stderr += t),
      isTTY: true,
      columns: 40,
    });
    expect(code).toBe(2);
    expect(stderr).not.toContain('Examples:');
    expect(stderr).toContain('Run `ctrlrun-gen approvals approve --help` for the options and examples.');
  });

  it('the built binary, piped (no TTY), prints whole examples', () => {
    const r = cliProcess(['codemod', '--help'], { cwd: REPO_ROOT });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('\n  ctrlrun-gen codemod src/agents --write --allow-dirty\n');
  });
});
