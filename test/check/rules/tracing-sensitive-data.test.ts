import { describe, expect, it } from 'vitest';
import { lintFiles } from '../../../src/check/engine.js';
import { scanSource } from '../../../src/scan/index.js';
import { lines, ruleTester } from '../rule-tester.js';

ruleTester('tracing-sensitive-data', {
  valid: [
    { name: 'setTracingDisabled(true)', code: lines("import { Agent, setTracingDisabled } from '@openai/agents';", 'setTracingDisabled(true);') },
    {
      name: 'traceIncludeSensitiveData: false',
      code: lines("import { Runner } from '@openai/agents';", 'export const r = new Runner({ traceIncludeSensitiveData: false });'),
    },
    { name: 'tracingDisabled: true', code: lines("import { Runner } from '@openai/agents';", 'export const r = new Runner({ tracingDisabled: true });') },
    {
      name: 'only @openai/agents-core (no default exporter)',
      code: lines("import { tool } from '@openai/agents-core';", "export const t = tool({ name: 'refund', errorFunction: null });"),
    },
    {
      name: 'a Runner config passed by a const name',
      code: lines("import { Runner } from '@openai/agents';", 'const config = { tracingDisabled: true };', 'export const r = new Runner(config);'),
    },
    {
      name: 'suppressed at the import',
      code: lines('// ctrlrun-ignore tracing-sensitive-data -- traces stay on our own exporter', "import { Agent } from '@openai/agents';"),
    },
  ],
  invalid: [
    {
      name: 'imported, tracing on',
      code: lines('// agent', "import { Agent } from '@openai/agents';"),
      errors: [{ line: 2, column: 23, severity: 'warning' }],
    },
    {
      name: '{ tracingDisabled: true } outside a Runner config does not count (issue 14.9)',
      code: lines(
        "import { Agent } from '@openai/agents';",
        'export const flags = { tracingDisabled: true, traceIncludeSensitiveData: false };',
        'export const other = new Map([["x", { tracingDisabled: true }]]);',
      ),
      errors: [{ line: 1, column: 23, severity: 'warning' }],
    },
    {
      name: "a Runner that is not the SDK's does not count",
      code: lines(
        "import { Agent } from '@openai/agents';",
        "import { Runner } from './my-runner.js';",
        'export const r = new Runner({ tracingDisabled: true });',
      ),
      errors: [{ line: 1, column: 23, severity: 'warning' }],
    },
    { name: 'required', file: 'src/a.cjs', code: lines("const { Agent } = require('@openai/agents');"), errors: [{ line: 1, column: 27 }] },
  ],
});

describe('tracing-sensitive-data is repo-wide', () => {
  const lint = (files: Record<string, string>) => {
    const scans = Object.entries(files).map(([f, t]) => scanSource(f, t));
    return lintFiles(scans, undefined, (s) => files[s.file]!).filter((f) => f.ruleId === 'tracing-sensitive-data');
  };

  it('is reported once, at the first importing file in path order', () => {
    const found = lint({ 'src/z.ts': "import { Agent } from '@openai/agents';\n", 'src/b.ts': "import { run } from '@openai/agents';\n" });
    expect(found.map((f) => `${f.file}:${f.line}:${f.column}`)).toEqual(['src/b.ts:1:21']);
  });

  it('is not reported when another file disables tracing', () => {
    const found = lint({
      'src/agent.ts': "import { Agent } from '@openai/agents';\n",
      'src/main.ts': "import { setTracingDisabled } from '@openai/agents';\nsetTracingDisabled(true);\n",
    });
    expect(found).toEqual([]);
  });
});
