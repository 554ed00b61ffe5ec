import yargs from 'yargs';
import { describe, expect, it } from 'vitest';
import { checkCommand } from '../../src/cli/commands/check.js';
import { plainCheckArgs } from '../../src/cli/plain-check.js';

/**
 * Issue 10 item 10: `check` as CI runs it skips yargs. Whatever plainCheckArgs takes must mean to it
 * exactly what it means to yargs with the real check command's options; whatever it is not sure of
 * it leaves to yargs.
 */
async function yargsCheckArgs(argv: string[]): Promise<Record<string, unknown> | 'error'> {
  let seen: Record<string, unknown> | undefined;
  const parser = yargs(argv)
    .option('cwd', { type: 'string', global: true })
    .option('debug', { type: 'boolean', global: true, default: false })
    .strict()
    .exitProcess(false)
    .fail((_msg, err) => {
      throw err ?? new Error(_msg);
    })
    .command(checkCommand.command, checkCommand.describe, checkCommand.builder!, (args) => {
      seen = args;
    });
  try {
    await parser.parseAsync();
  } catch {
    return 'error';
  }
  if (!seen) return 'error';
  const pick = {
    paths: Array.isArray(seen.paths) && seen.paths.length > 0 ? seen.paths : undefined,
    format: seen.format,
    failOn: seen.failOn,
    fix: seen.fix,
    allowDirty: seen.allowDirty,
    manifest: seen.manifest,
    policy: seen.policy,
    cwd: seen.cwd,
    debug: seen.debug,
    maxFindings: seen.maxFindings,
  };
  return pick;
}

const TAKEN = [
  ['check'],
  ['check', '--format', 'json'],
  ['check', '--format=sarif', '--fail-on', 'warning'],
  ['check', '--cwd', 'some/dir', '--format', 'github'],
  ['check', 'src', 'lib/agent.ts', '--debug'],
  ['check', '--manifest', 'ctrlrun.tools.yaml', '--policy=policy/ctrlrun.yaml', 'src'],
  ['check', '--debug', '--cwd=.', 'apps/web'],
  ['check', '.'],
  ['check', '--cwd', '..', '../other', 'x1'],
];

const LEFT_TO_YARGS = [
  ['check', '--help'],
  ['check', '--fix'],
  ['check', '--max-findings', '3'],
  ['check', '--format', 'xml'],
  ['check', '--format'],
  ['check', '--format', 'json', '--format', 'text'],
  ['check', '--bogus'],
  ['check', '--no-fix'],
  ['check', '--cwd', '--debug'],
  ['check', '--', 'src'],
  ['check', '-h'],
  ['check', '123'],
  ['check', '1.5'],
  ['check', '.5'],
  ['check', '0x1f'],
  ['check', '+7'],
  ['check', 'true'],
  ['check', '--debug', '--debug'],
  ['check', '--debug=false'],
  ['--cwd', 'x', 'check'],
  ['codemod'],
  [],
];

describe('plainCheckArgs: check without yargs (issue 10 item 10)', () => {
  it.each(TAKEN.map((argv) => ({ argv })))('takes $argv with the meaning yargs gives it', async ({ argv }) => {
    const plain = plainCheckArgs(argv);
    expect(plain).toBeDefined();
    const ours = { paths: undefined, manifest: undefined, policy: undefined, maxFindings: undefined, ...plain!.args, cwd: plain!.cwd, debug: plain!.debug };
    expect(ours).toEqual(await yargsCheckArgs(argv));
  });

  it.each(LEFT_TO_YARGS.map((argv) => ({ argv })))('leaves $argv to yargs', ({ argv }) => {
    expect(plainCheckArgs(argv)).toBeUndefined();
  });
});
