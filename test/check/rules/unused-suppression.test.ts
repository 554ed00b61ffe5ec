import { lines, ruleTester } from '../rule-tester.js';

const SDK = "import { tool } from '@openai/agents';";

const MAPPED = "export const t = tool({ name: 'refund', errorFunction: null });";

ruleTester('unused-suppression', {
  valid: [
    { name: 'it suppresses a finding', code: lines(SDK, '// ctrlrun-ignore unprotected-tool -- reviewed', MAPPED) },
    {
      name: 'stacked suppressions both apply to the next code line',
      code: lines(
        SDK,
        '// ctrlrun-ignore unprotected-tool -- reviewed',
        '// ctrlrun-ignore unsafe-error-function -- never throws',
        "export const t = tool({ name: 'refund' });",
      ),
    },
  ],
  invalid: [
    {
      name: 'nothing of that rule on the next line',
      code: lines(SDK, '// ctrlrun-ignore sticky-approval -- stale', MAPPED),
      errors: [{ line: 2, column: 1, severity: 'warning' }],
    },
    { name: 'the finding is two lines below', code: lines(SDK, '// ctrlrun-ignore unprotected-tool -- too far', '', MAPPED), errors: [{ line: 2, column: 1 }] },
    {
      name: 'a trailing comment applies to the next line, not its own',
      code: lines(SDK, `${MAPPED} // ctrlrun-ignore unprotected-tool -- same line`, 'const x = 1;'),
      errors: [{ line: 2, column: 65 }],
    },
  ],
});
