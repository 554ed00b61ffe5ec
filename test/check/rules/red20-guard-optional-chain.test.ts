import { lines, ruleTester } from '../rule-tester.js';

/**
 * Red team, session 20 ("no false green"): a guard in the arguments of an optional call runs only
 * when the callee is there (`log?.(protectMcpServer(fs))`, `hooks?.onStart(protectMcpServer(fs))`,
 * `o?.[protectMcpServer(fs)]`): when it is undefined the arguments are never evaluated and the
 * server reaches the agent unguarded. guard-runs.ts `isConditionalPart` reads `&&`, `||`, `??` but
 * not an optional chain, so the guard counts and check is green.
 */
const SDK = "import { Agent, MCPServerStdio } from '@openai/agents';";
const GEN = "import { protectAgent, protectMcpServer } from './ctrlrun.generated.js';";
const FS = "const fs = new MCPServerStdio({ name: 'fs', fullCommand: 'x' });";
const AGENT = "export const a = new Agent({ name: 'a', mcpServers: [fs] });";

ruleTester('mcp-server-unguarded', {
  valid: [
    {
      name: 'the guard as the head of an optional chain runs (control: held before)',
      code: lines(SDK, GEN, FS, 'protectMcpServer(fs)?.connect();', AGENT),
    },
  ],
  invalid: [
    {
      name: 'a guard in the arguments of an optional call',
      code: lines(SDK, GEN, FS, 'declare const log: undefined | ((x: unknown) => void);', 'log?.(protectMcpServer(fs));', AGENT),
      errors: [{ line: 6, column: 54 }],
    },
    {
      name: 'a guard in the arguments of an optional method call',
      code: lines(SDK, GEN, FS, 'declare const hooks: undefined | { onStart(x: unknown): void };', 'hooks?.onStart(protectMcpServer(fs));', AGENT),
      errors: [{ line: 6, column: 54 }],
    },
    {
      name: 'a guard further down an optional chain',
      code: lines(SDK, GEN, FS, 'declare const app: undefined | { hooks: { onStart(x: unknown): void } };', 'app?.hooks.onStart(protectMcpServer(fs));', AGENT),
      errors: [{ line: 6, column: 54 }],
    },
    {
      name: 'protectAgent in the arguments of an optional call',
      code: lines(
        SDK,
        GEN,
        'declare const log: undefined | ((x: unknown) => void);',
        "const b = new Agent({ name: 'b' });",
        'log?.(protectAgent(b));',
        "b.mcpServers = [new MCPServerStdio({ name: 'db', fullCommand: 'z' })];",
      ),
      errors: [{ line: 6, column: 17 }],
    },
  ],
});
