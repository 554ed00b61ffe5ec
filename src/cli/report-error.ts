import { UserError } from '../diagnostics.js';
import type { CliContext } from './context.js';
import { formatUserError } from './format-error.js';

const FS_REFUSALS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
};
const FS_HINTS: Record<string, string> = {
  EACCES: 'run it as a user who may read and write the project, or fix the file and folder permissions',
  EPERM: 'run it as a user who may change the project, or fix the file and folder permissions',
  EROFS: 'run it in a writable checkout',
  ENOSPC: 'free some space and run it again',
  EDQUOT: 'free some space and run it again',
};

/** A file-system error the user's environment causes, with the path it is about. */
function fileSystemRefusal(error: unknown): boolean {
  const e = error as Partial<NodeJS.ErrnoException> | null;
  return typeof e === 'object' && e !== null && typeof e.code === 'string' && e.code in FS_REFUSALS && typeof e.path === 'string';
}

/** Prints what went wrong (no stack trace unless --debug) and gives the exit code, 2. `output`: what yargs rendered. */
export function reportError(error: unknown, ctx: CliContext, output: string): number {
  if (error instanceof UserError) {
    ctx.stderr(formatUserError(error, ctx));
  } else if (error instanceof Error && error.name === 'YError') {
    // A usage error from yargs: it already rendered help text into `output`.
    if (output) ctx.stderr(output.endsWith('\n') ? output : `${output}\n`);
    else ctx.stderr(`ctrlrun-gen: ${error.message}\n`);
  } else if (fileSystemRefusal(error)) {
    // the machine said no (permissions, a read-only or full disk): the user's to fix, not a bug
    const e = error as NodeJS.ErrnoException & { path: string };
    ctx.stderr(`ctrlrun-gen: ${e.path}: ${FS_REFUSALS[e.code!]} (${e.code}) during ${e.syscall ?? 'a file operation'}.\n  hint: ${FS_HINTS[e.code!]}\n`);
  } else {
    const message = error instanceof Error ? error.message : String(error);
    ctx.stderr(`ctrlrun-gen: internal error: ${message}\n`);
    if (!ctx.debug) ctx.stderr('Run again with --debug to see the stack trace, and please report it.\n');
  }
  if (ctx.debug && error instanceof Error && error.stack) ctx.stderr(`${error.stack}\n`);
  return 2;
}
