import { lines, ruleTester } from '../rule-tester.js';

ruleTester('hosted-tool-ungated', {
  valid: [
    { name: 'no hosted tool', code: lines("import { tool } from '@openai/agents';", 'export const t = 1;') },
    {
      name: 'a local shell',
      code: lines("import { shellTool } from '@openai/agents';", 'export const sh = shellTool({ shell, environment: { type: "local" } });'),
    },
  ],
  invalid: [
    {
      name: 'a hosted (container) shell',
      code: lines("import { shellTool } from '@openai/agents';", "export const sh = shellTool({ environment: { type: 'container_auto' } });"),
      errors: [{ line: 2, column: 19, severity: 'warning', mentions: 'in a container at OpenAI' }],
    },
    {
      name: 'web search and code interpreter',
      code: lines("import { codeInterpreterTool, webSearchTool } from '@openai/agents';", 'export const tools = [webSearchTool(), codeInterpreterTool()];'),
      errors: [
        { line: 2, column: 23, severity: 'warning', mentions: 'runs at OpenAI' },
        { line: 2, column: 40, severity: 'warning' },
      ],
    },
  ],
});
