import { UserError } from '../diagnostics.js';
import { notCtrlrunFile, readTextFile } from '../policy/load.js';
import { MAX_TEST_BYTES, parseTestFile, TEST_SCHEMA, type TestSuite } from './cases.js';

/** Reads and parses a test file; throws `UserError` with every located problem. */
export function loadTestSuite(file: string): { suite: TestSuite; source: string } {
  const read = readTextFile(file, 'policy test', MAX_TEST_BYTES);
  if ('diagnostic' in read) {
    const d = read.diagnostic;
    if (d.code === 'file-not-found')
      d.hint = 'write one beside the policy (`ctrlrun-gen init` writes a starter), or name it: `ctrlrun-gen test path/to/ctrlrun.test.yaml`';
    throw new UserError(d.message, [d]);
  }
  const foreign = notCtrlrunFile(read.text, file, 'policy test', `schema: ${TEST_SCHEMA}`);
  if (foreign) throw new UserError(foreign.message, [foreign]);
  const loaded = parseTestFile(read.text, file);
  const errors = loaded.diagnostics.filter((d) => d.severity === 'error');
  if (!loaded.value || errors.length > 0) throw new UserError(`the policy test file has ${errors.length} error${errors.length === 1 ? '' : 's'}`, errors);
  return { suite: loaded.value, source: read.text };
}
