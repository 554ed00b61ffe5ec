import { lines, ruleTester } from '../rule-tester.js';

ruleTester('parse-error', {
  valid: [{ name: 'a file that parses', code: lines("import { tool } from '@openai/agents';", 'export const x = 1;') }],
  invalid: [
    {
      name: 'a syntax error is a finding, and nothing else is reported for the file',
      code: lines("import { tool } from '@openai/agents';", "export const t = tool({ name: 'refund', execute: async () => 'ok' ;", 'export const y = ;'),
      errors: [{ line: 2, column: 67, severity: 'error' }],
    },
  ],
});
