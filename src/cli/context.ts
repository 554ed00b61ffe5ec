import path from 'node:path';

/** What a command needs from the outside world; passed explicitly so commands run in-process in tests. */
export interface CliContext extends CliIo {
  /** Absolute working directory (after `--cwd`). */
  cwd: string;
  /** Colors allowed: a terminal and no NO_COLOR. */
  color: boolean;
  debug: boolean;
  /**
   * The CLI itself, for a command that drives other commands (`demo`): handed in by `runCli` so
   * that no command module imports the CLI's entry (which loads the commands: a cycle).
   */
  runCli?: (argv: string[], io: CliIo) => Promise<number>;
}

/** One CLI command. `run` returns the process exit code; user errors are thrown as `UserError`. */
export interface CommandSpec<A = Record<string, unknown>> {
  /** yargs command string, e.g. `explain <action>`. */
  command: string;
  describe: string;
  /** Declares options and positionals on the yargs instance. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  builder?: (y: any) => any;
  examples: Array<[string, string]>;
  run: (args: A, ctx: CliContext) => Promise<number>;
  /**
   * yargs subcommands (`approvals list`, `approvals approve <id>`), each a CommandSpec of its own
   * whose `run` gives the exit code. When present, one of them is required and the parent's `run`
   * is not called.
   */
  subcommands?: CommandSpec<any>[];
}

/** How the CLI meets the world: where it runs, its environment, its output. */
export interface CliIo {
  cwd: string;
  env: Record<string, string | undefined>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** stdout is a terminal (colors, progress). */
  isTTY: boolean;
}

/** The context a command runs in, for `--cwd` and `--debug` as given. */
export function makeContext(io: CliIo, args: { cwd?: unknown; debug?: unknown }): CliContext {
  return {
    cwd: path.resolve(io.cwd, typeof args.cwd === 'string' ? args.cwd : '.'),
    env: io.env,
    stdout: io.stdout,
    stderr: io.stderr,
    isTTY: io.isTTY,
    color: io.isTTY && !io.env.NO_COLOR && io.env.TERM !== 'dumb',
    debug: args.debug === true,
  };
}
