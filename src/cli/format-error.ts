import type { UserError } from '../diagnostics.js';
import type { CliContext } from './context.js';
import { formatDiagnostics } from '../format-diagnostics.js';

/** A user error as the CLI prints it: every located diagnostic, or the bare message. */
export function formatUserError(error: UserError, ctx: CliContext): string {
  if (error.diagnostics.length === 0) return `ctrlrun-gen: ${error.message}\n`;
  return `${formatDiagnostics(error.diagnostics, ctx)}\n${error.message}\n`;
}
