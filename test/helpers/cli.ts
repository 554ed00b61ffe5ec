import { spawnSync } from 'node:child_process';
import { runCli } from '../../src/cli/run.js';
import { CLI_BIN } from './paths.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process (fast). */
export async function cli(args: string[], options: { cwd: string; env?: Record<string, string | undefined>; isTTY?: boolean }): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    cwd: options.cwd,
    env: options.env ?? { NO_COLOR: '1' },
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    isTTY: options.isTTY ?? false,
  });
  return { code, stdout, stderr };
}

/** Runs the built CLI as a child process, as a user's shell would. */
export function cliProcess(args: string[], options: { cwd: string; env?: Record<string, string>; input?: string }): CliResult {
  const r = spawnSync(process.execPath, [CLI_BIN, ...args], {
    cwd: options.cwd,
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    encoding: 'utf8',
    input: options.input,
    timeout: 120_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
