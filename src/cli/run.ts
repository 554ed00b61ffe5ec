import { VERSION } from '../version.js';
import { makeContext as makeIoContext, type CliContext, type CliIo, type CommandSpec } from './context.js';
import { commandLoaders, loadCommands, soleCommand } from './commands/index.js';
import { exampleMarker, replaceExampleMarkers } from './help-examples.js';
import { plainCommandArgs } from './plain-check.js';
import { reportError, type UsageContext } from './report-error.js';
import { sayUntestedSdk } from './sdk-note.js';

export interface RunCliOptions extends CliIo {
  /** The terminal's width in columns; undefined when stdout is not a terminal (help is then 100 wide). */
  columns?: number;
}

/**
 * Runs the CLI in-process and resolves to the exit code. Never throws: user errors print one clear
 * message (no stack trace unless --debug) and give 2; anything unexpected also gives 2.
 */
export async function runCli(argv: string[], options: RunCliOptions): Promise<number> {
  const debug = argv.includes('--debug');
  let exitCode: number | undefined;
  let ctx: CliContext | undefined;
  const makeContext = (args: { cwd?: unknown; debug?: unknown }): CliContext => ({ ...makeIoContext(options, args), runCli });

  // `check` as CI runs it and a plain `codemod` skip yargs (start-up, issue 10 and issue 40);
  // anything else is yargs' to parse.
  const plain = plainCommandArgs(argv);
  // `--version` alone: the version, as yargs prints it, without loading yargs and every command
  // (half a second of start-up).
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    options.stdout(`${VERSION}\n`);
    return 0;
  }
  if (plain?.command === 'check') return (await import('./plain-main.js')).runPlainCheck(plain, options);
  if (plain?.command === 'codemod') return (await import('./plain-codemod.js')).runPlainCodemod(plain, options);

  const { default: yargs } = await import('yargs');
  const width = Math.min(100, options.columns ?? 100);
  const exampleBlocks = new Map<number, ReadonlyArray<readonly [string, string]>>();
  const parser = yargs(argv)
    .scriptName('ctrlrun-gen')
    .usage('$0 <command> [options]\n\nMake the tools of OpenAI Agents SDK agents safe to hand to a model.')
    .option('cwd', { type: 'string', describe: 'Run as if started in this directory', global: true })
    .option('debug', { type: 'boolean', describe: 'Show stack traces for errors', global: true, default: false })
    .version(VERSION)
    .alias('version', 'V')
    .help()
    .alias('help', 'h')
    .strict()
    .demandCommand(1, 'Name a command; see --help.')
    .recommendCommands()
    .exitProcess(false)
    .wrap(width)
    .epilogue('Docs: see docs/ in the package. Exit codes: 0 ok, 1 findings or stale, 2 usage or configuration error.');

  // Start-up (issue 10): once a command's handler is called, yargs renders that command's whole help
  // (usage.cacheHelpMessage), to show it should the handler fail. A failing handler of ours is
  // reported by reportError, never with help, so the rendering (~25 ms of string-width) is skipped;
  // --help and usage errors render help as before (help() computes it when nothing is cached).
  const usage = (parser as any).getInternalMethods?.().getUsageInstance?.();
  if (usage && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => {};

  const register = (y: any, spec: CommandSpec<any>): any => {
    const id = exampleBlocks.size;
    exampleBlocks.set(id, spec.examples);
    return y.command(
      spec.command,
      spec.describe,
      (inner: any) => {
        let built = spec.builder ? spec.builder(inner) : inner;
        for (const sub of spec.subcommands ?? []) built = register(built, sub);
        if (spec.subcommands?.length) built = built.demandCommand(1, `Name a subcommand of ${spec.command.split(' ')[0]}; see --help.`);
        // Not yargs' .example(): its table cuts long commands in two (see help-examples.ts).
        return spec.examples.length ? built.epilogue(exampleMarker(id)) : built;
      },
      async (args: any) => {
        ctx = makeContext(args);
        if (!spec.command.startsWith('check ')) sayUntestedSdk(ctx);
        exitCode = await spec.run(args, ctx);
      },
    );
  };
  // Only the command that runs is loaded (start-up time); all of them when help may list them.
  const sole = commandLoaders.find((c) => c.name === soleCommand(argv));
  for (const spec of sole ? [await sole.load()] : await loadCommands()) register(parser, spec);

  let output = '';
  let usageError: unknown;
  try {
    await parser.parseAsync(argv, {}, (err: unknown, _argv: unknown, out: string) => {
      output = replaceExampleMarkers(out, exampleBlocks, width);
      usageError = err ?? undefined;
    });
    if (usageError) return reportError(usageError, ctx ?? makeContext({ debug }), output, await usageContext(argv));
    if (output) options.stdout(output.endsWith('\n') ? output : `${output}\n`);
    return exitCode ?? 0;
  } catch (error) {
    return reportError(error, ctx ?? makeContext({ debug }), output, await usageContext(argv));
  }
}

const GLOBAL_FLAGS = ['cwd', 'debug', 'help', 'version'];

/** The command argv names (with its subcommand) and every flag it takes, for a usage error's hints. */
async function usageContext(argv: readonly string[]): Promise<UsageContext> {
  const words = argv.filter((a) => !a.startsWith('-'));
  const loader = commandLoaders.find((c) => c.name === words[0]);
  if (!loader) return { command: undefined, flags: GLOBAL_FLAGS };
  const spec = await loader.load();
  const sub = spec.subcommands?.find((s) => s.command.split(' ')[0] === words[1]);
  return { command: sub ? `${loader.name} ${words[1]}` : loader.name, flags: [...GLOBAL_FLAGS, ...flagsOf(spec), ...(sub ? flagsOf(sub) : [])] };
}

/** Notes an option name the builder declared; the recorder goes on (for chained calls). */
function recordFlag(flags: string[], name: unknown, recorder: unknown): unknown {
  if (typeof name === 'string') flags.push(name);
  return recorder;
}

/** The option names a command's builder declares, read by running it against a recorder. */
export function flagsOf(spec: CommandSpec<any>): string[] {
  const flags: string[] = [];
  const recorder: any = new Proxy(() => {}, {
    get: (_t, key) => (key === 'option' || key === 'options' ? (name: unknown) => recordFlag(flags, name, recorder) : () => recorder),
  });
  try {
    spec.builder?.(recorder);
  } catch {
    // a builder that needs more than the recorder gives: fewer hints, never a failure
  }
  return flags;
}
