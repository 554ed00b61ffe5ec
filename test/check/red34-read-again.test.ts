import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/*
 * Issue 40 item 4 ("no false green"): a second read of the agent-tool search session 33 added
 * (file/agent-tool-exports.ts, file/returned-values.ts) for branches that answer "nothing handed"
 * where the code cannot know.
 */

const KINDS = lines("export const SHELL = ['sh', 'ell'].join('');", 'export const FN = process.env.FN_TYPE!;');
const agentFile = (head: string[], tools: string): string =>
  lines(
    "import { Agent } from '@openai/agents';",
    "import { SHELL, FN } from './kinds.js';",
    'declare const runner: any;',
    'declare const flows: { name: string; run: any }[];',
    ...head,
    `export const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: ${tools} });`,
  );
const at = (files: Record<string, string>, file: string, ruleId: string): number[] =>
  lintRepo({ 'src/kinds.ts': KINDS, ...files }, { project: testProject(), ruleId, file }).map((f) => f.line);

describe('second read of the agent-tool search', () => {
  it('a function of the file with an overload signature: its implementation`s returns', () => {
    const files = {
      'src/agent.ts': agentFile(
        [
          'function outer() {',
          '  function first() { return []; }',
          '  function build(): any[];',
          '  function build(n?: number): any[] {',
          "    return [{ type: FN, name: 'lookup', invoke: runner }];",
          '  }',
          '  return new Agent({ name: "inner", instructions: "Help.", tools: build() });',
          '}',
          'console.log(outer);',
        ],
        '[]',
      ),
    };
    expect(at(files, 'src/agent.ts', 'object-literal-tool')).toEqual([9]);
  });

  it('a `.map` callback written in parentheses, in a module naming no SDK', () => {
    const files = {
      'src/agent.ts': agentFile(["import { mapped } from './tools/make.js';"], 'mapped()'),
      'src/tools/make.ts': lines(
        "import { SHELL } from '../kinds.js';",
        'declare const flows: { run: any }[];',
        'export const mapped = () => flows.map(((f) => ({ type: SHELL, shell: f.run })));',
      ),
    };
    expect(at(files, 'src/tools/make.ts', 'unprotected-door')).toEqual([3]);
  });
});
