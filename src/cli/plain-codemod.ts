import { codemodCommand } from './commands/codemod.js';
import { makeContext, type CliContext, type CliIo } from './context.js';
import type { PlainCodemod } from './plain-check.js';
import { reportError } from './report-error.js';
import { sayUntestedSdk } from './sdk-note.js';

/**
 * `codemod` without yargs (src/cli/plain-check.ts, `plainCodemodArgs`), as `runPlainCheck` runs
 * check: its own file in the CLI's bundle (dist/bin/plain-codemod.cjs, scripts/bundle-cli.mjs), so
 * a run loads neither yargs nor the list of commands. It says what the yargs handler says first (an
 * untested SDK's note). Never throws: the exit code, 2 on any error. The launcher turns V8's top
 * optimizing compiler off before loading it (one-shot-tiering.ts): less CPU for a process this short.
 */
export async function runPlainCodemod(plain: PlainCodemod, io: CliIo): Promise<number> {
  const ctx: CliContext = makeContext(io, plain);
  try {
    sayUntestedSdk(ctx);
    return await codemodCommand.run(plain.args, ctx);
  } catch (error) {
    return reportError(error, ctx, '');
  }
}
