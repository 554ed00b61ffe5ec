import { readFileSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../diagnostics.js';
import { CtrlrunError } from '../runtime/errors.js';
import { receiptSigner, type ReceiptSigner } from '../runtime/signing.js';
import type { CliContext } from './context.js';

/**
 * The operator tools' receipt key: `--signing-key FILE`, else `$CTRLRUN_RECEIPT_KEY` (the variable
 * the control reads), else none. With one, each receipt the tool writes (an answer, a refused
 * answer, a resolution) is followed by a checkpoint naming exactly it; verify with that key's
 * public half beside the application's (`receipts verify --public-key APP --public-key OPS`).
 * Read before anything is written: a bad key changes nothing.
 */
export const RECEIPT_KEY_ENV = 'CTRLRUN_RECEIPT_KEY';

export const signingKeyOption = {
  type: 'string',
  requiresArg: true,
  describe: `The Ed25519 secret key file (\`receipts keygen\`) that signs the receipts this command writes (default: $${RECEIPT_KEY_ENV}; none: they stay unsigned, \`foreign\` to verify --public-key)`,
} as const;

export function operatorSigner(flag: string | undefined, ctx: Pick<CliContext, 'cwd' | 'env'>): ReceiptSigner | undefined {
  if (flag !== undefined) return signerOf(readKeyFile(flag, ctx.cwd), '--signing-key');
  const fromEnv = ctx.env[RECEIPT_KEY_ENV];
  if (fromEnv === undefined || fromEnv.trim() === '') return undefined;
  return signerOf(fromEnv, `$${RECEIPT_KEY_ENV}`);
}

function readKeyFile(value: string, cwd: string): string {
  if (value.trim().startsWith('ctrlrun-ed25519-')) {
    throw new UserError(
      "--signing-key: give the key's file, not the key (a command line is visible to other users).\nhint: the file `receipts keygen --out FILE` wrote, or $CTRLRUN_RECEIPT_KEY",
    );
  }
  try {
    return readFileSync(path.resolve(cwd, value), 'utf8').slice(0, 4096);
  } catch (error) {
    throw new UserError(
      `--signing-key: cannot read ${value} (${(error as NodeJS.ErrnoException).code ?? 'error'}).\nhint: the secret key file \`receipts keygen --out FILE\` wrote`,
    );
  }
}

function signerOf(secret: string, source: string): ReceiptSigner {
  try {
    return receiptSigner(secret);
  } catch (error) {
    // the message names the expected form, never the text read
    if (error instanceof CtrlrunError)
      throw new UserError(`${source}: ${error.message.replace(/^ctrlrun: the receiptKey \(CTRLRUN_RECEIPT_KEY\)/, 'the key')}`);
    throw error;
  }
}
