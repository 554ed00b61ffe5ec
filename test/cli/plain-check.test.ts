import yargs from 'yargs';
import { describe, expect, it } from 'vitest';
import { checkCommand } from '../../src/cli/commands/check.js';
import { codemodCommand } from '../../src/cli/commands/codemod.js';
import type { CommandSpec } from '../../src/cli/context.js';
import { plainCheckArgs, plainCodemodArgs, plainCommandArgs } from '../../src/cli/plain-check.js';

/**
 * Issue 10 item 10: `check` as CI runs it skips yargs. Whatever plainCheckArgs takes must mean to it
 * exactly what it means to yargs with the real check command's options; whatever it is not sure of
 * it leaves to yargs.
 */
async function yargsArgs(spec: CommandSpec<any>, argv: string[]): Promise<Record<string, unknown> | undefined> {
  let seen: Record<string, unknown> | undefined;
  const parser = yargs(argv)
    .option('cwd', { type: 'string', global: true })
    .option('debug', { type: 'boolean', global: true, default: false })
    .strict()
    .exitProcess(false)
    .fail((_msg, err) => {
      throw err ?? new Error(_msg);
    })
    .command(spec.command, spec.describe, spec.builder!, (args) => {
      seen = args;
    });
  try {
    await parser.parseAsync();
  } catch {
    return undefined;
  }
  return seen;
}

async function yargsCheckArgs(argv: string[]): Promise<Record<string, unknown> | 'error'> {
  const seen = await yargsArgs(checkCommand, argv);
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

/** What yargs gives the real codemod command for `argv`, in the fields the command reads. */
async function yargsCodemodArgs(argv: string[]): Promise<Record<string, unknown> | 'error'> {
  const seen = await yargsArgs(codemodCommand, argv);
  if (!seen) return 'error';
  return {
    paths: Array.isArray(seen.paths) && seen.paths.length > 0 ? seen.paths : undefined,
    write: seen.write,
    allowDirty: seen.allowDirty,
    json: seen.json,
    format: seen.format,
    manifest: seen.manifest,
    policy: seen.policy,
    cwd: seen.cwd,
    debug: seen.debug,
  };
}

const CODEMOD_TAKEN = [
  ['codemod'],
  ['codemod', '--format', 'json'],
  ['codemod', '--format=text', '--write'],
  ['codemod', '--write', '--allow-dirty', 'src', 'lib/agent.ts'],
  ['codemod', '--json', 'src'],
  ['codemod', '--cwd', 'some/dir', '--debug', '--write'],
  ['codemod', '--manifest', 'ctrlrun.tools.yaml', '--policy=policy/ctrlrun.yaml', 'src'],
  ['codemod', 'src', '--write', 'apps/web'],
  ['codemod', '--cwd=..', '.'],
];

const CODEMOD_LEFT_TO_YARGS = [
  ['codemod', '--help'],
  ['codemod', '--format', 'sarif'],
  ['codemod', '--format'],
  ['codemod', '--write', '--write'],
  ['codemod', '--write=false'],
  ['codemod', '--write', 'true'],
  ['codemod', '--no-write'],
  ['codemod', '--json', '--json'],
  ['codemod', '--allow-dirty=true'],
  ['codemod', '--fail-on', 'error'],
  ['codemod', '--bogus'],
  ['codemod', '--cwd', '--write'],
  ['codemod', '--', 'src'],
  ['codemod', '-h'],
  ['codemod', '42'],
  ['codemod', '--debug', '--debug'],
  ['--cwd', 'x', 'codemod'],
  ['generate'],
];

describe('plainCodemodArgs: codemod without yargs (issue 40, item 8)', () => {
  it.each(CODEMOD_TAKEN.map((argv) => ({ argv })))('takes $argv with the meaning yargs gives it', async ({ argv }) => {
    const plain = plainCodemodArgs(argv);
    expect(plain).toBeDefined();
    const ours = { paths: undefined, manifest: undefined, policy: undefined, ...plain!.args, cwd: plain!.cwd, debug: plain!.debug };
    expect(ours).toEqual(await yargsCodemodArgs(argv));
    expect(plainCommandArgs(argv)?.command).toBe('codemod');
  });

  it.each(CODEMOD_LEFT_TO_YARGS.map((argv) => ({ argv })))('leaves $argv to yargs', ({ argv }) => {
    expect(plainCodemodArgs(argv)).toBeUndefined();
  });

  it('names the command each plain parse is for', () => {
    expect(plainCommandArgs(['check', '--format', 'json'])?.command).toBe('check');
    expect(plainCommandArgs(['codemod', '--format', 'json'])?.command).toBe('codemod');
    expect(plainCommandArgs(['generate'])).toBeUndefined();
  });
});
