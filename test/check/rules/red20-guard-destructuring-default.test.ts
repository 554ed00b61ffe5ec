import { lines, ruleTester } from '../rule-tester.js';

/**
 * Red team, session 20 ("no false green"): a guard as a destructuring default runs only when the
 * value is undefined (`const { servers = [protectMcpServer(fs)] } = options`): when the property is
 * there, the guard never runs and the server reaches the agent unguarded. guard-runs.ts
 * `isConditionalPart` reads branches, loop bodies and short-circuits, not a binding element's or an
 * assignment pattern's default, so the guard counts and check is green.
 */
const SDK = "import { Agent, MCPServerStdio } from '@openai/agents';";
const GEN = "import { protectMcpServer } from './ctrlrun.generated.js';";
const FS = "const fs = new MCPServerStdio({ name: 'fs', fullCommand: 'x' });";
const AGENT = "export const a = new Agent({ name: 'a', mcpServers: [fs] });";

ruleTester('mcp-server-unguarded', {
  valid: [
    {
      name: 'the guard as the destructured value itself runs (control: held before)',
      code: lines(SDK, GEN, FS, 'const { name } = protectMcpServer(fs);', AGENT, 'console.log(name);'),
    },
  ],
  invalid: [
    {
      name: 'an object pattern’s default in a declaration',
      code: lines(
        SDK,
        GEN,
        FS,
        'declare const options: { servers?: unknown[] };',
        'const { servers = [protectMcpServer(fs)] } = options;',
        AGENT,
        'console.log(servers);',
      ),
      errors: [{ line: 6, column: 54 }],
    },
    {
      name: 'an array pattern’s default in a declaration',
      code: lines(SDK, GEN, FS, 'declare const list: unknown[];', 'const [first = protectMcpServer(fs)] = list;', AGENT, 'console.log(first);'),
      errors: [{ line: 6, column: 54 }],
    },
    {
      name: 'a default in a destructuring assignment',
      code: lines(
        SDK,
        GEN,
        FS,
        'declare const options: { servers?: unknown };',
        'let servers: unknown;',
        '({ servers = protectMcpServer(fs) } = options);',
        AGENT,
        'console.log(servers);',
      ),
      errors: [{ line: 7, column: 54 }],
    },
    {
      name: 'a default in an array destructuring assignment',
      code: lines(
        SDK,
        GEN,
        FS,
        'declare const list: unknown[];',
        'let first: unknown;',
        '[first = protectMcpServer(fs)] = list;',
        AGENT,
        'console.log(first);',
      ),
      errors: [{ line: 7, column: 54 }],
    },
    {
      name: 'a default behind a key in a destructuring assignment',
      code: lines(
        SDK,
        GEN,
        FS,
        'declare const options: { servers?: unknown };',
        'let s: unknown;',
        '({ servers: s = protectMcpServer(fs) } = options);',
        AGENT,
        'console.log(s);',
      ),
      errors: [{ line: 7, column: 54 }],
    },
  ],
});
