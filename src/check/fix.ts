import { UserError } from '../diagnostics.js';
import type { CliContext } from '../cli/context.js';

export interface FixOptions {
  cwd: string;
  paths?: string[] | undefined;
  manifest?: string | undefined;
  policy?: string | undefined;
  allowDirty: boolean;
}

/** `check --fix`: applies the codemod (written to disk) before the lint runs. */
export async function applyFix(options: FixOptions, ctx: CliContext): Promise<void> {
  void options;
  void ctx;
  throw new UserError('check --fix: the codemod is not available in this version yet; protect the tools by hand with protectedTool().');
}
