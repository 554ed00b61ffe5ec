import { describe, expect, it } from 'vitest';
import { cli, cliProcess } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { commandLoaders, loadCommands } from '../../src/cli/commands/index.js';

const commands = await loadCommands();

const SPEC_COMMANDS = [
  'init',
  'validate',
  'generate',
  'codemod',
  'check',
  'explain',
  'approvals',
  // issue 38: the approval grants approvers give (`grants list|revoke`)
  'grants',
  'effects',
  'receipts',
  // issue 38: the halt switch and the MCP operator console (SPEC §8's list, extended)
  'halts',
  'operators',
  'serve',
  // issue 39 asks for it (SPEC §1 journey 10); SPEC §8's list is the coordinator's to extend
  'stats',
  'mcp-operator',
  'test',
  'replay',
  'diff',
  'demo',
];

describe('CLI skeleton', () => {
  it("registers every command of SPEC §8 (and issue 38's grants)", () => {
    expect(commands.map((c) => c.command.split(' ')[0])).toEqual(SPEC_COMMANDS);
    // The lazy table names each module by the command it loads.
    expect(commandLoaders.map((c) => c.name)).toEqual(SPEC_COMMANDS);
  });

  it('--help lists every command and exits 0', async () => {
    const r = await cli(['--help'], { cwd: REPO_ROOT });
    expect(r.code).toBe(0);
    for (const name of SPEC_COMMANDS) expect(r.stdout).toContain(`ctrlrun-gen ${name}`);
  });

  it('every command has --help with an example', async () => {
    for (const name of SPEC_COMMANDS) {
      const r = await cli([name, '--help'], { cwd: REPO_ROOT });
      expect(r.code, name).toBe(0);
      expect(r.stdout, name).toContain('Examples:');
    }
  });

  it('--version prints the package version', async () => {
    const r = await cli(['--version'], { cwd: REPO_ROOT });
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('an unknown command or option is a usage error: exit 2, no stack trace', async () => {
    for (const args of [['bogus'], [], ['validate', '--no-such-flag']]) {
      const r = await cli(args, { cwd: REPO_ROOT });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('the built binary runs as a process and exits 2 on a usage error', () => {
    const ok = cliProcess(['--version'], { cwd: REPO_ROOT });
    expect(ok.code).toBe(0);
    const bad = cliProcess(['bogus'], { cwd: REPO_ROOT });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Unknown argument: bogus');
  });
});
