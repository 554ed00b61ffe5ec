import { lines, ruleTester } from '../rule-tester.js';

const SDK = "import { tool } from '@openai/agents';";

const MAPPED = "export const t = tool({ name: 'refund', errorFunction: null });";

ruleTester('invalid-suppression', {
  valid: [{ name: 'rule id and reason', code: lines(SDK, '// ctrlrun-ignore unprotected-tool -- reviewed by payments', MAPPED) }],
  invalid: [
    { name: 'no reason', code: lines(SDK, '// ctrlrun-ignore unprotected-tool', MAPPED), errors: [{ line: 2, column: 1, mentions: 'no reason' }] },
    { name: 'an empty reason', code: lines(SDK, '// ctrlrun-ignore unprotected-tool --   ', MAPPED), errors: [{ line: 2, column: 1 }] },
    { name: 'no rule id', code: lines(SDK, '// ctrlrun-ignore', MAPPED), errors: [{ line: 2, column: 1, mentions: 'names no rule' }] },
    {
      name: 'an unknown rule id, with the nearest one',
      code: lines(SDK, '// ctrlrun-ignore unprotected-tools -- typo', MAPPED),
      errors: [{ line: 2, column: 1, mentions: "Did you mean 'unprotected-tool'" }],
    },
    {
      name: 'a rule that cannot be suppressed',
      code: lines(SDK, '// ctrlrun-ignore parse-error -- nope', MAPPED),
      errors: [{ line: 2, column: 1, mentions: 'cannot be suppressed' }],
    },
    {
      name: 'indented, after code on the line before',
      code: lines(SDK, 'if (x) {', '  // ctrlrun-ignore unprotected-tool', `  ${MAPPED}`, '}'),
      errors: [{ line: 3, column: 3 }],
    },
  ],
});
