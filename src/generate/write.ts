/** Reading and writing the generated module on disk: the `generate` command and `check --fix` share these. */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { writeAtomically } from '../codemod/write.js';
import { UserError } from '../diagnostics.js';

/** The generated module as it is on disk; undefined when there is none yet. */
export function readGeneratedModule(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UserError(`cannot read ${file}: ${(error as Error).message}`);
  }
}

/** Writes the module atomically (temp file and rename), creating its directory if missing; a failure is a UserError. */
export function writeGeneratedModule(file: string, text: string): void {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeAtomically(file, text);
  } catch (error) {
    throw new UserError(`cannot write ${file}: ${(error as Error).message}`);
  }
}
