import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir } from '../helpers/temp-repo.js';
import { codemodInSharedTree } from './shared-tree.js';

/**
 * Session 33 (test/check/red33-agent-tool-calls.test.ts): a function tool `{ type: KIND, invoke }`
 * handed to an agent in a file using the SDK, and literal doors an agent's `tools: makeTools()` or
 * `agent.tools.push(x)` reaches in a module naming no SDK, are each a conflict of the codemod at
 * check's place; the same files with safe values are none.
 */
const MANIFEST =
  'schema: ctrlrun.tools/v1\npolicy: ctrlrun.yaml\noutput: src/ctrlrun.generated.ts\ncontrol: src/ctrlrun.control.ts\ntools:\n  - tool: helper\n    action: weather.get\n';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

async function codemodOf(shell: string, fnType: string) {
  const files: Record<string, string> = {
    'ctrlrun.tools.yaml': MANIFEST,
    'src/kinds.ts': "export const SHELL = ['sh', 'ell'].join('');\nexport const FN = process.env.FN_TYPE!;\n",
    'src/make.ts': lines(
      "import { SHELL } from './kinds.js';",
      'declare const runner: any;',
      `export function makeTools() { return [{ type: SHELL, shell: ${shell} }]; }`,
      `export const pushed = { type: SHELL, computer: ${shell} };`,
      `export const mapped = () => [1].map(() => ({ type: SHELL, shell: ${shell} }));`,
    ),
    'src/agent.ts': lines(
      "import { Agent, tool } from '@openai/agents';",
      "import { FN } from './kinds.js';",
      "import { makeTools, pushed, mapped } from './make.js';",
      'declare const runner: any;',
      "const helper = tool({ name: 'helper', description: 'h', parameters: {} as any, execute: async () => 'ok' });",
      `export const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: [helper, { type: ${fnType}, name: 'inline', invoke: runner }] });`,
      "export const box = new Agent({ name: 'box', instructions: 'Help.', tools: makeTools() });",
      'box.tools.push(pushed);',
      // a function of the file called for the tools, a variable it returns, a `.map` callback
      `function build() { const list = [{ type: ${fnType}, name: 'built', invoke: runner }, ...mapped()]; return list; }`,
      "export const cart = new Agent({ name: 'cart', instructions: 'Help.', tools: build() });",
    ),
  };
  return codemodInSharedTree('codemod-red33-', files, dirs);
}

const lines = (...l: string[]): string => `${l.join('\n')}\n`;

describe('codemod: tools reached by a call, a push or an unread function type', () => {
  it('each is a conflict at check`s place', async () => {
    const { dir, result } = await codemodOf('runner', 'FN');
    const left = result.findings.filter((f) => f.kind === 'door-left');
    expect(left.map((f) => `${path.relative(dir, f.file)}:${f.line} ${f.reason}`).sort()).toEqual([
      'src/agent.ts:6 conflict',
      'src/agent.ts:9 conflict',
      'src/make.ts:3 conflict',
      'src/make.ts:4 conflict',
      'src/make.ts:5 conflict',
    ]);
    expect(result.summary.conflicts).toBe(5);
  });

  it('control: a literal shell body and a readable type that is no function are none', async () => {
    const { result } = await codemodOf("'/bin/sh'", "'method'");
    expect(result.findings.filter((f) => f.kind === 'door-left')).toEqual([]);
    expect(result.summary.conflicts).toBe(0);
  });
});
