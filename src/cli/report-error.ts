import { UserError } from '../diagnostics.js';
import type { CliContext } from './context.js';
import { formatUserError } from './format-error.js';
import { nearest } from '../policy/suggest.js';
import { displayPath } from '../format-diagnostics.js';

const FS_REFUSALS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  // the tree's shape (issue 40): a path no command can read as the file it expects
  EISDIR: 'it is a folder, not a file',
  ENOTDIR: 'a part of the path is a file, not a folder',
  ELOOP: 'a loop of symbolic links',
  ENOTREG: 'not a regular file (a named pipe, socket or device)',
  ENXIO: 'not a regular file (a socket or device)',
  ENAMETOOLONG: 'the name is too long',
};
const FS_HINTS: Record<string, string> = {
  EACCES: 'run it as a user who may read and write the project, or fix the file and folder permissions',
  EPERM: 'run it as a user who may change the project, or fix the file and folder permissions',
  EROFS: 'run it in a writable checkout',
  ENOSPC: 'free some space and run it again',
  EDQUOT: 'free some space and run it again',
  EISDIR: 'make it a file, or point the command at another path',
  ENOTDIR: 'a file stands where the path needs a folder: rename it, or point the command at another path',
  ELOOP: 'fix or remove the symbolic link',
  ENOTREG: 'make it a regular file, or point the command at another path',
  ENXIO: 'make it a regular file, or point the command at another path',
  ENAMETOOLONG: 'shorten the path',
};

/** A file-system error the user's environment causes, with the path it is about. */
function fileSystemRefusal(error: unknown): boolean {
  const e = error as Partial<NodeJS.ErrnoException> | null;
  return typeof e === 'object' && e !== null && typeof e.code === 'string' && e.code in FS_REFUSALS && typeof e.path === 'string';
}

/**
 * A store's refusal (the runtime's StoreError). By its name and code, not `instanceof`: the demo's
 * sample loads the runtime from the package's own build, another copy of the class than the CLI's.
 */
function storeRefusal(error: unknown): boolean {
  const e = error as { name?: unknown; code?: unknown } | null;
  return error instanceof Error && e?.name === 'StoreError' && typeof e.code === 'string' && e.code.startsWith('store_');
}

/** Prints what went wrong (no stack trace unless --debug) and gives the exit code, 2. `output`: what yargs rendered. */
export function reportError(error: unknown, ctx: CliContext, output: string, usage?: UsageContext): number {
  if (error instanceof UserError) {
    ctx.stderr(formatUserError(error, ctx));
  } else if (error instanceof Error && error.name === 'YError') {
    // A usage error: the error, a "did you mean" for a mistyped flag, one line to --help (the whole
    // help yargs rendered into `output` buried the error under 40 lines).
    ctx.stderr(usageMessage(error.message, usage ?? { command: undefined, flags: [] }, output));
  } else if (storeRefusal(error)) {
    // a store the machine cannot open (no driver for this Node, a driver built for another, locked,
    // unreachable): the message names it and carries its hint
    ctx.stderr(`ctrlrun-gen: ${(error as Error).message}\n`);
  } else if (fileSystemRefusal(error)) {
    // the machine said no (permissions, a read-only or full disk): the user's to fix, not a bug
    const e = error as NodeJS.ErrnoException & { path: string };
    ctx.stderr(
      `ctrlrun-gen: ${displayPath(e.path, ctx.cwd)}: ${FS_REFUSALS[e.code!]} (${e.code}) during ${e.syscall ?? 'a file operation'}.\n  hint: ${FS_HINTS[e.code!]}\n`,
    );
  } else {
    const message = error instanceof Error ? error.message : String(error);
    ctx.stderr(`ctrlrun-gen: internal error: ${message}\n`);
    if (!ctx.debug) ctx.stderr('Run again with --debug to see the stack trace, and please report it.\n');
  }
  if (ctx.debug && error instanceof Error && error.stack) ctx.stderr(`${error.stack}\n`);
  return 2;
}

/** What a usage error is about: the command that was run (if any) and the flags it takes. */
export interface UsageContext {
  command: string | undefined;
  flags: readonly string[];
}

/**
 * `ctrlrun-gen: Unknown argument: wirte`, then `hint: did you mean --write?` when a flag is near a
 * known one (or yargs' own "Did you mean" for a command), then one line naming `--help`.
 */
export function usageMessage(message: string, usage: UsageContext, rendered = ''): string {
  const lines = [`ctrlrun-gen: ${message.trim()}`];
  const unknown = /^Unknown arguments?: (.+)$/.exec(message.trim());
  for (const word of unknown ? unknown[1]!.split(/,\s*/) : []) {
    const near = nearest(word.replace(/^-+/, ''), usage.flags);
    if (near !== undefined) lines.push(`  hint: did you mean --${near}?`);
  }
  const command = /^Did you mean (.+)\?$/m.exec(rendered);
  if (command) lines.push(`  hint: did you mean \`ctrlrun-gen ${command[1]}\`?`);
  lines.push(`Run \`ctrlrun-gen ${usage.command ? `${usage.command} ` : ''}--help\` for the ${usage.command ? 'options and examples' : 'commands'}.`);
  return `${lines.join('\n')}\n`;
}
