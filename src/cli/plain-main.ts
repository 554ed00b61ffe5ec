import { checkCommand } from './commands/check.js';
import { makeContext, type CliContext, type CliIo } from './context.js';
import type { PlainCheck } from './plain-check.js';
import { reportError } from './report-error.js';

/**
 * `check` as CI runs it (src/cli/plain-check.ts), without yargs. It imports the check command
 * itself, not the list of commands, so the CLI's bundle can give it a file of its own (start-up,
 * issue 10: scripts/bundle-cli.mjs). Never throws: the exit code, 2 on any error.
 */
export async function runPlainCheck(plain: PlainCheck, io: CliIo): Promise<number> {
  const ctx: CliContext = makeContext(io, plain);
  try {
    return await checkCommand.run(plain.args, ctx);
  } catch (error) {
    return reportError(error, ctx, '');
  }
}
