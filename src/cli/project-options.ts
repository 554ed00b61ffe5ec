import { MANIFEST_FILE } from '../manifest/load.js';

/**
 * The `--manifest` and `--policy` options every command that loads the project declares
 * (check, codemod, generate, validate, explain), with one wording.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function withProjectOptions(y: any): any {
  return y
    .option('manifest', { type: 'string', describe: `Path of ${MANIFEST_FILE} (default: found upward from the working directory)` })
    .option('policy', { type: 'string', describe: "Path of the policy (default: the manifest's `policy`)" });
}
