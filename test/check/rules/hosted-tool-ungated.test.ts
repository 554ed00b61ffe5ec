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
    {
      name: 'programmatic tool calling: model-written code run at OpenAI (the census lists it with the hosted tools, issue 35)',
      code: lines("import { programmaticToolCallingTool } from '@openai/agents';", 'export const tools = [programmaticToolCallingTool()];'),
      errors: [{ line: 2, column: 23, mentions: 'runs at OpenAI' }],
    },
    {
      name: 'from @openai/agents-openai',
      code: lines("import { imageGenerationTool } from '@openai/agents-openai';", 'export const tools = [imageGenerationTool()];'),
      errors: [{ line: 2, column: 23 }],
    },
  ],
});
